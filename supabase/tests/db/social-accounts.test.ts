/**
 * Issue 30: accounts on shared platforms are identifiers of their own. A report of one Facebook page,
 * Telegram account or short link marks that account only (search, statistics), every paste form finds
 * it, a platform itself cannot be reported, and migration 20261127130100 re-reads stored reports from
 * their raw value (its data step is replayed here on rows written the old way).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { adminPool } from '../helpers.ts';
import { anon, run } from './actors.ts';

const MIGRATION = path.resolve(
  import.meta.dirname,
  '../../migrations/20261127130100_canonical_social_accounts.sql',
);

interface Search {
  summary: { count: number };
}

async function count(text: string): Promise<number> {
  const [{ r }] = await run<{ r: Search }>(anon, 'select public.search_reports($1) as r', [text]);
  return r.summary.count;
}

async function file(kind: string, value: string, status = 'verified') {
  const { rows } = await adminPool().query<{ id: string; type: string; canonical: string }>(
    `insert into public.reports (incident_date, incident_type, reported_account_type, reported_account, status)
     values ('2026-01-01', 'scam', $1, $2, $3)
     returning id, reported_account_type as type, reported_account_canonical as canonical`,
    [kind, value, status],
  );
  return rows[0];
}

describe('holds on: postgres — social media and chat accounts', () => {
  it('a reported Facebook page marks that page only, however it is pasted', async () => {
    const page = `GCashPromoOfficial${Date.now()}`;
    const r = await file('website', `https://www.facebook.com/${page}`);
    expect(r.type).toBe('social');
    expect(r.canonical).toBe(`facebook.com/${page.toLowerCase()}`);
    for (const form of [
      `facebook.com/${page}`,
      `https://m.facebook.com/${page}/posts/123`,
      `web.facebook.com/${page.toUpperCase()}?ref=share`,
      `fb.com/${page}`,
      `m.me/${page}`,
      `hxxps://www[.]facebook[.]com/${page}`,
    ])
      expect([form, await count(form)]).toEqual([form, 1]);
    expect(await count('https://www.facebook.com/DOSTph')).toBe(0);
    expect(await count('facebook.com')).toBe(0);
  });

  it('a Telegram account, a short link and a WhatsApp number are their own identifiers', async () => {
    const n = Date.now().toString(36);
    await file('social', `t.me/Help${n}`);
    expect(await count(`https://t.me/help${n}`)).toBe(1);
    expect(await count(`t.me/other${n}`)).toBe(0);
    const short = await file('website', `https://bit.ly/Gc${n}`);
    expect(short).toMatchObject({ type: 'website', canonical: `bit.ly/Gc${n}` });
    expect(await count(`bit.ly/Gc${n}`)).toBe(1);
    expect(await count(`bit.ly/gc${n}`)).toBe(0);
    expect(await count('bit.ly')).toBe(0);
    const digits = String(Date.now()).slice(-7);
    const wa = await file('website', `https://wa.me/63917${digits}`);
    expect(wa).toMatchObject({ type: 'mobile', canonical: `+63917${digits}` });
    for (const form of [
      `0917 ${digits}`,
      `\u202a+63 917 ${digits}\u202c`,
      `\u200e0917${digits}`,
      `０９１７${digits.replace(/\d/g, (d) => String.fromCharCode(0xff10 + Number(d)))}`,
      `0917\u2013${digits.slice(0, 3)}\u2013${digits.slice(3)}`,
      `0917\u2011${digits.slice(0, 3)}\u2011${digits.slice(3)}`,
      `viber://chat?number=%2B63917${digits}`,
    ])
      expect([form, await count(form)]).toEqual([form, 1]);
  });

  it('a defanged link finds its site', async () => {
    const host = `gcash-rewards-${Date.now().toString(36)}.com`;
    await file('website', `https://${host}/claim`);
    expect(await count(`hxxps://${host.replace('.com', '[.]com')}/claim`)).toBe(1);
  });

  it('a platform itself, or a social value naming no account, is refused with a clear message', async () => {
    await expect(file('website', 'https://www.facebook.com/')).rejects.toThrow(
      /platform shared by many accounts/,
    );
    await expect(file('website', 'bit.ly')).rejects.toThrow(/platform shared by many accounts/);
    await expect(file('website', 'vercel.app')).rejects.toThrow(/platform shared by many accounts/);
    await expect(file('social', 'https://example.com/juan')).rejects.toThrow(/not a link to a social media/);
    await expect(file('social', '@juan')).rejects.toThrow(/not a link to a social media/);
  });

  it('statistics count social accounts under their own type', async () => {
    const before = await adminPool().query<{ n: string }>(
      `select coalesce(sum(report_count), 0) as n from private.stats_daily where reported_account_type = 'social'`,
    );
    await file('social', `instagram.com/stat${Date.now()}`);
    const after = await adminPool().query<{ n: string }>(
      `select coalesce(sum(report_count), 0) as n from private.stats_daily where reported_account_type = 'social'`,
    );
    expect(Number(after.rows[0].n) - Number(before.rows[0].n)).toBe(1);
    const { rows } = await adminPool().query<{ s: { by_account_type: Record<string, number> }[] }>(
      `select private.stats_series('month', current_date - 60, current_date) as s`,
    );
    expect(Object.keys(rows[0].s[0].by_account_type)).toContain('social');
  });

  it('the migration re-reads stored reports from their raw value and moves their statistics', async () => {
    const sql = readFileSync(MIGRATION, 'utf8');
    const start = sql.indexOf('-- Existing data, re-canonicalised');
    const dataStep = sql.slice(start, sql.indexOf('-- Notify Me registrations likewise'));
    const n = Date.now();
    const old: [string, string, string][] = [
      ['website', `https://www.facebook.com/OldPage${n}`, 'facebook.com'],
      ['website', `https://bit.ly/Old${n}`, 'bit.ly'],
      ['website', `https://wa.me/63918${String(n).slice(-7)}`, 'wa.me'],
      ['mobile', `\u202a0919 ${String(n).slice(-7)}\u202c`, '\u202a0919 ' + String(n).slice(-7) + '\u202c'],
      ['website', `old${n}.example.com`, `old${n}.example.com`],
    ];
    const client = await adminPool().connect();
    try {
      await client.query('begin');
      const stat = async () =>
        (
          await client.query<{ type: string; n: string }>(
            `select reported_account_type as type, sum(report_count) as n from private.stats_daily
             where day = '2026-01-01'::date group by 1`,
          )
        ).rows;
      // As the old triggers wrote them (the statistics triggers still count them).
      await client.query('alter table public.reports disable trigger reports_before_write');
      await client.query('alter table public.reports disable trigger reports_account_kind');
      const ids: string[] = [];
      for (const [kind, raw, canonical] of old) {
        const { rows } = await client.query<{ id: string }>(
          `insert into public.reports (incident_date, incident_type, reported_account_type, reported_account,
                                       reported_account_canonical, status, created_at)
           values ('2026-01-01', 'scam', $1, $2, $3, 'verified', '2026-01-01T12:00:00Z') returning id`,
          [kind, raw, canonical],
        );
        ids.push(rows[0].id);
      }
      await client.query('alter table public.reports enable trigger reports_before_write');
      await client.query('alter table public.reports enable trigger reports_account_kind');
      const before = await stat();
      await client.query(dataStep);
      const { rows: after } = await client.query<{ type: string; canonical: string }>(
        `select reported_account_type as type, reported_account_canonical as canonical
         from public.reports where id = any($1) order by array_position($1, id)`,
        [ids],
      );
      expect(after).toEqual([
        { type: 'social', canonical: `facebook.com/oldpage${n}` },
        { type: 'website', canonical: `bit.ly/Old${n}` },
        { type: 'mobile', canonical: `+63918${String(n).slice(-7)}` },
        { type: 'mobile', canonical: `+63919${String(n).slice(-7)}` },
        { type: 'website', canonical: `old${n}.example.com` },
      ]);
      const moved = await stat();
      const of = (rows: { type: string; n: string }[], t: string) =>
        Number(rows.find((r) => r.type === t)?.n ?? 0);
      expect(of(moved, 'social') - of(before, 'social')).toBe(1);
      expect(of(moved, 'mobile') - of(before, 'mobile')).toBe(1);
      expect(of(moved, 'website') - of(before, 'website')).toBe(-2);
    } finally {
      await client.query('rollback');
      client.release();
    }
  });
});

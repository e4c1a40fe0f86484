/**
 * GET /api/v1/range/{prefix} and the shared client function (issue 14, section 4): on random
 * identifiers, reported or not and typed in any form, the private lookup answers what the plain search
 * answers (count, risk level and label); answers are padded to a fixed size, cacheable (ETag, 304) and
 * not logged; bad prefixes get 400.
 */
import { randomInt } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  lookupIdentifierPrivately,
  lookupIdentifiersPrivately,
  rangeKey,
  RANGE_PAGE,
} from '../../functions/_shared/range.ts';
import { withRole } from '../helpers.ts';
import { adminPool, unique } from '../helpers.ts';
import { API, address, api, createUser, subjectOf } from './helpers.ts';

interface Search {
  summary: {
    numberOfReports: number;
    riskPercentage: number;
    riskLevel: string;
    verifiedReports: number;
    pendingReports: number;
  };
}

const run = unique('rg');
/** Random identifiers of every kind, each written one way for the report and another for the lookup. */
function randomIdentifiers(n: number): { reported: string; typed: string; kind: string }[] {
  return Array.from({ length: n }, (_, i) => {
    const digits = String(randomInt(0, 1e9)).padStart(9, '0');
    switch (i % 4) {
      case 0:
        return {
          kind: 'mobile',
          reported: `09${digits}`,
          typed: `+63 9${digits.slice(0, 2)} ${digits.slice(2)}`,
        };
      case 1:
        return { kind: 'email', reported: `${run}.${i}@Example.com`, typed: `${run}.${i}@EXAMPLE.COM` };
      case 2:
        return {
          kind: 'website',
          reported: `https://${run}-${i}.example.ph/login`,
          typed: `${run}-${i}.EXAMPLE.ph`,
        };
      default:
        return { kind: 'ewallet', reported: `GCash ${digits}`, typed: `gcash ${digits}` };
    }
  });
}

const identifiers = randomIdentifiers(24);

beforeAll(async () => {
  // Two thirds reported, by 1 to 3 reporters each, verified or pending, some old; the rest never.
  for (const [i, id] of identifiers.entries()) {
    if (i % 3 === 2) continue;
    const reports = 1 + (i % 3);
    await adminPool().query(
      `insert into public.reports (incident_date, incident_type, reported_account_type, reported_account, status, created_at)
       select current_date - 1, 'scam', $1::public.reported_account_type, $2,
              (case when (g + $3) % 2 = 0 then 'verified' else 'pending' end)::public.report_status,
              now() - (g * 40) * interval '1 day'
       from generate_series(1, $4::int) g`,
      [id.kind, id.reported, i, reports],
    );
  }
});

describe('the range lookup', () => {
  it('agrees with the plain search on its verified reports, on random identifiers, reported or not, however typed', async () => {
    for (const id of identifiers) {
      const privately = await lookupIdentifierPrivately(id.typed, { apiBase: API() });
      const search = await api<Search>('GET', `/search/${encodeURIComponent(id.typed)}`);
      expect(search.status).toBe(200);
      // Issue 27: the range counts verified reports only; an identifier without one is not listed.
      expect(privately!.count, id.typed).toBe(search.body.summary.verifiedReports);
      if (search.body.summary.pendingReports === 0)
        expect(privately, id.typed).toMatchObject({
          risk_level: search.body.summary.riskPercentage,
          risk_label: search.body.summary.riskLevel,
        });
      // The prefix is all that was sent.
      expect(privately!.prefix).toMatch(/^[0-9a-f]{5}$/);
    }
    const reported = identifiers.filter((_, i) => i % 3 !== 2);
    const found = await Promise.all(
      reported.map((id) => lookupIdentifierPrivately(id.typed, { apiBase: API() })),
    );
    expect(found.some((r) => r!.count > 0)).toBe(true);
  });

  it('looks up many at once (as /check does): one request per distinct prefix, answers as check_identifiers gives them', async () => {
    const queries = [...identifiers, identifiers[0]].map((id) => ({
      value: id.typed,
      kind: id.kind as never,
    }));
    const asked: string[] = [];
    const counting: typeof fetch = (input, init) => {
      asked.push(String(input));
      return fetch(input, init);
    };
    const results = await lookupIdentifiersPrivately([...queries, { value: '  ' }], {
      apiBase: API(),
      fetch: counting,
    });
    expect(results.at(-1)).toBeNull();
    const prefixes = new Set(results.flatMap((r) => (r ? [r.prefix] : [])));
    expect([...asked].sort()).toEqual([...prefixes].map((p) => `${API()}/range/${p}`).sort());
    const { rows } = await adminPool().query(`select public.check_identifiers($1::jsonb) as rows`, [
      JSON.stringify(queries.map((q) => ({ type: q.kind, value: q.value }))),
    ]);
    const plain = rows[0].rows as {
      canonical: string;
      verified_count: number;
      pending_count: number;
      risk_level: number;
      risk_label: string;
    }[];
    // Issue 27: the range answers the verified reports only (their count, and their risk when there
    // are no pending ones beside them).
    expect(results.slice(0, -1).map((r) => [r!.canonical, r!.count])).toEqual(
      plain.map((p) => [p.canonical, p.verified_count]),
    );
    for (const [i, p] of plain.entries())
      if (p.pending_count === 0)
        expect(results[i]).toMatchObject({ risk_level: p.risk_level, risk_label: p.risk_label });
    expect(results.some((r) => r && r.count > 0)).toBe(true);
  });

  it('pads every answer to one size, with entries sorted by suffix', async () => {
    const keys = await Promise.all(identifiers.map((id) => rangeKey(id.typed)));
    const { rows: listed } = await adminPool().query<{ c: string }>(
      `select identifier_canonical as c from public.identifier_report_counts where identifier_canonical = any($1) and verified_count > 0`,
      [keys.map((k) => k!.canonical)],
    );
    const hit = keys.find((k) => k!.canonical === listed[0].c)!;
    let empty = 'fffff';
    while (
      (
        await adminPool().query(
          `select 1 from public.identifier_report_counts where private.identifier_hash_prefix(identifier_canonical) = $1 and verified_count > 0`,
          [empty],
        )
      ).rowCount
    )
      empty = randomInt(0, 0xfffff).toString(16).padStart(5, '0');
    const a = await fetch(`${API()}/range/${hit.prefix}`);
    const b = await fetch(`${API()}/range/${empty}`);
    const [ta, tb] = [await a.text(), await b.text()];
    expect(ta.length).toBe(tb.length);
    for (const text of [ta, tb]) {
      const { entries } = JSON.parse(text) as { entries: { suffix: string; count: number }[] };
      expect(entries).toHaveLength(RANGE_PAGE);
      expect(entries.every((e) => /^[0-9a-f]{59}$/.test(e.suffix))).toBe(true);
      expect(entries.map((e) => e.suffix)).toEqual([...entries.map((e) => e.suffix)].sort());
    }
    expect(JSON.parse(ta).entries.filter((e: { suffix: string }) => e.suffix === hit.suffix)).toHaveLength(1);
  });

  it('is cacheable: Cache-Control, ETag, 304 on If-None-Match, and a new ETag when the range changes', async () => {
    const id = identifiers[2];
    const key = (await rangeKey(id.typed))!;
    const first = await fetch(`${API()}/range/${key.prefix.toUpperCase()}`);
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('public, max-age=300');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    const again = await fetch(`${API()}/range/${key.prefix}`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    await adminPool().query(
      `insert into public.reports (incident_date, incident_type, reported_account_type, reported_account, status)
       values (current_date, 'scam', $1::public.reported_account_type, $2, 'verified')`,
      [id.kind, id.reported],
    );
    const changed = await fetch(`${API()}/range/${key.prefix}`, { headers: { 'if-none-match': etag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
  });

  it('logs nothing and refuses prefixes that are not 5 hex characters', async () => {
    const key = (await rangeKey(identifiers[0].typed))!;
    const logged = async () =>
      (
        await adminPool().query(
          'select count(*)::int as n from public.search_log where identifier_canonical = $1',
          [key.canonical],
        )
      ).rows[0].n;
    const before = await logged();
    await fetch(`${API()}/range/${key.prefix}`);
    expect(await logged()).toBe(before);
    for (const bad of ['abcd', 'abcdef', 'ghijk', '%20abcd'])
      expect((await api('GET', `/range/${bad}`)).status, bad).toBe(400);
  });

  it('answers requests that arrive together in shared database calls, each with its own limit and range', async () => {
    const addresses = Array.from({ length: 20 }, () => address());
    const prefixes = (await Promise.all(identifiers.slice(0, 8).map((id) => rangeKey(id.typed)))).map(
      (k) => k!.prefix,
    );
    const asked = addresses.flatMap((xff, i) =>
      [0, 1].map((j) => ({ xff, prefix: prefixes[(i + j) % prefixes.length] })),
    );
    const answers = await Promise.all(
      asked.map(async ({ xff, prefix }) => {
        const res = await fetch(`${API()}/range/${prefix}`, { headers: { 'x-forwarded-for': xff } });
        return {
          xff,
          prefix,
          status: res.status,
          remaining: res.headers.get('ratelimit-remaining'),
          batch: Number(/batch;desc="(\d+)"/.exec(res.headers.get('server-timing') ?? '')?.[1]),
          body: (await res.json()) as { prefix: string; entries: unknown[] },
        };
      }),
    );
    // Some call carried more than one request (40 at once), and every request got its own answer ...
    expect(Math.max(...answers.map((a) => a.batch))).toBeGreaterThan(1);
    for (const a of answers) {
      expect(a.status).toBe(200);
      expect(a.body.prefix).toBe(a.prefix);
      const alone = (await (await fetch(`${API()}/range/${a.prefix}`)).json()) as { entries: unknown[] };
      expect(a.body.entries).toEqual(alone.entries);
    }
    // ... and took one call from its own address's limit: each address's two requests left 119 and 118.
    for (const xff of addresses)
      expect(
        answers
          .filter((a) => a.xff === xff)
          .map((a) => a.remaining)
          .sort(),
      ).toEqual(['118', '119']);
  });

  it('holds on: edge function + postgres — takes the caller’s limit in its one database call: per forwarded address without a key, per key with one', async () => {
    const prefix = 'abcde';
    const get = (headers: Record<string, string>) => fetch(`${API()}/range/${prefix}`, { headers });
    const xff = address();
    const first = await get({ 'x-forwarded-for': xff });
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-limit')).toBe('120');
    expect(first.headers.get('ratelimit-remaining')).toBe('119');
    // That address's bucket spent and held empty: 429 for it, while another address is served.
    const subject = await subjectOf(xff);
    await adminPool().query(`select private.rate_limit_take('api.anon', $1, 119)`, [subject]);
    await adminPool().query(
      `update private.rate_limit_buckets set tat = now() + interval '2 minutes' where name = 'api.anon' and subject = $1`,
      [subject],
    );
    const refused = await get({ 'x-forwarded-for': xff });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    expect(((await refused.json()) as { msg: string }).msg).toMatch(
      /^Too many API requests from your address/,
    );
    expect((await get({ 'x-forwarded-for': address() })).status).toBe(200);
    // A key: its own, larger bucket, from the spent address too; refused at once once revoked.
    const owner = await createUser('rangekey');
    const made = await withRole(
      adminPool(),
      { role: 'authenticated', sub: owner.id },
      async (c) =>
        (await c.query<{ k: { id: string; key: string } }>(`select public.create_api_key('range') as k`))
          .rows[0].k,
    );
    const keyed = await get({ 'x-forwarded-for': xff, 'x-api-key': made.key });
    expect(keyed.status).toBe(200);
    expect(keyed.headers.get('ratelimit-limit')).toBe('1200');
    await withRole(adminPool(), { role: 'authenticated', sub: owner.id }, (c) =>
      c.query('select public.revoke_api_key($1)', [made.id]),
    );
    const revoked = await get({ 'x-api-key': made.key });
    expect(revoked.status).toBe(401);
    expect(await revoked.json()).toEqual({ msg: 'This API key has been revoked' });
  });
});

/**
 * Every seeded row has an RFC 4122 id (issue 19): the legacy API checks ids strictly, and before the
 * seed's md5-derived ids got a version and variant, GET/PATCH/DELETE /reports/{id} and GET /news/{id}
 * answered 404 for all of them.
 */
import { describe, expect, it } from 'vitest';
import { adminPool, seedUuidSql } from '../helpers.ts';
import { api } from './helpers.ts';

const RFC_4122 = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

async function loginToken(email: string, password: string): Promise<string> {
  const res = await api<{ token: string }>('POST', '/auth/login', { json: { email, password } });
  expect(res.status).toBe(200);
  return res.body.token;
}

/** Runs `fn` over `items`, `width` at a time. */
async function eachLimited<T>(items: T[], width: number, fn: (item: T) => Promise<void>) {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: width }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await fn(item);
    }),
  );
}

describe('seeded ids', () => {
  it('are RFC 4122 UUIDs in every seeded table', async () => {
    for (const table of ['reports', 'news', 'contact_messages', 'profiles']) {
      const { rows } = await adminPool().query<{ id: string }>(`select id::text from public.${table}`);
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.filter((r) => !RFC_4122.test(r.id)).map((r) => `${table} ${r.id}`)).toEqual([]);
    }
  });

  it('every seeded article opens through GET /news/{id}', async () => {
    const { rows } = await adminPool().query<{ id: string; news_title: string }>(
      'select id, news_title from public.news where author_id is not null order by created_at',
    );
    for (const row of rows) {
      const res = await api<{ news: { _id: string; newsTitle: string } }>('GET', `/news/${row.id}`);
      expect([row.id, res.status]).toEqual([row.id, 200]);
      expect(res.body.news).toMatchObject({ _id: row.id, newsTitle: row.news_title });
    }
  });

  it('every seeded report opens through GET /reports/{id} for the admin; the demo user edits and deletes theirs', async () => {
    const admin = await loginToken('admin@scamcheck.local', 'scamcheck-admin');
    // The seed's reports are 'report1' .. 'report420' (whichever still exist: tests may remove some).
    const { rows } = await adminPool().query<{ id: string }>(
      `select r.id from public.reports r where r.id in (select ${seedUuidSql("'report' || g")} from generate_series(1, 420) g)`,
    );
    const ids = rows.map((r) => r.id);
    expect(ids.length).toBeGreaterThanOrEqual(300);
    const failed: string[] = [];
    await eachLimited(ids, 8, async (id) => {
      const res = await api('GET', `/reports/${id}`, { token: admin });
      if (res.status !== 200) failed.push(`${id}: ${res.status}`);
    });
    expect(failed).toEqual([]);

    const user = await loginToken('user@scamcheck.local', 'scamcheck-user');
    const { rows: own } = await adminPool().query(
      `select r.* from public.reports r join auth.users u on u.id = r.reporter_id where u.email = 'user@scamcheck.local' order by r.created_at limit 2`,
    );
    expect(own).toHaveLength(2);
    const patched = await api('PATCH', `/reports/${own[0].id}`, {
      token: user,
      json: { incidentDescription: own[0].incident_description ?? 'Seller blocked me after payment.' },
    });
    expect(patched.status).toBe(200);
    const deleted = await api('DELETE', `/reports/${own[1].id}`, { token: user });
    expect(deleted.status).toBe(200);
    expect((await adminPool().query('select 1 from public.reports where id = $1', [own[1].id])).rows).toEqual(
      [],
    );
    // Put the demo row back, so the demo data stays whole for whoever uses the stack next.
    const cols = Object.keys(own[1]).filter((c) => c !== 'reported_account_canonical');
    await adminPool().query(
      `insert into public.reports (${cols.join(', ')}) values (${cols.map((_, i) => `$${i + 1}`).join(', ')})`,
      cols.map((c) => own[1][c]),
    );
  });
});

/**
 * /rest/v1 sends each request's statements as one batch on a pooled connection, prepared once per
 * connection (rest/executor.ts, rest/batch.ts). These tests hold it to what separate transactions
 * give: every request gets its own rows or its own error, a failing request (even one whose prepared
 * statement never came to be) leaves the others alone, a slow request does not hold up the ones sent
 * after it, and cut connections are replaced.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signJwt } from '../jwt.ts';
import { REST_APPLICATION_NAME } from '../rest/executor.ts';
import { adminPool, stackEnv, unique } from '../testing/index.ts';

const p = unique('exec_');
const items = `${p}_items`;
const ROWS = 40;

async function get(path: string, token = stackEnv('ANON_KEY')) {
  const res = await fetch(`${stackEnv('API_URL')}/rest/v1/${path}`, {
    headers: { apikey: stackEnv('ANON_KEY'), authorization: `Bearer ${token}` },
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as unknown) : null };
}

beforeAll(async () => {
  await adminPool().query(`
    create table public.${items} (id int primary key, name text not null);
    insert into public.${items} select i, 'item ' || i from generate_series(1, ${ROWS}) i;
    alter table public.${items} enable row level security;
    create policy "Anyone reads" on public.${items} for select to anon using (true);
    grant select on public.${items} to anon;
    create function public.${p}_echo(t text) returns json language sql immutable as $$ select json_build_object('text', t, 'bytes', octet_length(t), 'null', t is null) $$;
    grant execute on function public.${p}_echo(text) to anon;
    create function public.${p}_sleep(seconds float8) returns int language sql as $$ select 1 from pg_sleep(seconds) $$;
    grant execute on function public.${p}_sleep(float8) to anon;
  `);
  // The schema cache catches up with the new table and function on first use.
  expect((await get(`${items}?select=id&id=eq.1`)).status).toBe(200);
  expect((await get(`rpc/${p}_sleep?seconds=0`)).status).toBe(200);
});

afterAll(async () => {
  await adminPool().query(
    `drop table public.${items}; drop function public.${p}_sleep(float8), public.${p}_echo(text);`,
  );
});

describe('the REST executor', () => {
  it('gives each of many concurrent requests its own rows or its own error', async () => {
    // A role that does not exist fails in the statement that sets the role, before the read's own
    // statement is prepared; a bad number fails when it is bound. Both share the good reads' SQL text.
    const badRole = await signJwt({ role: `${p}_no_such_role`, exp: Math.floor(Date.now() / 1000) + 600 });
    for (let round = 0; round < 3; round++) {
      // Each round reads with a select list of its own, so its statement is new to the connection and
      // the first request (which fails) is the one that would have prepared it.
      const select = `id,r${round}:name`;
      const requests = Array.from({ length: 60 }, (_, i) => {
        const id = 1 + (i % ROWS);
        if (i % 5 === 0)
          return get(`${items}?select=${select}&id=eq.${id}`, badRole).then((r) => ({ kind: 'role', id, r }));
        if (i % 5 === 3)
          return get(`${items}?select=${select}&id=eq.x${id}`).then((r) => ({ kind: 'number', id, r }));
        return get(`${items}?select=${select}&id=eq.${id}`).then((r) => ({ kind: 'good', id, r }));
      });
      for (const { kind, id, r } of await Promise.all(requests)) {
        if (kind === 'good') expect(r).toEqual({ status: 200, body: [{ id, [`r${round}`]: `item ${id}` }] });
        else if (kind === 'role')
          expect(r.body).toMatchObject({ message: `role "${p}_no_such_role" does not exist` });
        else
          expect(r).toMatchObject({
            status: 400,
            body: { code: '22P02', message: `invalid input syntax for type integer: "x${id}"` },
          });
      }
    }
  });

  it('does not hold up requests sent after a slow one', async () => {
    const began = Date.now();
    const slow = get(`rpc/${p}_sleep?seconds=1`).then((r) => ({ ...r, ms: Date.now() - began }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const t0 = Date.now();
    for (let i = 1; i <= 10; i++)
      expect((await get(`${items}?select=id&id=eq.${i}`)).body).toEqual([{ id: i }]);
    expect(Date.now() - t0).toBeLessThan(700);
    const done = await slow;
    expect(done.status).toBe(200);
    expect(done.ms).toBeGreaterThanOrEqual(1000);
  });

  it('replaces pooled connections that were cut', async () => {
    const db = adminPool();
    const connections = async () =>
      Number(
        (
          await db.query(`select count(*) from pg_stat_activity where application_name = $1`, [
            REST_APPLICATION_NAME,
          ])
        ).rows[0].count,
      );
    expect(await connections()).toBeGreaterThan(0);
    await db.query(`select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1`, [
      REST_APPLICATION_NAME,
    ]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (let i = 1; i <= 5; i++)
      expect(await get(`${items}?select=id&id=eq.${i}`)).toEqual({ status: 200, body: [{ id: i }] });
    // New connections were opened and take requests again.
    await expect.poll(connections, { timeout: 5000 }).toBeGreaterThan(0);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => get(`${items}?select=id&id=eq.${i + 1}`)),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
  });

  it('answers a request whose connection is cut while it runs, and the next ones on other connections', async () => {
    const db = adminPool();
    const slow = get(`rpc/${p}_sleep?seconds=2`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await db.query(
      `select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1 and query like $2`,
      [REST_APPLICATION_NAME, `%${p}_sleep%`],
    );
    // The server says why before it closes: admin_shutdown, which PostgREST answers with 503.
    expect(await slow).toMatchObject({ status: 503, body: { code: '57P01' } });
    for (let i = 1; i <= 5; i++)
      expect(await get(`${items}?select=id&id=eq.${i}`)).toEqual({ status: 200, body: [{ id: i }] });
  });

  it('carries parameters byte for byte: multi-byte text, empty strings, NULL and long values', async () => {
    const values = [
      'Mañana ₱500 GCash 🚨',
      '',
      'x'.repeat(70_000),
      'quote " back\\slash \u0001 ctl',
      '日本語テキスト',
    ];
    for (const t of values) {
      const res = await fetch(`${stackEnv('API_URL')}/rest/v1/rpc/${p}_echo`, {
        method: 'POST',
        headers: { apikey: stackEnv('ANON_KEY'), 'content-type': 'application/json' },
        body: JSON.stringify({ t }),
      });
      expect(await res.json()).toEqual({ text: t, bytes: Buffer.byteLength(t), null: false });
    }
    const nul = await fetch(`${stackEnv('API_URL')}/rest/v1/rpc/${p}_echo`, {
      method: 'POST',
      headers: { apikey: stackEnv('ANON_KEY'), 'content-type': 'application/json' },
      body: JSON.stringify({ t: null }),
    });
    expect(await nul.json()).toEqual({ text: null, bytes: null, null: true });
    // Filter values travel the same way, as parameters of the read.
    expect((await get(`${items}?select=id&name=eq.${encodeURIComponent('ñ🚨')}`)).body).toEqual([]);
  });
});

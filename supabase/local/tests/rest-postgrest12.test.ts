/**
 * Conformance of /rest/v1 with PostgREST 12 where apps depend on it (issue 17), each case written from
 * PostgREST's documentation and its own test suite (test/spec/Feature/...), not from what the stand-in
 * happens to do: aggregates and the in-database `pgrst.*` configuration reloaded by NOTIFY, safety
 * preferences, transaction end, schema reloads, RPC counts, and embedding.
 *
 * Settings changed here are ones other test files do not depend on (aggregates, tx-end with override
 * allowed, which keeps commit as the default), and each test puts them back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminPool, stackEnv, unique } from '../testing/index.ts';

const p = unique('pg12_');

async function rest(
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown; token?: string } = {},
) {
  const res = await fetch(`${stackEnv('API_URL')}/rest/v1/${path}`, {
    method: init.method ?? 'GET',
    headers: {
      apikey: stackEnv('ANON_KEY'),
      authorization: `Bearer ${init.token ?? stackEnv('SERVICE_ROLE_KEY')}`,
      'content-type': 'application/json',
      ...init.headers,
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: kept as text
  }
  return { status: res.status, headers: res.headers, body };
}

/** Sets (or with `value` null resets) a pgrst.* setting on authenticator and reloads the config. */
async function pgrstSetting(name: string, value: string | null) {
  const db = adminPool();
  await db.query(
    value === null
      ? `alter role authenticator reset pgrst.${name}`
      : `alter role authenticator set pgrst.${name} = '${value}'`,
  );
  await db.query(`notify pgrst, 'reload config'`);
}

beforeAll(async () => {
  await adminPool().query(`
    create table public.${p}_customers (id int primary key, name text not null);
    create table public.${p}_orders (
      id int primary key, customer_id int references public.${p}_customers(id),
      amount numeric not null, note text, order_date date not null);
    insert into public.${p}_customers values (1, 'Ana'), (2, 'Ben'), (3, 'Cy');
    insert into public.${p}_orders values
      (1, 1, 100, 'a', '2026-01-01'), (2, 1, 200, null, '2026-01-01'), (3, 2, 50, 'c', '2026-01-02'),
      (4, 2, 25, null, '2026-01-02'), (5, 2, 25, 'e', '2026-01-03');
    grant select, insert, update, delete on public.${p}_customers, public.${p}_orders to service_role;
  `);
});

afterAll(async () => {
  await pgrstSetting('db_plan_enabled', null);
  await pgrstSetting('db_aggregates_enabled', null);
  await pgrstSetting('db_tx_end', null);
  await adminPool().query(
    `drop function if exists public.${p}_ids(), public.${p}_one(); drop table public.${p}_orders, public.${p}_customers`,
  );
});

describe('aggregate functions (db-aggregates-enabled)', () => {
  it('refuses aggregates with PGRST123 while disabled, PostgREST’s default, at the root and in embeds', async () => {
    const refused = {
      status: 400,
      body: {
        code: 'PGRST123',
        details: null,
        hint: null,
        message: 'Use of aggregate functions is not allowed',
      },
    };
    expect(await rest(`${p}_orders?select=amount.sum()`)).toMatchObject(refused);
    expect(await rest(`${p}_orders?select=count()`)).toMatchObject(refused);
    expect(await rest(`${p}_customers?select=name,${p}_orders(amount.sum())`)).toMatchObject(refused);
    // The legacy `count` column is PostgreSQL's count(row), not an aggregate PostgREST checks.
    expect((await rest(`${p}_orders?select=count`)).body).toEqual([{ count: 5 }]);
  });

  it("turns on with pgrst.db_aggregates_enabled on authenticator and NOTIFY pgrst, 'reload config'", async () => {
    await pgrstSetting('db_aggregates_enabled', 'true');
    await expect
      .poll(async () => (await rest(`${p}_orders?select=count()`)).body, { timeout: 5000 })
      .toEqual([{ count: 5 }]);
    expect((await rest(`${p}_orders?select=cnt:count()`)).body).toEqual([{ cnt: 5 }]);
    expect((await rest(`${p}_orders?select=count()::text`)).body).toEqual([{ count: '5' }]);
    expect((await rest(`${p}_orders?select=amount.sum()`)).body).toEqual([{ sum: 400 }]);
    expect((await rest(`${p}_orders?select=amount.max(),amount.min()`)).body).toEqual([
      { max: 200, min: 25 },
    ]);
    expect((await rest(`${p}_orders?select=amount.avg()::int`)).body).toEqual([{ avg: 80 }]);
    // count(col) counts the non-null values; count() the rows.
    expect((await rest(`${p}_orders?select=count(),notes:note.count()`)).body).toEqual([
      { count: 5, notes: 3 },
    ]);
    // Other selected fields group the aggregate, aliases included (AggregateFunctionsSpec).
    expect(
      (await rest(`${p}_orders?select=amount.sum(),cid:customer_id&order=customer_id.desc`)).body,
    ).toEqual([
      { sum: 100, cid: 2 },
      { sum: 300, cid: 1 },
    ]);
    expect(
      (await rest(`${p}_orders?select=c:count(),order_date&order_date=gte.2026-01-02&order=order_date`)).body,
    ).toEqual([
      { c: 2, order_date: '2026-01-02' },
      { c: 1, order_date: '2026-01-03' },
    ]);
    // Cast the aggregated column, then the aggregate.
    expect((await rest(`${p}_orders?select=amount::int.sum()::text`)).body).toEqual([{ sum: '400' }]);
    // Aggregates inside an embedded resource, per parent row; the legacy embedded `count` too.
    expect((await rest(`${p}_customers?select=name,${p}_orders(amount.sum())&order=id`)).body).toEqual([
      { name: 'Ana', [`${p}_orders`]: [{ sum: 300 }] },
      { name: 'Ben', [`${p}_orders`]: [{ sum: 100 }] },
      { name: 'Cy', [`${p}_orders`]: [{ sum: null }] },
    ]);
    expect((await rest(`${p}_customers?select=name,${p}_orders(count)&order=id`)).body).toEqual([
      { name: 'Ana', [`${p}_orders`]: [{ count: 2 }] },
      { name: 'Ben', [`${p}_orders`]: [{ count: 3 }] },
      { name: 'Cy', [`${p}_orders`]: [{ count: 0 }] },
    ]);
    // And off again on the next reload.
    await pgrstSetting('db_aggregates_enabled', null);
    await expect
      .poll(async () => (await rest(`${p}_orders?select=count()`)).status, { timeout: 5000 })
      .toBe(400);
  });
});

describe('Prefer: handling=strict, max-affected (PostgREST 12)', () => {
  it('refuses unknown preferences under handling=strict with PGRST122, and ignores them when lenient', async () => {
    expect(
      await rest(`${p}_orders?select=id&id=eq.1`, {
        headers: { prefer: 'handling=strict, foo=bar, count=none' },
      }),
    ).toMatchObject({
      status: 400,
      body: {
        code: 'PGRST122',
        message: 'Invalid preferences given with handling=strict',
        details: 'Invalid preferences: foo=bar, count=none',
        hint: null,
      },
    });
    expect(
      (await rest(`${p}_orders?select=id&id=eq.1`, { headers: { prefer: 'handling=lenient, foo=bar' } }))
        .status,
    ).toBe(200);
  });

  it('rolls back a PATCH or DELETE touching more rows than max-affected, with PGRST124', async () => {
    const notes = async () =>
      (await adminPool().query(`select id, note from public.${p}_orders order by id`)).rows as unknown[];
    const before = await notes();
    const patched = await rest(`${p}_orders?customer_id=eq.2`, {
      method: 'PATCH',
      headers: { prefer: 'handling=strict, max-affected=1' },
      body: { note: 'changed' },
    });
    expect(patched).toMatchObject({
      status: 400,
      body: {
        code: 'PGRST124',
        message: 'Query result exceeds max-affected preference constraint',
        details: 'The query affects 3 rows',
        hint: null,
      },
    });
    const deleted = await rest(`${p}_orders?customer_id=eq.1`, {
      method: 'DELETE',
      headers: { prefer: 'handling=strict, max-affected=1' },
    });
    expect(deleted).toMatchObject({
      status: 400,
      body: { code: 'PGRST124', details: 'The query affects 2 rows' },
    });
    expect(await notes()).toEqual(before);
    // Within the limit it applies and says so; without strict handling the limit is not enforced.
    const within = await rest(`${p}_orders?id=eq.3`, {
      method: 'PATCH',
      headers: { prefer: 'return=minimal, handling=strict, max-affected=1' },
      body: { note: 'c2' },
    });
    expect(within.status).toBe(204);
    expect(within.headers.get('preference-applied')).toBe('return=minimal, handling=strict, max-affected=1');
    const lenient = await rest(`${p}_orders?id=in.(3,4)`, {
      method: 'PATCH',
      headers: { prefer: 'max-affected=1' },
      body: { note: 'c3' },
    });
    expect(lenient.status).toBe(204);
    expect((await notes()).filter((r) => (r as { note: string }).note === 'c3')).toHaveLength(2);
  });

  it('limits calls too: rows a set-returning function gives, and PGRST128 for one that returns no set', async () => {
    await adminPool().query(`
      create function public.${p}_ids() returns setof int language sql as $$ select id from public.${p}_orders order by id $$;
      create function public.${p}_one() returns int language sql as $$ select 1 $$;
      grant execute on function public.${p}_ids(), public.${p}_one() to service_role;`);
    const strict = { prefer: 'handling=strict, max-affected=2' };
    expect(await rest(`rpc/${p}_ids`, { method: 'POST', body: {}, headers: strict })).toMatchObject({
      status: 400,
      body: { code: 'PGRST124', details: 'The query affects 5 rows' },
    });
    expect(await rest(`rpc/${p}_one`, { method: 'POST', body: {}, headers: strict })).toMatchObject({
      status: 400,
      body: {
        code: 'PGRST128',
        message:
          'Function must return SETOF or TABLE when max-affected preference is used with handling=strict',
      },
    });
  });
});

describe('RPC with Prefer: count=exact', () => {
  it('gives the number of values in Content-Range (supabase-js reads its count from there)', async () => {
    const r = await rest(`rpc/${p}_ids`, { headers: { prefer: 'count=exact' } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual([1, 2, 3, 4, 5]);
    expect(r.headers.get('content-range')).toBe('0-4/5');
    expect(r.headers.get('preference-applied')).toBe('count=exact');
    expect((await rest(`rpc/${p}_ids`)).headers.get('content-range')).toBe('0-4/*');
  });
});

describe('Prefer: tx and db-tx-end', () => {
  it('commits and ignores tx=rollback under the default db-tx-end=commit', async () => {
    const r = await rest(`${p}_customers`, {
      method: 'POST',
      headers: { prefer: 'return=representation, tx=rollback' },
      body: { id: 10, name: 'Kept' },
    });
    expect(r.status).toBe(201);
    expect(r.headers.get('preference-applied')).toBe('return=representation');
    expect((await adminPool().query(`select 1 from public.${p}_customers where id = 10`)).rowCount).toBe(1);
  });

  it('rolls back after answering with tx=rollback when db-tx-end=commit-allow-override', async () => {
    await pgrstSetting('db_tx_end', 'commit-allow-override');
    try {
      const insert = () =>
        rest(`${p}_customers`, {
          method: 'POST',
          headers: { prefer: 'return=representation, tx=rollback' },
          body: { id: 11, name: 'Dropped' },
        });
      // A read names the override once the reloaded configuration allows it.
      await expect
        .poll(
          async () =>
            (
              await rest(`${p}_customers?select=id&id=eq.1`, { headers: { prefer: 'tx=rollback' } })
            ).headers.get('preference-applied'),
          { timeout: 5000 },
        )
        .toBe('tx=rollback');
      const r = await insert();
      expect(r).toMatchObject({ status: 201, body: [{ id: 11, name: 'Dropped' }] });
      const patched = await rest(`${p}_customers?id=eq.1`, {
        method: 'PATCH',
        headers: { prefer: 'return=representation, tx=rollback' },
        body: { name: 'Renamed' },
      });
      expect(patched.body).toEqual([{ id: 1, name: 'Renamed' }]);
      const rows = (await adminPool().query(`select id, name from public.${p}_customers where id in (1, 11)`))
        .rows;
      expect(rows).toEqual([{ id: 1, name: 'Ana' }]);
      // tx=commit, and no preference, still commit.
      const kept = await rest(`${p}_customers`, {
        method: 'POST',
        headers: { prefer: 'tx=commit' },
        body: { id: 12, name: 'Committed' },
      });
      expect(kept.headers.get('preference-applied')).toBe('tx=commit');
      expect((await adminPool().query(`select 1 from public.${p}_customers where id = 12`)).rowCount).toBe(1);
    } finally {
      await pgrstSetting('db_tx_end', null);
    }
  });
});

describe('schema reloads', () => {
  it('serves a type dropped and created again by a migration while running (prepared statements are flushed)', async () => {
    const t = `${p}_moods`;
    const create = `
      create type public.${t}_kind as enum ('calm', 'angry');
      create table public.${t} (id int primary key, kind public.${t}_kind not null);
      insert into public.${t} values (1, 'calm'), (2, 'angry');
      grant select on public.${t} to service_role;`;
    await adminPool().query(create);
    const read = async () => {
      const answers = await Promise.all(
        Array.from({ length: 12 }, () => rest(`${t}?select=id,kind&kind=eq.angry`)),
      );
      return answers.map((a) => `${a.status} ${JSON.stringify(a.body)}`);
    };
    // Several rounds, so that many pooled connections have prepared the statement.
    await expect.poll(async () => (await read())[0], { timeout: 5000 }).toBe('200 [{"id":2,"kind":"angry"}]');
    for (let i = 0; i < 3; i++)
      expect(new Set(await read())).toEqual(new Set(['200 [{"id":2,"kind":"angry"}]']));
    // A migration recreates the type (new OID); the event trigger notifies PostgREST to reload.
    await adminPool().query(`drop table public.${t}; drop type public.${t}_kind; ${create}`);
    await expect.poll(async () => (await read())[0], { timeout: 5000 }).toBe('200 [{"id":2,"kind":"angry"}]');
    for (let i = 0; i < 3; i++)
      expect(new Set(await read())).toEqual(new Set(['200 [{"id":2,"kind":"angry"}]']));
    await adminPool().query(`drop table public.${t}; drop type public.${t}_kind`);
  });
});

describe('embedding', () => {
  it('leaves an empty embed out of the answer and still filters by it with !inner', async () => {
    const c = `${p}_customers`;
    const o = `${p}_orders`;
    expect((await rest(`${o}?select=id,${c}()&order=id&limit=2`)).body).toEqual([{ id: 1 }, { id: 2 }]);
    expect((await rest(`${o}?select=id,${c}!inner()&${c}.name=eq.Ben&order=id`)).body).toEqual([
      { id: 3 },
      { id: 4 },
      { id: 5 },
    ]);
    // To-many: customers with an order over 150.
    expect((await rest(`${c}?select=name,${o}!inner()&${o}.amount=gt.150`)).body).toEqual([{ name: 'Ana' }]);
  });
});

describe('computed fields', () => {
  it('selects, filters and orders by a function of the row as if it were a column', async () => {
    await adminPool().query(`
      create function public.${p}_label(public.${p}_orders) returns text language sql stable
        as $$ select $1.id || ':' || $1.amount $$;
      grant execute on function public.${p}_label(public.${p}_orders) to service_role;`);
    const r = await rest(`${p}_orders?select=id,label:${p}_label&${p}_label=like.*:25&order=${p}_label.desc`);
    expect(r.body).toEqual([
      { id: 5, label: '5:25' },
      { id: 4, label: '4:25' },
    ]);
    // A name that is neither a column nor a function of the row stays PostgreSQL's 42703.
    expect(await rest(`${p}_orders?select=id,nothing_here`)).toMatchObject({
      status: 400,
      body: { code: '42703' },
    });
    await adminPool().query(`drop function public.${p}_label(public.${p}_orders)`);
  });
});

describe('execution plans (db-plan-enabled)', () => {
  const plan = (accept: string, path = `${p}_orders?select=id,amount&id=eq.1`, method = 'GET') =>
    fetch(`${stackEnv('API_URL')}/rest/v1/${path}`, {
      method,
      headers: {
        apikey: stackEnv('ANON_KEY'),
        authorization: `Bearer ${stackEnv('SERVICE_ROLE_KEY')}`,
        accept,
        'content-type': 'application/json',
      },
      body: method === 'PATCH' ? JSON.stringify({ note: 'planned' }) : undefined,
    });

  it('refuses the plan media type with 406 PGRST107 while disabled, PostgREST’s default', async () => {
    const res = await plan('application/vnd.pgrst.plan+json');
    expect(res.status).toBe(406);
    expect(await res.json()).toEqual({
      code: 'PGRST107',
      details: null,
      hint: null,
      message:
        'None of these media types are available: application/vnd.pgrst.plan+json; for="application/json"',
    });
    // A later acceptable type is still chosen.
    expect((await plan('application/vnd.pgrst.plan+json, application/json')).status).toBe(200);
  });

  it('answers EXPLAIN of the request’s statement in JSON or text, with its options, once enabled', async () => {
    await pgrstSetting('db_plan_enabled', 'true');
    await expect
      .poll(async () => (await plan('application/vnd.pgrst.plan+json')).status, { timeout: 5000 })
      .toBe(200);
    const json = await plan('application/vnd.pgrst.plan+json');
    expect(json.headers.get('content-type')).toBe(
      'application/vnd.pgrst.plan+json; for="application/json"; charset=utf-8',
    );
    const [top] = (await json.json()) as { Plan: Record<string, unknown> }[];
    // The statement aggregates the rows into the body, so the plan's top node is that aggregate.
    expect(top.Plan['Node Type']).toBe('Aggregate');
    expect(top.Plan).not.toHaveProperty('Actual Rows');

    const text = await plan('application/vnd.pgrst.plan');
    expect(text.headers.get('content-type')).toBe(
      'application/vnd.pgrst.plan+text; for="application/json"; charset=utf-8',
    );
    expect(await text.text()).toMatch(/^Aggregate {2}\(cost=[\s\S]*\n$/);

    const analyzed = await plan(
      'application/vnd.pgrst.plan+json; for="application/vnd.pgrst.object+json"; options=verbose|analyze',
    );
    expect(analyzed.headers.get('content-type')).toBe(
      'application/vnd.pgrst.plan+json; for="application/vnd.pgrst.object+json"; options=analyze|verbose; charset=utf-8',
    );
    const [run] = (await analyzed.json()) as { Plan: Record<string, unknown> }[];
    expect(run.Plan['Actual Rows']).toBe(1);
    expect(run.Plan).toHaveProperty('Output');
  });

  it('runs and commits a write under analyze, as EXPLAIN ANALYZE does, and not without it', async () => {
    await expect
      .poll(async () => (await plan('application/vnd.pgrst.plan+json')).status, { timeout: 5000 })
      .toBe(200);
    const before = await adminPool().query(`select note from public.${p}_orders where id = 2`);
    expect((await plan('application/vnd.pgrst.plan+json', `${p}_orders?id=eq.2`, 'PATCH')).status).toBe(200);
    expect((await adminPool().query(`select note from public.${p}_orders where id = 2`)).rows).toEqual(
      before.rows,
    );
    const res = await plan(
      'application/vnd.pgrst.plan+json; options=analyze',
      `${p}_orders?id=eq.2`,
      'PATCH',
    );
    expect(res.status).toBe(200);
    expect((await adminPool().query(`select note from public.${p}_orders where id = 2`)).rows).toEqual([
      { note: 'planned' },
    ]);
    await adminPool().query(`update public.${p}_orders set note = null where id = 2`);
    await pgrstSetting('db_plan_enabled', null);
    await expect
      .poll(async () => (await plan('application/vnd.pgrst.plan+json')).status, { timeout: 5000 })
      .toBe(406);
  });
});

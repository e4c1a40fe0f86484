/**
 * Table reads of one shape share a statement built once (rest/read-plans.ts): the values of plain
 * comparisons are put into a template's parameters. These tests send each shape several times with
 * other values and hold every answer to what a freshly built statement gives: the right rows, counts,
 * ranges, errors, and no value taken for another.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminPool, stackEnv, unique } from '../testing/index.ts';

const p = unique('plans_');
const items = `${p}_items`;

async function get(path: string, headers: Record<string, string> = {}, method = 'GET') {
  const res = await fetch(`${stackEnv('API_URL')}/rest/v1/${path}`, {
    method,
    headers: { apikey: stackEnv('ANON_KEY'), ...headers },
  });
  const text = await res.text();
  const json = (res.headers.get('content-type') ?? '').includes('json');
  return {
    status: res.status,
    range: res.headers.get('content-range'),
    location: res.headers.get('content-location'),
    body: text ? (json ? (JSON.parse(text) as unknown) : text) : null,
  };
}

const ODD = `a.b,c(d)"e'f\\g %&=+ ñ`;

beforeAll(async () => {
  await adminPool().query(
    `
    create table public.${items} (id int primary key, name text not null, data jsonb);
    insert into public.${items} values
      (1, 'one', '{"kind": "kind"}'), (2, 'two', '{"kind": "other"}'), (3, 'three', null), (4, 'four', '{"kind": "kind"}'),
      (5, $1, '{"kind": "odd"}'), (6, 'eq.6', null);
    alter table public.${items} enable row level security;
    create policy "Anyone reads" on public.${items} for select to anon using (true);
    grant select on public.${items} to anon;
  `.replace('$1', `'${ODD.replace(/'/g, "''")}'`),
  );
  expect((await get(`${items}?select=id&id=eq.1`)).status).toBe(200);
});

afterAll(async () => {
  await adminPool().query(`drop table if exists public.${items}`);
});

describe('templated table reads', () => {
  it('answers each value of a shape with its own rows', async () => {
    for (const id of [1, 2, 3, 1, 4, 99]) {
      const r = await get(`${items}?select=id,name&id=eq.${id}`);
      // PostgREST's Content-Location: the query string sorted by name, with this request's value.
      expect(r.location).toBe(`/${items}?id=eq.${id}&select=id%2Cname`);
      expect(r.body).toEqual(id === 99 ? [] : [{ id, name: ['one', 'two', 'three', 'four'][id - 1] }]);
    }
    for (const [lo, hi] of [
      [2, 4],
      [5, 6],
      [1, 1],
      [4, 2],
    ]) {
      const r = await get(`${items}?select=id&id=gte.${lo}&id=lte.${hi}&order=id`);
      expect(r.body).toEqual(Array.from({ length: Math.max(0, hi - lo + 1) }, (_, i) => ({ id: lo + i })));
    }
    for (const [op, v, ids] of [
      ['neq', 'one', [2, 3, 4, 5, 6]],
      ['neq', 'two', [1, 3, 4, 5, 6]],
      ['lt', '3', [1, 2]],
      ['gt', '3', [4, 5, 6]],
    ] as const) {
      const col = op === 'neq' ? 'name' : 'id';
      expect((await get(`${items}?select=id&${col}=${op}.${v}&order=id`)).body).toEqual(
        ids.map((id) => ({ id })),
      );
    }
  });

  it('takes values that look like syntax, markers or other parameters as plain values', async () => {
    for (let i = 0; i < 2; i++) {
      expect((await get(`${items}?select=id&name=eq.${encodeURIComponent(ODD)}`)).body).toEqual([{ id: 5 }]);
      expect((await get(`${items}?select=id&name=eq.eq.6`)).body).toEqual([{ id: 6 }]);
      // The filter's value equals the JSON key of its own column path, a parameter of the same statement.
      expect((await get(`${items}?select=id&data->>kind=eq.kind&order=id`)).body).toEqual([
        { id: 1 },
        { id: 4 },
      ]);
      expect((await get(`${items}?select=id&data->>kind=eq.other`)).body).toEqual([{ id: 2 }]);
      expect(
        (await get(`${items}?select=id&name=eq.${encodeURIComponent('\u0000pgrst-value-0\u0000')}`)).status,
      ).toBe(400);
      expect((await get(`${items}?select=id&name=eq.`)).body).toEqual([]);
    }
  });

  it('keeps counts, ranges, CSV, HEAD and single objects apart for the same query string', async () => {
    for (const lo of [1, 3]) {
      const q = `${items}?select=id&id=gte.${lo}&order=id`;
      expect(await get(q)).toMatchObject({ status: 200, range: `0-${6 - lo}/*` });
      expect(await get(q, { prefer: 'count=exact' })).toMatchObject({
        status: 200,
        range: `0-${6 - lo}/${7 - lo}`,
      });
      expect(await get(q, { accept: 'text/csv' })).toMatchObject({
        status: 200,
        body: `id\n${Array.from({ length: 7 - lo }, (_, i) => lo + i).join('\n')}`,
      });
      const counted = await get(q, { prefer: 'count=exact', range: '0-1' });
      expect(counted).toMatchObject({
        status: 206,
        range: `0-1/${7 - lo}`,
        body: [{ id: lo }, { id: lo + 1 }],
      });
      expect(await get(q)).toMatchObject({ status: 200, range: `0-${6 - lo}/*` });
      expect(await get(q, {}, 'HEAD')).toMatchObject({ status: 200, body: null });
      const one = await get(`${items}?select=id&id=eq.${lo}`, {
        accept: 'application/vnd.pgrst.object+json',
      });
      expect(one.body).toEqual({ id: lo });
      const many = await get(q, { accept: 'application/vnd.pgrst.object+json' });
      expect(many).toMatchObject({ status: 406, body: { code: 'PGRST116' } });
    }
  });

  it('answers errors of a shape as the ordinary path does, every time', async () => {
    for (let i = 0; i < 2; i++) {
      expect(await get(`${items}?select=id&nosuch=eq.${i}`)).toMatchObject({
        status: 400,
        body: { code: '42703' },
      });
      expect(await get(`${items}?select=id&id=eq.x${i}`)).toMatchObject({
        status: 400,
        body: { code: '22P02', message: `invalid input syntax for type integer: "x${i}"` },
      });
      expect(await get(`${items}?select=id&id=eq.${i}`, { range: '3-1' })).toMatchObject({ status: 416 });
    }
  });

  it('builds again after the schema changes', async () => {
    expect((await get(`${items}?select=id,name&id=eq.2`)).body).toEqual([{ id: 2, name: 'two' }]);
    await adminPool().query(
      `alter table public.${items} rename column name to title; notify pgrst, 'reload schema'`,
    );
    await expect
      .poll(async () => (await get(`${items}?select=id,title&id=eq.2`)).body, { timeout: 5000 })
      .toEqual([{ id: 2, title: 'two' }]);
    expect(await get(`${items}?select=id,name&id=eq.3`)).toMatchObject({
      status: 400,
      body: { code: '42703' },
    });
  });
});

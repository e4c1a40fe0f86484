/**
 * Resource embedding as PostgREST 12 resolves it (issue 17), written from its documentation
 * (references/api/resource_embedding.rst, computed_fields.rst) and its own suites
 * (test/spec/Feature/Query/EmbedDisambiguationSpec.hs, ErrorSpec.hs): many-to-many through a junction
 * table, computed relationships, self-referencing tables, a foreign-key column as the target while
 * views exist over the referenced table, and PGRST200/PGRST201's texts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminPool, stackEnv, unique } from '../testing/index.ts';

const p = unique('emb_');
const products = `${p}_products`;
const categories = `${p}_categories`;
const junction = `${p}_product_categories`;
const tree = `${p}_tree`;
const orgs = `${p}_orgs`;
const clients = `${p}_clients`;
const projects = `${p}_projects`;

async function get(path: string) {
  const res = await fetch(`${stackEnv('API_URL')}/rest/v1/${path}`, {
    headers: { apikey: stackEnv('ANON_KEY'), authorization: `Bearer ${stackEnv('SERVICE_ROLE_KEY')}` },
  });
  return { status: res.status, body: (await res.json()) as unknown };
}

beforeAll(async () => {
  await adminPool().query(`
    create table public.${products} (id int primary key, name text not null, price int not null);
    create table public.${categories} (id int primary key, name text not null);
    -- A junction: both foreign keys' columns belong to its primary key.
    create table public.${junction} (
      product_id int references public.${products}(id), category_id int references public.${categories}(id),
      primary key (product_id, category_id));
    -- Not a junction: its foreign-key columns are not part of its primary key.
    create table public.${p}_audit (
      id int primary key, product_id int references public.${products}(id),
      category_id int references public.${categories}(id));
    insert into public.${products} values (1, 'Phone', 300), (2, 'Case', 20), (3, 'Cable', 5);
    insert into public.${categories} values (1, 'Electronics'), (2, 'Accessories'), (3, 'Empty');
    insert into public.${junction} values (1, 1), (2, 2), (3, 1), (3, 2);

    -- Computed relationships: a row of one table in, a set (or one row) of another out.
    create function public.${p}_cheap(public.${categories}) returns setof public.${products}
      language sql stable as $$
        select pr.* from public.${products} pr join public.${junction} j on j.product_id = pr.id
        where j.category_id = $1.id and pr.price < 50 order by pr.id $$;
    create function public.${p}_first_category(public.${products}) returns setof public.${categories} rows 1
      language sql stable as $$
        select c.* from public.${categories} c join public.${junction} j on j.category_id = c.id
        where j.product_id = $1.id order by c.id limit 1 $$;

    create table public.${tree} (id int primary key, parent_id int references public.${tree}(id), label text);
    insert into public.${tree} values (1, null, 'root'), (2, 1, 'a'), (3, 1, 'b'), (4, 2, 'a1');
    create table public.${orgs} (
      id int primary key, name text,
      auditor int references public.${orgs}(id), manager int references public.${orgs}(id));
    insert into public.${orgs} values (1, 'Org', null, null), (2, 'Audit', null, 1), (3, 'Sub', 2, 1);

    create table public.${clients} (id int primary key, name text);
    create table public.${projects} (id int primary key, name text, client_id int references public.${clients}(id));
    create view public.${p}_clients_view as select * from public.${clients};
    create view public.${p}_clients_view2 as select id, name from public.${clients};
    insert into public.${clients} values (1, 'Acme'), (2, 'Globex');
    insert into public.${projects} values (1, 'Rocket', 1), (2, 'Magnet', 2);

    grant select on all tables in schema public to service_role;
  `);
  await adminPool().query(`notify pgrst, 'reload schema'`);
});

afterAll(async () => {
  await adminPool().query(`
    drop function public.${p}_cheap, public.${p}_first_category;
    drop view public.${p}_clients_view, public.${p}_clients_view2;
    drop table public.${projects}, public.${clients}, public.${orgs}, public.${tree}, public.${p}_audit,
      public.${junction}, public.${categories}, public.${products};
  `);
});

describe('many-to-many through a junction table', () => {
  it('embeds through the junction both ways, in the junction’s rows', async () => {
    // Retried: the NOTIFY above reloads the schema cache asynchronously.
    await expect
      .poll(async () => (await get(`${products}?select=name,${categories}(name)&order=id`)).body, {
        timeout: 5000,
      })
      .toEqual([
        { name: 'Phone', [categories]: [{ name: 'Electronics' }] },
        { name: 'Case', [categories]: [{ name: 'Accessories' }] },
        { name: 'Cable', [categories]: [{ name: 'Electronics' }, { name: 'Accessories' }] },
      ]);
    expect(
      (await get(`${categories}?select=name,${products}(name)&order=id&${products}.order=id.desc`)).body,
    ).toEqual([
      { name: 'Electronics', [products]: [{ name: 'Cable' }, { name: 'Phone' }] },
      { name: 'Accessories', [products]: [{ name: 'Cable' }, { name: 'Case' }] },
      { name: 'Empty', [products]: [] },
    ]);
    // Filters and !inner apply to the far table; the junction can be named as the hint.
    expect(
      (
        await get(
          `${categories}?select=name,${products}!${junction}!inner(name)&${products}.price=lt.10&order=id`,
        )
      ).body,
    ).toEqual([
      { name: 'Electronics', [products]: [{ name: 'Cable' }] },
      { name: 'Accessories', [products]: [{ name: 'Cable' }] },
    ]);
  });

  it('does not count a table whose foreign keys are not in its primary key as a junction', async () => {
    // Only product_categories qualifies, so the embed is not ambiguous; the audit table is one-to-many.
    expect((await get(`${products}?select=id,${categories}(id)&id=eq.1`)).status).toBe(200);
    expect((await get(`${products}?select=id,${p}_audit(id)&id=eq.1`)).body).toEqual([
      { id: 1, [`${p}_audit`]: [] },
    ]);
  });
});

describe('computed relationships', () => {
  it('embeds the rows a function of the parent row returns, as an array or (rows 1) an object', async () => {
    expect((await get(`${categories}?select=name,${p}_cheap(name,price)&order=id`)).body).toEqual([
      { name: 'Electronics', [`${p}_cheap`]: [{ name: 'Cable', price: 5 }] },
      {
        name: 'Accessories',
        [`${p}_cheap`]: [
          { name: 'Case', price: 20 },
          { name: 'Cable', price: 5 },
        ],
      },
      { name: 'Empty', [`${p}_cheap`]: [] },
    ]);
    expect(
      (await get(`${products}?select=name,first:${p}_first_category(name)&order=id&limit=2`)).body,
    ).toEqual([
      { name: 'Phone', first: { name: 'Electronics' } },
      { name: 'Case', first: { name: 'Accessories' } },
    ]);
    // Embedded filters and !inner work on them as on any embed.
    expect(
      (await get(`${categories}?select=name,${p}_cheap!inner(name)&${p}_cheap.price=gt.10&order=id`)).body,
    ).toEqual([{ name: 'Accessories', [`${p}_cheap`]: [{ name: 'Case' }] }]);
  });
});

describe('self-referencing tables', () => {
  it('reads the table’s name as its children and the key column as its parent', async () => {
    expect((await get(`${tree}?select=id,${tree}(id)&order=id`)).body).toEqual([
      { id: 1, [tree]: [{ id: 2 }, { id: 3 }] },
      { id: 2, [tree]: [{ id: 4 }] },
      { id: 3, [tree]: [] },
      { id: 4, [tree]: [] },
    ]);
    expect((await get(`${tree}?select=id,parent:parent_id(id,label)&id=in.(1,4)&order=id`)).body).toEqual([
      { id: 1, parent: null },
      { id: 4, parent: { id: 2, label: 'a' } },
    ]);
  });

  it('picks one of two self-references with a column hint, and lists both when there is none', async () => {
    expect((await get(`${orgs}?select=name,audited:${orgs}!auditor(name)&id=eq.2`)).body).toEqual([
      { name: 'Audit', audited: [{ name: 'Sub' }] },
    ]);
    expect((await get(`${orgs}?select=name,manager(name),auditor(name)&id=eq.3`)).body).toEqual([
      { name: 'Sub', manager: { name: 'Org' }, auditor: { name: 'Audit' } },
    ]);
    const ambiguous = await get(`${orgs}?select=${orgs}(id)`);
    expect(ambiguous).toEqual({
      status: 300,
      body: {
        code: 'PGRST201',
        message: `Could not embed because more than one relationship was found for '${orgs}' and '${orgs}'`,
        // One-to-many, so the relationship reads from the referenced side, as PostgREST prints it.
        details: [
          {
            cardinality: 'one-to-many',
            embedding: `${orgs} with ${orgs}`,
            relationship: `${orgs}_auditor_fkey using ${orgs}(id) and ${orgs}(auditor)`,
          },
          {
            cardinality: 'one-to-many',
            embedding: `${orgs} with ${orgs}`,
            relationship: `${orgs}_manager_fkey using ${orgs}(id) and ${orgs}(manager)`,
          },
        ],
        hint: `Try changing '${orgs}' to one of the following: '${orgs}!${orgs}_auditor_fkey', '${orgs}!${orgs}_manager_fkey'. Find the desired relationship in the 'details' key.`,
      },
    });
  });
});

describe('a foreign-key column as the target while views exist over the referenced table', () => {
  it('picks the table, not the views, for a column or constraint target', async () => {
    expect((await get(`${projects}?select=name,client_id(name)&order=id`)).body).toEqual([
      { name: 'Rocket', client_id: { name: 'Acme' } },
      { name: 'Magnet', client_id: { name: 'Globex' } },
    ]);
    expect((await get(`${projects}?select=name,c:${projects}_client_id_fkey(name)&id=eq.2`)).body).toEqual([
      { name: 'Magnet', c: { name: 'Globex' } },
    ]);
    // Naming a view embeds the view, which shows the key's columns.
    expect((await get(`${projects}?select=name,${p}_clients_view(name)&id=eq.1`)).body).toEqual([
      { name: 'Rocket', [`${p}_clients_view`]: { name: 'Acme' } },
    ]);
    // And a view embeds the table's one-to-many side back.
    expect((await get(`${p}_clients_view2?select=name,${projects}(name)&id=eq.2`)).body).toEqual([
      { name: 'Globex', [projects]: [{ name: 'Magnet' }] },
    ]);
  });
});

describe('PGRST200 hints', () => {
  it('names a close target of the origin, or a close origin, or gives null', async () => {
    expect((await get(`${products}?select=${p}_categores(name)`)).body).toEqual({
      code: 'PGRST200',
      message: `Could not find a relationship between '${products}' and '${p}_categores' in the schema cache`,
      details: `Searched for a foreign key relationship between '${products}' and '${p}_categores' in the schema 'public', but no matches were found.`,
      hint: `Perhaps you meant '${categories}' instead of '${p}_categores'.`,
    });
    const none = await get(`${products}?select=zzzzqqq(name)`);
    expect(none).toMatchObject({ status: 400, body: { code: 'PGRST200', hint: null } });
    // A hint that matches nothing: the target exists, so there is nothing to suggest.
    const badHint = await get(`${products}?select=${categories}!nope(name)`);
    expect(badHint.body).toEqual({
      code: 'PGRST200',
      message: `Could not find a relationship between '${products}' and '${categories}' in the schema cache`,
      details: `Searched for a foreign key relationship between '${products}' and '${categories}' using the hint 'nope' in the schema 'public', but no matches were found.`,
      hint: null,
    });
  });
});

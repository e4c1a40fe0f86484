/**
 * Whole statements as PostgREST sends them, built on sql-builder.ts's Builder: a read with its count
 * and body, the INSERT/UPDATE/DELETE of a write as a CTE whose returned rows the same read shapes, and
 * a function call. Every value is a bind parameter; identifiers come from the schema cache.
 */
import { RestError, invalidBody } from './errors.ts';
import type { MainResult } from './executor.ts';
import type { Accept } from './http.ts';
import type { ParsedQuery } from './query-parser.ts';
import type { Prefer } from './request.ts';
import type { Column, RoutineInfo, Table } from './schema-cache.ts';
import { ARRAY_BODY, Builder, ident, payloadColumns, wrap } from './sql-builder.ts';

/** How a read counts its rows: an expression in the statement, statements before it, and how to read the total. */
export interface CountPlan {
  expr: string | undefined;
  before: { sql: string; values: unknown[] }[];
  total: (m: MainResult, before: unknown[][][]) => number | undefined;
}

const NO_COUNT: CountPlan = Object.freeze({
  expr: undefined,
  before: Object.freeze([]) as unknown as CountPlan['before'],
  total: () => undefined,
});

/** A function returning one composite value answers with that object, not an array. */
const OBJECT_BODY = `coalesce((json_agg(_postgrest_t) -> 0)::text, 'null')`;

/**
 * PostgREST's CSV body: the first row's keys as the header, then each row in PostgreSQL's record text
 * form without the parentheses (values quoted where needed, NULL empty).
 */
const CSV_BODY =
  `(select coalesce(string_agg(k, ','), '') from json_object_keys(json_agg(_postgrest_t) -> 0) as k) || chr(10) || ` +
  `coalesce(string_agg(substring(_postgrest_t::text, 2, length(_postgrest_t::text) - 2), chr(10)), '')`;

/** Keeps only the parameters `sql` uses, renumbered, so it can run on its own (EXPLAIN for planned counts). */
function renumber(sql: string, values: unknown[]): { sql: string; values: unknown[] } {
  const map = new Map<number, number>();
  const out: unknown[] = [];
  const text = sql.replace(/"(?:[^"]|"")*"|\$(\d+)/g, (m, n: string | undefined) => {
    if (!n) return m;
    const i = Number(n);
    if (!map.has(i)) {
      out.push(values[i - 1]);
      map.set(i, out.length);
    }
    return `$${map.get(i)}`;
  });
  return { sql: text, values: out };
}

/**
 * `count=exact` counts in the statement; `planned` reads the planner's estimate; `estimated` picks
 * between them at max_rows.
 */
function countPlan(b: Builder, countSql: string, mode: Prefer['count'], maxRows: number): CountPlan {
  if (!mode) return NO_COUNT;
  const none = { expr: undefined, before: [], total: (m: MainResult) => Number(m.total) };
  if (mode === 'exact')
    return { ...none, expr: `(select pg_catalog.count(*) from (${countSql}) as pgrst_count)` };
  const explain = renumber(countSql, b.params.values);
  const before = [{ sql: `explain (format json) ${explain.sql}`, values: explain.values }];
  const planned = (rows: unknown[][][]) => {
    const plan = rows[0]?.[0]?.[0];
    const json = (typeof plan === 'string' ? JSON.parse(plan) : plan) as { Plan: { 'Plan Rows': number } }[];
    return Math.round(json[0].Plan['Plan Rows']);
  };
  if (mode === 'planned')
    return { expr: undefined, before, total: (_m: MainResult, rows: unknown[][][]) => planned(rows) };
  return {
    expr: `(select pg_catalog.count(*) from (${countSql} limit ${maxRows + 1}) as pgrst_count)`,
    before,
    total: (m: MainResult, rows: unknown[][][]) =>
      Number(m.total) > maxRows ? planned(rows) : Number(m.total),
  };
}

export interface ReadStatement {
  sql: string;
  count: CountPlan;
}

/** The whole statement of a read: rows, count and body as the request asks. */
export function readStatement(
  b: Builder,
  built: { sql: string; countSql: string },
  opts: {
    count: Prefer['count'];
    accept: Accept;
    head: boolean;
    shape: 'array' | 'object';
    maxRows?: number;
  },
): ReadStatement {
  const count = countPlan(b, built.countSql, opts.count, opts.maxRows ?? 1000);
  const body = opts.head
    ? 'null'
    : opts.accept.csv
      ? CSV_BODY
      : opts.shape === 'object'
        ? OBJECT_BODY
        : ARRAY_BODY;
  return { sql: wrap(built.sql, { count: count.expr, body }), count };
}

/** `schema.table` quoted, and the table's own name as its alias. */
function names(table: Table) {
  return { qualified: `${ident(table.schema)}.${ident(table.name)}`, alias: ident(table.name) };
}

/** A data-modifying CTE body that changes nothing and returns no rows (PostgREST skips empty writes). */
function nothing(table: Table): string {
  const { qualified, alias } = names(table);
  return `select ${alias}.* from ${qualified} as ${alias} where false`;
}

/** The rows of a POST body: one object or an array of objects with the same keys. */
export function insertRows(
  payload: unknown,
  columns: string[] | undefined,
): { rows: object[]; keys: string[] } {
  const rows = Array.isArray(payload) ? payload : [payload];
  if (!rows.every((r) => r !== null && typeof r === 'object' && !Array.isArray(r)))
    throw invalidBody('All object keys must match');
  if (columns) return { rows: rows as object[], keys: columns };
  const keys = rows.length ? Object.keys(rows[0] as object) : [];
  const sig = [...keys].sort().join('\u0000');
  if (
    rows.some(
      (r) =>
        Object.keys(r as object)
          .sort()
          .join('\u0000') !== sig,
    )
  )
    throw invalidBody('All object keys must match');
  return { rows: rows as object[], keys };
}

/** INSERT (or upsert with `Prefer: resolution`) of `rows`; `merging` when an upsert may update rows. */
export function insertSql(
  b: Builder,
  table: Table,
  query: ParsedQuery,
  prefer: Prefer,
  rows: object[],
  keys: string[],
): { mutation: string; merging: boolean } {
  const cols = payloadColumns(table, keys);
  const { qualified, alias } = names(table);
  const present = (c: Column) => rows.some((r) => Object.prototype.hasOwnProperty.call(r, c.name));
  // A column no row carries is left to its default, as PostgreSQL's own INSERT does.
  const used = prefer.missing === 'default' ? cols.filter(present) : cols;
  // `{}`, `[{}]` and an empty body insert one row of defaults, `[]` none, as PostgREST's
  // `INSERT ... SELECT FROM json_populate_recordset` of no columns does. Such a statement takes no
  // body parameter: binding one it does not use is a protocol error (08P01), which answered 503.
  if (!used.length)
    return { mutation: rows.length ? defaultRows(table, rows.length) : nothing(table), merging: false };
  const bodyParam = b.params.add(JSON.stringify(rows));
  const exprs = used.map((c) => {
    const value = `pgrst_body.${ident(c.name)}`;
    if (prefer.missing !== 'default') return value;
    return `case when pgrst_rows.j::jsonb ? ${b.params.add(c.name)} then ${value} else ${c.default ?? 'null'} end`;
  });
  let conflict = '';
  if (prefer.resolution) {
    const target = query.onConflict ?? table.pk;
    for (const c of target) b.column(table, c);
    if (target.length) {
      const updates = used.map((c) => `${ident(c.name)} = excluded.${ident(c.name)}`);
      conflict =
        prefer.resolution === 'ignore-duplicates' || updates.length === 0
          ? ` on conflict (${target.map(ident).join(', ')}) do nothing`
          : ` on conflict (${target.map(ident).join(', ')}) do update set ${updates.join(', ')}`;
    }
  }
  const source =
    `from json_array_elements(${bodyParam}::json) with ordinality as pgrst_rows(j, i) ` +
    `cross join lateral json_populate_record(null::${qualified}, pgrst_rows.j) as pgrst_body order by pgrst_rows.i`;
  const mutation = `insert into ${qualified} as ${alias} (${used.map((c) => ident(c.name)).join(', ')}) select ${exprs.join(', ')} ${source}${conflict}`;
  return { mutation, merging: prefer.resolution === 'merge-duplicates' && conflict !== '' };
}

/** `count` rows of defaults: one statement, so a refused row (a NOT NULL column) refuses them all. */
function defaultRows(table: Table, count: number): string {
  const { qualified, alias } = names(table);
  if (count === 1) return `insert into ${qualified} as ${alias} default values`;
  return `insert into ${qualified} as ${alias} select from pg_catalog.generate_series(1, ${Math.floor(count)})`;
}

/**
 * Filters of a PATCH or DELETE. Like Supabase (whose PostgREST runs with pg-safeupdate), a statement
 * with no filter at all is refused rather than changing every row.
 */
function rootWhere(b: Builder, table: Table, query: ParsedQuery, verb: 'UPDATE' | 'DELETE'): string {
  const conditions = query.nodes.get('')?.conditions ?? [];
  if (conditions.length === 0) throw new RestError(400, '21000', `${verb} requires a WHERE clause`);
  return ` where ${conditions.map((c) => b.condition(table, ident(table.name), c)).join(' and ')}`;
}

export function updateSql(b: Builder, table: Table, query: ParsedQuery, payload: unknown): string {
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload))
    throw invalidBody('Empty or invalid json');
  const cols = payloadColumns(table, query.columns ?? Object.keys(payload));
  const { qualified, alias } = names(table);
  const where = rootWhere(b, table, query, 'UPDATE');
  if (cols.length === 0) return nothing(table);
  const bodyParam = b.params.add(JSON.stringify(payload));
  const sets = cols.map((c) => `${ident(c.name)} = pgrst_body.${ident(c.name)}`);
  return `update ${qualified} as ${alias} set ${sets.join(', ')} from (select * from json_populate_record(null::${qualified}, ${bodyParam}::json)) as pgrst_body${where}`;
}

export function deleteSql(b: Builder, table: Table, query: ParsedQuery): string {
  const { qualified, alias } = names(table);
  return `delete from ${qualified} as ${alias}${rootWhere(b, table, query, 'DELETE')}`;
}

/** The mutation as a CTE, its returned rows shaped by `select` when a representation is asked for. */
export function mutationStatement(
  b: Builder,
  table: Table,
  mutation: string,
  prefer: Prefer,
  countInserts: boolean,
): string {
  const representation = prefer.return === 'representation';
  const alias = ident(table.name);
  const headersOnly = prefer.return === 'headers-only' && table.pk.length > 0;
  // xmax is 0 on a row version this statement inserted, and set on one an upsert updated.
  const inserted = countInserts ? `, ${alias}.xmax = 0 as pgrst_inserted` : '';
  const returning =
    (representation
      ? ` returning ${alias}.*`
      : headersOnly
        ? ` returning ${table.pk.map((k) => `${alias}.${ident(k)}`).join(', ')}`
        : ' returning 1') + inserted;
  const insertedSql = countInserts
    ? '(select pg_catalog.count(*) from pgrst_mutation where pgrst_inserted)'
    : undefined;
  const cte = `pgrst_mutation as (${mutation}${mutation.startsWith('select ') ? '' : returning})`;
  if (representation) {
    const built = b.read({ table, from: 'pgrst_mutation' }, {}, false, false);
    return wrap(built.sql, { body: ARRAY_BODY, inserted: insertedSql }, cte);
  }
  const cols = headersOnly ? table.pk.map(ident).join(', ') : '1';
  return wrap(
    `select ${cols} from pgrst_mutation`,
    { body: prefer.return === 'headers-only' ? ARRAY_BODY : 'null', inserted: insertedSql },
    cte,
  );
}

/**
 * A function call with the request's arguments: `call` is the call expression, `from` the FROM clause
 * that supplies the named arguments from the JSON body (empty when none, or when the whole body is the
 * one positional argument).
 */
export function callSql(
  b: Builder,
  schema: string,
  routine: RoutineInfo,
  positional: boolean,
  args: unknown,
  keys: string[],
  payload: Buffer | string,
): { call: string; from: string } {
  const fn = `${ident(schema)}.${ident(routine.name)}`;
  if (positional) {
    // The whole body is the one argument, as PostgREST passes it: bytes for bytea (in bytea's hex
    // text form), else text.
    const type = routine.params[0].type;
    const value = type === 'bytea' ? `\\x${Buffer.from(payload).toString('hex')}` : payload.toString();
    return { call: `${fn}(${b.params.add(value)}::${type})`, from: '' };
  }
  const given = routine.params.filter((p) => keys.includes(p.name));
  return {
    call: `${fn}(${given.map((p) => `${ident(p.name)} := pgrst_args.${ident(p.name)}`).join(', ')})`,
    from: given.length
      ? ` from json_to_record(${b.params.add(JSON.stringify(args))}::json) as pgrst_args(${given.map((p) => `${ident(p.name)} ${p.type}`).join(', ')})`
      : '',
  };
}

/** The inner select of a call to a function that returns no table rows: void, a scalar, or a set of scalars. */
export function scalarCallSql(
  routine: RoutineInfo,
  call: string,
  from: string,
): { inner: string; body: string } {
  if (routine.isVoid) return { inner: `select ${call}${from}`, body: 'null' };
  if (routine.returnsSet)
    return {
      inner: `select pgrst_scalar${from || ' from'}${from ? ' cross join lateral' : ''} ${call} as pgrst_scalar`,
      body: `coalesce(json_agg(_postgrest_t.pgrst_scalar), '[]')::text`,
    };
  return {
    inner: `select ${call} as pgrst_scalar${from}`,
    body: `coalesce((json_agg(_postgrest_t.pgrst_scalar) -> 0)::text, 'null')`,
  };
}

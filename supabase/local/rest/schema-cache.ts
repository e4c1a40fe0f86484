/**
 * PostgREST's schema cache: the tables, views, columns, keys, foreign-key relationships and functions of
 * the exposed schemas, read from the catalogs in one query. Every identifier a request names is checked
 * against it before it reaches SQL. It reloads on `NOTIFY pgrst, 'reload schema'`, which the event
 * triggers of platform/40-pgrst.sql send after every DDL statement, as on Supabase.
 */
import pg from 'pg';
import {
  addViewPrimaryKeys,
  buildRelationships,
  type RawComputed,
  type RawForeignKey,
  type RawViewColumn,
  type Relationship,
} from './relationships.ts';

export interface Column {
  name: string;
  type: string;
  nullable: boolean;
  /** The default expression as PostgreSQL prints it (used for `Prefer: missing=default`). */
  default: string | null;
  generated: boolean;
}

export interface Table {
  schema: string;
  name: string;
  isView: boolean;
  insertable: boolean;
  columns: Map<string, Column>;
  columnList: Column[];
  pk: string[];
}

export interface FunctionParam {
  name: string;
  type: string;
  hasDefault: boolean;
}

export interface RoutineInfo {
  schema: string;
  name: string;
  params: FunctionParam[];
  returnType: string;
  returnsSet: boolean;
  /** The columns of a composite/table result, or null for a scalar. */
  resultColumns: Column[] | null;
  isVoid: boolean;
  /** [schema, name] of the table or view whose row type the function returns, for embedding. */
  returnTable: [string, string] | null;
  volatility: 'i' | 's' | 'v';
  /** [schema, name] of the table whose row type is the only parameter: a computed field or relationship. */
  argTable: [string, string] | null;
}

/**
 * PostgREST's in-database configuration: the `pgrst.*` settings of the role PostgREST logs in as
 * (`alter role authenticator set pgrst.db_aggregates_enabled = 'true'`), a database-specific setting
 * winning over one for all databases, as PostgREST's config query orders them. They override the
 * file configuration and are re-read on `NOTIFY pgrst, 'reload config'`.
 */
export interface PgrstSettings {
  /** `db-aggregates-enabled`: off by default, as in PostgREST. */
  aggregatesEnabled: boolean;
  /** `db-tx-end`: whether a request's transaction commits, and whether `Prefer: tx=` may override it. */
  txEnd: 'commit' | 'commit-allow-override' | 'rollback' | 'rollback-allow-override';
  /** `db-plan-enabled`: `Accept: application/vnd.pgrst.plan` answers EXPLAIN's plan. */
  planEnabled: boolean;
  /** `db-max-rows`, when set in the database (it then wins over config.toml's `[api] max_rows`). */
  maxRows?: number;
  /** `db-pre-request`, a quoted schema-qualified function name. */
  preRequest?: string;
}

const TX_END = ['commit', 'commit-allow-override', 'rollback', 'rollback-allow-override'];

/** PostgREST's boolean settings read `true`/`false` (any case); anything else keeps the default. */
function bool(value: string | undefined, fallback: boolean): boolean {
  const v = value?.trim().toLowerCase();
  return v === 'true' ? true : v === 'false' ? false : fallback;
}

export function pgrstSettings(values: Map<string, string>): PgrstSettings {
  const txEnd = values.get('db_tx_end')?.trim();
  const maxRows = values.get('db_max_rows')?.trim();
  const pre = values.get('db_pre_request')?.trim();
  return {
    aggregatesEnabled: bool(values.get('db_aggregates_enabled'), false),
    txEnd: txEnd && TX_END.includes(txEnd) ? (txEnd as PgrstSettings['txEnd']) : 'commit',
    planEnabled: bool(values.get('db_plan_enabled'), false),
    maxRows: maxRows && /^\d+$/.test(maxRows) ? Number(maxRows) : undefined,
    preRequest: pre ? qualifiedFunction(pre) : undefined,
  };
}

export class SchemaCache {
  tables = new Map<string, Table>();
  /** PostgREST's relationships by origin (`schema.name`), each list in PostgREST's order. */
  relationships = new Map<string, Relationship[]>();
  functions = new Map<string, RoutineInfo[]>();
  /** `alter role ... set statement_timeout`, which PostgREST applies when it switches to the role. */
  statementTimeouts = new Map<string, string>();
  /**
   * PostgREST's `db-pre-request` from its in-database configuration (`pgrst.db_pre_request` on the
   * authenticator role), as a quoted, schema-qualified function name; called before every request.
   */
  preRequest?: string;
  pgrst: PgrstSettings = pgrstSettings(new Map());
  /**
   * The roles `authenticator` may SET ROLE to (PostgreSQL 16's SET option of a membership). PostgREST logs
   * in as `authenticator` and switches to the JWT's role, so Postgres refuses any other role; this stack
   * logs in as a superuser and refuses them itself, with the error Postgres gives.
   */
  switchableRoles = new Set<string>();

  constructor(public schemas: string[]) {}

  table(schema: string, name: string): Table | undefined {
    return this.tables.get(`${schema}.${name}`);
  }

  routines(schema: string, name: string): RoutineInfo[] {
    return this.functions.get(`${schema}.${name}`) ?? [];
  }

  /** The closest table name in a schema, for PGRST205's hint (PostgREST uses fuzzy matching too). */
  /**
   * A computed field of `table`: a function in the table's schema taking its row type as the only
   * parameter and returning a scalar (PostgREST lists them in its schema cache the same way).
   * `count` is PostgreSQL's own aggregate over the row, PostgREST's legacy `select=count`.
   */
  computedField(table: Table, name: string): Column | undefined {
    if (name === 'count') return { name, type: 'bigint', nullable: false, default: null, generated: false };
    const f = this.routines(table.schema, name).find(
      (r) =>
        r.argTable?.[0] === table.schema && r.argTable[1] === table.name && !r.returnsSet && !r.resultColumns,
    );
    return f ? { name, type: f.returnType, nullable: true, default: null, generated: false } : undefined;
  }

  similarTable(schema: string, name: string): string | null {
    let best: string | null = null;
    let bestScore = 0;
    for (const t of this.tables.values()) {
      if (t.schema !== schema) continue;
      const score = similarity(t.name, name);
      if (score > bestScore) {
        bestScore = score;
        best = t.name;
      }
    }
    return bestScore >= 0.75 ? best : null;
  }
}

/** Bigram similarity (Dice), a stand-in for the fuzzy set PostgREST uses for its hints. */
function similarity(a: string, b: string): number {
  if (a === b) return 1;
  const grams = (s: string) => {
    const m = new Map<string, number>();
    const t = `-${s.toLowerCase()}-`;
    for (let i = 0; i < t.length - 1; i++) m.set(t.slice(i, i + 2), (m.get(t.slice(i, i + 2)) ?? 0) + 1);
    return m;
  };
  const ga = grams(a);
  const gb = grams(b);
  let shared = 0;
  let total = 0;
  for (const [g, n] of ga) {
    shared += Math.min(n, gb.get(g) ?? 0);
    total += n;
  }
  for (const n of gb.values()) total += n;
  return (2 * shared) / total;
}

const CACHE_SQL = `
with rels as (
  select c.oid, n.nspname, c.relname, c.relkind
  from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
  where n.nspname = any($1::text[]) and c.relkind in ('r', 'v', 'm', 'f', 'p')
)
select json_build_object(
  'tables', (
    select coalesce(json_agg(json_build_object(
      'schema', r.nspname, 'name', r.relname, 'kind', r.relkind,
      'insertable', r.relkind in ('r', 'p', 'f') or pg_catalog.pg_relation_is_updatable(r.oid, true) & 8 = 8,
      'columns', (
        select coalesce(json_agg(json_build_object(
          'name', a.attname, 'type', pg_catalog.format_type(a.atttypid, a.atttypmod),
          'nullable', not a.attnotnull,
          -- As PostgREST reads defaults: an identity column's sequence, a domain's own default.
          'default', case
            when a.attidentity = 'd' then pg_catalog.format('nextval(%L::regclass)',
              pg_catalog.pg_get_serial_sequence(pg_catalog.format('%I.%I', r.nspname, r.relname), a.attname))
            when a.attgenerated = 's' then null
            when d.adbin is null and ty.typbasetype <> 0 then pg_catalog.pg_get_expr(ty.typdefaultbin, 0)
            else pg_catalog.pg_get_expr(d.adbin, d.adrelid) end,
          'generated', a.attgenerated <> '' or a.attidentity = 'a') order by a.attnum), '[]')
        from pg_catalog.pg_attribute a
        join pg_catalog.pg_type ty on ty.oid = a.atttypid
        left join pg_catalog.pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
        where a.attrelid = r.oid and a.attnum > 0 and not a.attisdropped),
      'pk', (
        select coalesce(json_agg(a.attname order by k.i), '[]')
        from pg_catalog.pg_constraint con
        cross join lateral unnest(con.conkey) with ordinality k(attnum, i)
        join pg_catalog.pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.attnum
        where con.conrelid = r.oid and con.contype = 'p')
    )), '[]') from rels r),
  'fks', (
    select coalesce(json_agg(json_build_object(
      'name', con.conname,
      'schema', ns.nspname, 'table', cs.relname,
      'columns', (select json_agg(a.attname order by k.i) from unnest(con.conkey) with ordinality k(attnum, i)
                  join pg_catalog.pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.attnum),
      'foreignSchema', nf.nspname, 'foreignTable', cf.relname,
      'foreignColumns', (select json_agg(a.attname order by k.i) from unnest(con.confkey) with ordinality k(attnum, i)
                  join pg_catalog.pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.attnum),
      'unique', exists (
        select 1 from pg_catalog.pg_constraint u
        where u.conrelid = con.conrelid and u.contype in ('p', 'u')
          and u.conkey::int2[] <@ con.conkey::int2[] and u.conkey::int2[] @> con.conkey::int2[])
    )), '[]')
    from pg_catalog.pg_constraint con
    join pg_catalog.pg_class cs on cs.oid = con.conrelid join pg_catalog.pg_namespace ns on ns.oid = cs.relnamespace
    join pg_catalog.pg_class cf on cf.oid = con.confrelid join pg_catalog.pg_namespace nf on nf.oid = cf.relnamespace
    where con.contype = 'f' and con.conparentid = 0),
  'functions', (
    select coalesce(json_agg(json_build_object(
      'schema', n.nspname, 'name', p.proname,
      'params', (
        select coalesce(json_agg(json_build_object(
          'name', coalesce(p.proargnames[a.i], ''), 'type', pg_catalog.format_type(a.t, null),
          'hasDefault', a.i > p.pronargs - p.pronargdefaults) order by a.i), '[]')
        from unnest(p.proargtypes::oid[]) with ordinality a(t, i)),
      'returnType', pg_catalog.format_type(p.prorettype, null),
      'returnsSet', p.proretset,
      'isVoid', p.prorettype = 'pg_catalog.void'::regtype,
      'returnTable', (select json_build_array(tn.nspname, tc.relname) from pg_catalog.pg_class tc
                      join pg_catalog.pg_namespace tn on tn.oid = tc.relnamespace where tc.oid = rt.typrelid),
      'volatility', p.provolatile,
      'argTable', case when p.pronargs = 1 then (
        select json_build_array(an.nspname, ac.relname) from pg_catalog.pg_type at
        join pg_catalog.pg_class ac on ac.oid = at.typrelid join pg_catalog.pg_namespace an on an.oid = ac.relnamespace
        where at.oid = p.proargtypes[0]) end,
      'resultColumns', case
        when rt.typrelid <> 0 then (
          select json_agg(json_build_object('name', a.attname, 'type', pg_catalog.format_type(a.atttypid, a.atttypmod),
                 'nullable', true, 'default', null, 'generated', false) order by a.attnum)
          from pg_catalog.pg_attribute a where a.attrelid = rt.typrelid and a.attnum > 0 and not a.attisdropped)
        when p.proallargtypes is not null then (
          select json_agg(json_build_object('name', p.proargnames[o.i], 'type', pg_catalog.format_type(o.t, null),
                 'nullable', true, 'default', null, 'generated', false) order by o.i)
          from unnest(p.proallargtypes, p.proargmodes) with ordinality o(t, m, i) where o.m in ('o', 'b', 't'))
        else null end
    )), '[]')
    from pg_catalog.pg_proc p
    join pg_catalog.pg_namespace n on n.oid = p.pronamespace
    join pg_catalog.pg_type rt on rt.oid = p.prorettype
    where n.nspname = any($1::text[]) and p.prokind = 'f'),
  'computed', (
    select coalesce(json_agg(json_build_object(
      'schema', n.nspname, 'name', p.proname, 'tableSchema', an.nspname, 'table', ac.relname,
      'targetSchema', rn.nspname, 'target', rc.relname, 'singleRow', not p.proretset or p.prorows = 1)), '[]')
    from pg_catalog.pg_proc p
    join pg_catalog.pg_namespace n on n.oid = p.pronamespace
    join pg_catalog.pg_class ac on ac.reltype = p.proargtypes[0] and ac.relkind in ('v', 'r', 'm', 'f', 'p')
    join pg_catalog.pg_namespace an on an.oid = ac.relnamespace
    join pg_catalog.pg_class rc on rc.reltype = p.prorettype and rc.relkind in ('v', 'r', 'm', 'f', 'p')
    join pg_catalog.pg_namespace rn on rn.oid = rc.relnamespace
    where p.pronargs = 1 and an.nspname = any($1::text[]) and rn.nspname = any($1::text[])),
  'viewDeps', (
    select coalesce(json_agg(json_build_object('schema', u.view_schema, 'view', u.view_name,
           'tableSchema', u.table_schema, 'table', u.table_name, 'column', u.column_name)), '[]')
    from information_schema.view_column_usage u where u.view_schema = any($1::text[])),
  'switchableRoles', (
    select coalesce(json_agg(r.rolname), '[]') from pg_catalog.pg_roles r
     where pg_catalog.pg_has_role('authenticator', r.oid, 'SET')),
  'roleSettings', (
    select coalesce(json_agg(json_build_object('role', r.rolname, 'database', s.setdatabase, 'settings', s.setconfig)), '[]')
    from pg_catalog.pg_db_role_setting s join pg_catalog.pg_roles r on r.oid = s.setrole
    where s.setdatabase in (0, (select oid from pg_catalog.pg_database where datname = current_database())))
)::text as cache`;

interface RawCache {
  tables: {
    schema: string;
    name: string;
    kind: string;
    insertable: boolean;
    columns: Column[];
    pk: string[];
  }[];
  fks: RawForeignKey[];
  computed: RawComputed[];
  functions: (Omit<RoutineInfo, 'volatility'> & { volatility: string })[];
  switchableRoles: string[];
  roleSettings: { role: string; database: number; settings: string[] }[];
  viewDeps: RawViewColumn[];
}

export async function loadSchemaCache(pool: pg.Pool, schemas: string[]): Promise<SchemaCache> {
  const { rows } = await pool.query<{ cache: string }>(CACHE_SQL, [schemas]);
  const raw = JSON.parse(rows[0].cache) as RawCache;
  const cache = new SchemaCache(schemas);
  for (const t of raw.tables) {
    cache.tables.set(`${t.schema}.${t.name}`, {
      schema: t.schema,
      name: t.name,
      isView: t.kind === 'v' || t.kind === 'm',
      insertable: t.insertable,
      columns: new Map(t.columns.map((c) => [c.name, c])),
      columnList: t.columns,
      pk: t.pk,
    });
  }
  addViewPrimaryKeys(cache.tables, raw.viewDeps);
  cache.relationships = buildRelationships(cache.tables, raw.fks, raw.viewDeps, raw.computed);
  cache.switchableRoles = new Set(raw.switchableRoles);
  const pgrst = new Map<string, string>();
  // Settings for all databases (0) first, so the current database's own ones overwrite them.
  for (const r of [...raw.roleSettings].sort((a, b) => a.database - b.database)) {
    for (const setting of r.settings) {
      const eq = setting.indexOf('=');
      const key = setting.slice(0, eq);
      const value = setting.slice(eq + 1);
      if (key === 'statement_timeout') cache.statementTimeouts.set(r.role, value);
      if (r.role === 'authenticator' && key.startsWith('pgrst.')) pgrst.set(key.slice(6), value);
    }
  }
  cache.pgrst = pgrstSettings(pgrst);
  cache.preRequest = cache.pgrst.preRequest;
  for (const f of raw.functions) {
    const key = `${f.schema}.${f.name}`;
    const list = cache.functions.get(key) ?? [];
    list.push({ ...f, volatility: f.volatility as RoutineInfo['volatility'] });
    cache.functions.set(key, list);
  }
  return cache;
}

/**
 * The `db-pre-request` value (a schema-qualified function name) quoted for a call; a value that is not
 * a plain name is ignored rather than pasted into SQL.
 */
function qualifiedFunction(value: string): string | undefined {
  const parts = value.trim().split('.');
  if (parts.length > 2 || parts.some((p) => !/^[A-Za-z_][A-Za-z0-9_$]*$/.test(p))) return undefined;
  return parts.map((p) => `"${p}"`).join('.');
}

/**
 * Keeps the schema cache current: loads it, LISTENs on channel `pgrst` on its own connection and reloads
 * on 'reload schema' (or an empty payload, as PostgREST accepts) and on 'reload config', which re-reads
 * the in-database configuration (`pgrst.*` settings of the authenticator role) kept with the cache.
 */
export class SchemaCacheHolder {
  current!: SchemaCache;
  private listener?: pg.Client;
  private reloading?: Promise<void>;
  private reloadAgain = false;
  private closed = false;

  constructor(
    private pool: pg.Pool,
    private connectionString: string,
    public schemas: string[],
    private log: (line: string) => void,
  ) {}

  async start(): Promise<void> {
    this.current = await loadSchemaCache(this.pool, this.schemas);
    await this.listen();
  }

  /** Reloads now; concurrent callers share one reload, and a request during a reload schedules one more. */
  reload(): Promise<void> {
    if (this.reloading) {
      this.reloadAgain = true;
      return this.reloading;
    }
    this.reloading = (async () => {
      try {
        do {
          this.reloadAgain = false;
          this.current = await loadSchemaCache(this.pool, this.schemas);
        } while (this.reloadAgain);
      } catch (e) {
        if (!this.closed) this.log(`[rest] schema cache reload failed: ${(e as Error).message}`);
      } finally {
        this.reloading = undefined;
      }
    })();
    return this.reloading;
  }

  /**
   * Called when a request names something the cache lacks. DDL committed before the request has already
   * queued its NOTIFY on the listening connection; one round trip there delivers it, so a table created
   * just before the request is found without reloading on every miss (which anyone could trigger).
   */
  async catchUp(): Promise<void> {
    // Notifications are handled synchronously as they arrive, so any reload they started is pending after
    // the round trip. A listener that is gone (or going) may have missed some: reload outright then.
    const delivered = this.listener
      ? await this.listener.query('select 1').then(
          () => true,
          () => false,
        )
      : false;
    if (!delivered) await this.reload();
    if (this.reloading) await this.reloading;
  }

  private async listen(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({
      connectionString: this.connectionString,
      application_name: 'pgrst_listener',
    });
    client.on('error', () => undefined);
    client.on('notification', (msg) => {
      if (
        msg.channel === 'pgrst' &&
        (!msg.payload || msg.payload === 'reload schema' || msg.payload === 'reload config')
      )
        void this.reload();
    });
    client.on('end', () => {
      // Only an established listener reconnects here; a failed attempt is retried by its caller.
      if (this.listener !== client) return;
      this.listener = undefined;
      // A lost connection may have missed notifications: reconnect and reload, unless the stack stops.
      this.reconnect();
    });
    try {
      await client.connect();
      await client.query('listen pgrst');
      // The listener must not keep the process alive when the stack stops without closing us.
      (client as unknown as { unref(): void }).unref();
      this.listener = client;
    } catch (e) {
      await client.end().catch(() => undefined);
      throw e;
    }
  }

  private reconnect() {
    if (this.closed) return;
    setTimeout(() => {
      this.listen()
        .then(() => this.reload())
        .catch(() => this.reconnect());
    }, 500).unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    const l = this.listener;
    this.listener = undefined;
    await l?.end().catch(() => undefined);
  }
}

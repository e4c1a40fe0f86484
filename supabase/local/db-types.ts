/**
 * `npm run db:types`: TypeScript types of the public schema in the shape `supabase gen types typescript`
 * writes (postgres-meta's typegen): a `Database` type with Tables (Row/Insert/Update/Relationships),
 * Views, Functions (Args/Returns), Enums and CompositeTypes, the Tables/TablesInsert/TablesUpdate/Enums/
 * CompositeTypes helpers and the `Constants` object, formatted by prettier as the CLI does. So the typed
 * supabase-js client works the same whether the file came from here or from the Supabase CLI.
 */
import prettier from 'prettier';
import type pg from 'pg';

export const TYPES_FILE = 'src/types/database.types.ts';
/** The PostgREST major the app targets (Supabase's current), which supabase-js reads from the types. */
const POSTGREST_VERSION = '13.0.5';

interface Column {
  relid: number;
  name: string;
  type: string;
  nullable: boolean;
  hasDefault: boolean;
  identityAlways: boolean;
  updatable: boolean;
}
interface Relation {
  oid: number;
  name: string;
  kind: 'table' | 'view';
  updatable: boolean;
}
interface Relationship {
  relation: string;
  foreignKeyName: string;
  columns: string[];
  isOneToOne: boolean;
  referencedRelation: string;
  referencedColumns: string[];
}
interface FunctionArg {
  name: string;
  type: string;
  hasDefault: boolean;
}
interface Fn {
  name: string;
  args: FunctionArg[];
  returnType: string;
  returnRelid: number;
  returnsSet: boolean;
  rows: number;
}
interface EnumType {
  name: string;
  values: string[];
}

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);

/** Reads the schema's tables, views, columns, foreign keys, functions and enums from the catalog. */
async function introspect(pool: pg.Pool, schema: string) {
  const relations = (
    await pool.query<Relation>(
      `select c.oid::int as oid, c.relname as name, case when c.relkind in ('r', 'p', 'f') then 'table' else 'view' end as kind,
              c.relkind = 'v' and (pg_relation_is_updatable(c.oid, false) & 20) = 20 as updatable
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = $1 and c.relkind in ('r', 'p', 'f', 'v', 'm')`,
      [schema],
    )
  ).rows;
  const columns = (
    await pool.query<Column>(
      `select a.attrelid::int as relid, a.attname as name, t.typname as type,
              not a.attnotnull as nullable, a.atthasdef or a.attidentity <> '' or a.attgenerated <> '' as "hasDefault",
              a.attidentity = 'a' as "identityAlways",
              coalesce(col.is_updatable = 'YES', false) as updatable
       from pg_attribute a
       join pg_class c on c.oid = a.attrelid
       join pg_namespace n on n.oid = c.relnamespace
       join pg_type t on t.oid = a.atttypid
       left join information_schema.columns col
         on col.table_schema = n.nspname and col.table_name = c.relname and col.column_name = a.attname
       where n.nspname = $1 and c.relkind in ('r', 'p', 'f', 'v', 'm') and a.attnum > 0 and not a.attisdropped`,
      [schema],
    )
  ).rows;
  // Foreign keys between relations of the schema; one-to-one when the referencing columns are unique.
  const foreignKeys = (
    await pool.query<Relationship & { relid: number; refRelid: number }>(
      `select c.conrelid::int as relid, c.confrelid::int as "refRelid", src.relname as relation, c.conname as "foreignKeyName",
              array(select a.attname::text from unnest(c.conkey) with ordinality k(n, i) join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.n order by k.i) as columns,
              exists (select 1 from pg_index i where i.indrelid = c.conrelid and i.indisunique and i.indpred is null
                      and (select array_agg(x order by x) from unnest(i.indkey::int2[]) x) = (select array_agg(x order by x) from unnest(c.conkey) x)) as "isOneToOne",
              ref.relname as "referencedRelation",
              array(select a.attname::text from unnest(c.confkey) with ordinality k(n, i) join pg_attribute a on a.attrelid = c.confrelid and a.attnum = k.n order by k.i) as "referencedColumns"
       from pg_constraint c
       join pg_class src on src.oid = c.conrelid join pg_namespace sn on sn.oid = src.relnamespace
       join pg_class ref on ref.oid = c.confrelid join pg_namespace rn on rn.oid = ref.relnamespace
       where c.contype = 'f' and sn.nspname = $1 and rn.nspname = $1`,
      [schema],
    )
  ).rows;
  // Which base-table columns each view passes through unchanged (same name), as PostgREST resolves
  // relationships through views.
  const viewColumns = (
    await pool.query<{ view: string; base: number; column: string }>(
      `select distinct v.relname as view, d.refobjid::int as base, a.attname as column
       from pg_class v join pg_namespace n on n.oid = v.relnamespace
       join pg_rewrite r on r.ev_class = v.oid
       join pg_depend d on d.objid = r.oid and d.classid = 'pg_rewrite'::regclass and d.refclassid = 'pg_class'::regclass and d.refobjsubid > 0
       join pg_attribute a on a.attrelid = d.refobjid and a.attnum = d.refobjsubid
       join pg_attribute va on va.attrelid = v.oid and va.attname = a.attname and va.atttypid = a.atttypid
       where n.nspname = $1 and v.relkind in ('v', 'm') and d.refobjid <> v.oid`,
      [schema],
    )
  ).rows;
  const functions = (
    await pool.query<
      Fn & { argNames: string[] | null; argModes: string[] | null; argTypes: string[]; nDefaults: number }
    >(
      `select p.proname as name, coalesce(p.proargnames, '{}') as "argNames", p.proargmodes::text[] as "argModes",
              array(select t.typname::text from unnest(coalesce(p.proallargtypes, p.proargtypes::oid[])) with ordinality u(oid, i) join pg_type t on t.oid = u.oid order by u.i) as "argTypes",
              p.pronargdefaults::int as "nDefaults", rt.typname as "returnType", rt.typrelid::int as "returnRelid",
              p.proretset as "returnsSet", p.prorows::int as rows
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace join pg_type rt on rt.oid = p.prorettype
       where n.nspname = $1 and p.prokind = 'f' and rt.typname not in ('trigger', 'event_trigger')
         and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')`,
      [schema],
    )
  ).rows.map((f) => {
    const modes = f.argModes ?? f.argTypes.map(() => 'i');
    const inputs = f.argTypes
      .map((type, i) => ({ name: f.argNames?.[i] ?? '', type, mode: modes[i] }))
      .filter((a) => a.mode === 'i' || a.mode === 'b' || a.mode === 'v');
    const args = inputs.map((a, i) => ({
      name: a.name,
      type: a.type,
      hasDefault: i >= inputs.length - f.nDefaults,
    }));
    return {
      name: f.name,
      args: args.sort(byName),
      returnType: f.returnType,
      returnRelid: f.returnRelid,
      returnsSet: f.returnsSet,
      rows: f.rows,
    };
  });
  const enums = (
    await pool.query<EnumType>(
      `select t.typname as name, array_agg(e.enumlabel::text order by e.enumsortorder) as values
       from pg_type t join pg_namespace n on n.oid = t.typnamespace join pg_enum e on e.enumtypid = t.oid
       where n.nspname = $1 group by t.typname`,
      [schema],
    )
  ).rows;
  return { relations, columns, foreignKeys, viewColumns, functions, enums };
}

/** Generates the types file's text for the given schemas (default: public), formatted as the CLI's. */
export async function generateTypes(pool: pg.Pool, schemas: string[] = ['public']): Promise<string> {
  const blocks: string[] = [];
  const constants: string[] = [];
  const allEnums = new Map<string, string>();
  const data = new Map<string, Awaited<ReturnType<typeof introspect>>>();
  for (const schema of [...schemas].sort()) {
    const d = await introspect(pool, schema);
    data.set(schema, d);
    for (const e of d.enums) if (!allEnums.has(e.name)) allEnums.set(e.name, schema);
  }

  const tsType = (pgType: string): string => {
    if (pgType === 'bool') return 'boolean';
    if (['int2', 'int4', 'int8', 'float4', 'float8', 'numeric'].includes(pgType)) return 'number';
    if (
      [
        'bytea',
        'bpchar',
        'varchar',
        'date',
        'text',
        'citext',
        'time',
        'timetz',
        'timestamp',
        'timestamptz',
        'uuid',
        'vector',
        'interval',
      ].includes(pgType)
    )
      return 'string';
    if (pgType === 'json' || pgType === 'jsonb') return 'Json';
    if (pgType === 'void') return 'undefined';
    if (pgType === 'record') return 'Record<string, unknown>';
    if (pgType.startsWith('_')) return `(${tsType(pgType.slice(1))})[]`;
    const enumSchema = allEnums.get(pgType);
    if (enumSchema) return `Database[${JSON.stringify(enumSchema)}]['Enums'][${JSON.stringify(pgType)}]`;
    return 'unknown';
  };
  const nullable = (t: string, isNullable: boolean) => (t === 'unknown' || !isNullable ? t : `${t} | null`);
  const column = (c: { name: string; type: string; nullable: boolean }, optional: boolean) =>
    `${JSON.stringify(c.name)}${optional ? '?' : ''}: ${nullable(tsType(c.type), c.nullable)}`;
  const relationship = (r: Relationship) => `{
      foreignKeyName: ${JSON.stringify(r.foreignKeyName)}
      columns: ${JSON.stringify(r.columns)}
isOneToOne: ${r.isOneToOne}
      referencedRelation: ${JSON.stringify(r.referencedRelation)}
      referencedColumns: ${JSON.stringify(r.referencedColumns)}
    }`;

  for (const [schema, d] of data) {
    const columnsOf = (oid: number) => d.columns.filter((c) => c.relid === oid).sort(byName);
    const relById = new Map(d.relations.map((r) => [r.oid, r]));
    // Relationships of tables, plus the same foreign keys seen through views that pass the columns on.
    const rels: Relationship[] = [...d.foreignKeys];
    for (const fk of d.foreignKeys) {
      const through = (baseOid: number, cols: string[]) =>
        [...new Set(d.viewColumns.filter((v) => v.base === baseOid).map((v) => v.view))].filter((view) =>
          cols.every((c) =>
            d.viewColumns.some((v) => v.view === view && v.base === baseOid && v.column === c),
          ),
        );
      for (const view of through(fk.refRelid, fk.referencedColumns))
        rels.push({ ...fk, referencedRelation: view });
      for (const view of through(fk.relid, fk.columns)) rels.push({ ...fk, relation: view });
    }
    rels.sort(
      (a, b) =>
        a.foreignKeyName.localeCompare(b.foreignKeyName) ||
        a.referencedRelation.localeCompare(b.referencedRelation) ||
        JSON.stringify(a.referencedColumns).localeCompare(JSON.stringify(b.referencedColumns)),
    );
    const relsOf = (name: string) => rels.filter((r) => r.relation === name);

    const tables = d.relations.filter((r) => r.kind === 'table').sort(byName);
    const views = d.relations.filter((r) => r.kind === 'view').sort(byName);
    const tableBlock = tables.length
      ? tables.map((t) => {
          const cols = columnsOf(t.oid);
          return `${JSON.stringify(t.name)}: {
                  Row: {
                    ${cols.map((c) => column(c, false))}
                  }
                  Insert: {
                    ${cols.map((c) => (c.identityAlways ? `${JSON.stringify(c.name)}?: never` : column(c, c.nullable || c.hasDefault)))}
                  }
                  Update: {
                    ${cols.map((c) => (c.identityAlways ? `${JSON.stringify(c.name)}?: never` : column(c, true)))}
                  }
                  Relationships: [
                    ${relsOf(t.name).map(relationship)}
                  ]
                }`;
        })
      : '[_ in never]: never';
    const viewBlock = views.length
      ? views.map((v) => {
          const cols = columnsOf(v.oid);
          const writable = (c: Column) =>
            c.updatable ? column({ ...c, nullable: true }, true) : `${JSON.stringify(c.name)}?: never`;
          return `${JSON.stringify(v.name)}: {
                  Row: {
                    ${cols.map((c) => column({ ...c, nullable: true }, false))}
                  }
                  ${
                    v.updatable
                      ? `Insert: {
                    ${cols.map(writable)}
                  }
                  Update: {
                    ${cols.map(writable)}
                  }
                  `
                      : ''
                  }Relationships: [
                    ${relsOf(v.name).map(relationship)}
                  ]
                }`;
        })
      : '[_ in never]: never';

    const fnsByName = new Map<string, Fn[]>();
    for (const f of [...d.functions].sort(byName))
      fnsByName.set(f.name, [...(fnsByName.get(f.name) ?? []), f]);
    const returnOf = (f: Fn): string => {
      const rel = relById.get(f.returnRelid);
      if (rel) {
        const oneRow = !(f.rows > 1);
        const cols = columnsOf(rel.oid).map((c) =>
          column(rel.kind === 'view' ? { ...c, nullable: true } : c, false),
        );
        return `{
              ${cols.join(',\n')}
            }${f.returnsSet && !oneRow ? '[]' : ''}
                          SetofOptions: {
        from: "*"
        to: ${JSON.stringify(rel.name)}
        isOneToOne: ${oneRow}
        isSetofReturn: ${f.returnsSet}
      }`;
      }
      return `${tsType(f.returnType)}${f.returnsSet ? '[]' : ''}`;
    };
    const fnBlock = fnsByName.size
      ? [...fnsByName]
          .map(([name, fns]) => {
            const sigs = fns
              .map((f) => {
                const args = f.args.length
                  ? `{ ${f.args.map((a) => `${JSON.stringify(a.name)}${a.hasDefault ? '?' : ''}: ${tsType(a.type)}`)} }`
                  : 'never';
                return `{ Args: ${args}; Returns: ${returnOf(f)} }`;
              })
              .join(' |\n');
            return `${JSON.stringify(name)}:\n${sigs}`;
          })
          .join(',\n')
      : '[_ in never]: never';
    const enums = [...d.enums].sort(byName);
    const enumBlock = enums.length
      ? enums.map((e) => `${JSON.stringify(e.name)}: ${e.values.map((v) => JSON.stringify(v)).join('|')}`)
      : '[_ in never]: never';

    blocks.push(`${JSON.stringify(schema)}: {
          Tables: {
            ${tableBlock}
          }
          Views: {
            ${viewBlock}
          }
          Functions: {
            ${fnBlock}
          }
          Enums: {
            ${enumBlock}
          }
          CompositeTypes: {
            [_ in never]: never
          }
        }`);
    constants.push(`${JSON.stringify(schema)}: {
          Enums: {
            ${enums.map((e) => `${JSON.stringify(e.name)}: [${e.values.map((v) => JSON.stringify(v)).join(', ')}]`)}
          }
        }`);
  }

  const output = `
export type Json = string | number | boolean | null | { [key: string]: Json | undefined } | Json[]

export type Database = {
  // Allows to automatically instantiate createClient with right options
  // instead of createClient<Database, { PostgrestVersion: 'XX' }>(URL, KEY)
  __InternalSupabase: {
    PostgrestVersion: '${POSTGREST_VERSION}'
  }
  ${blocks}
}

${HELPERS}

export const Constants = {
  ${constants}
} as const
`;
  return prettier.format(output, { parser: 'typescript', semi: false });
}

/** The helper types the Supabase CLI appends to every generated file. */
const HELPERS = `type DatabaseWithoutInternals = Omit<Database, '__InternalSupabase'>

type DefaultSchema = DatabaseWithoutInternals[Extract<keyof Database, "public">]

export type Tables<
  DefaultSchemaTableNameOrOptions extends
    | keyof (DefaultSchema["Tables"] & DefaultSchema["Views"])
    | { schema: keyof DatabaseWithoutInternals },
  TableName extends DefaultSchemaTableNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof (DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"] &
        DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Views"])
    : never = never
> = DefaultSchemaTableNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
  ? (DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"] &
      DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Views"])[TableName] extends {
      Row: infer R
    }
    ? R
    : never
  : DefaultSchemaTableNameOrOptions extends keyof (DefaultSchema["Tables"] & DefaultSchema["Views"])
  ? (DefaultSchema["Tables"] & DefaultSchema["Views"])[DefaultSchemaTableNameOrOptions] extends {
      Row: infer R
    }
    ? R
    : never
  : never

export type TablesInsert<
  DefaultSchemaTableNameOrOptions extends
    | keyof DefaultSchema["Tables"]
    | { schema: keyof DatabaseWithoutInternals },
  TableName extends DefaultSchemaTableNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"]
    : never = never
> = DefaultSchemaTableNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
  ? DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"][TableName] extends {
      Insert: infer I
    }
    ? I
    : never
  : DefaultSchemaTableNameOrOptions extends keyof DefaultSchema["Tables"]
  ? DefaultSchema["Tables"][DefaultSchemaTableNameOrOptions] extends {
      Insert: infer I
    }
    ? I
    : never
  : never

export type TablesUpdate<
  DefaultSchemaTableNameOrOptions extends
    | keyof DefaultSchema["Tables"]
    | { schema: keyof DatabaseWithoutInternals },
  TableName extends DefaultSchemaTableNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"]
    : never = never
> = DefaultSchemaTableNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
  ? DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"][TableName] extends {
      Update: infer U
    }
    ? U
    : never
  : DefaultSchemaTableNameOrOptions extends keyof DefaultSchema["Tables"]
  ? DefaultSchema["Tables"][DefaultSchemaTableNameOrOptions] extends {
      Update: infer U
    }
    ? U
    : never
  : never

export type Enums<
  DefaultSchemaEnumNameOrOptions extends
    | keyof DefaultSchema["Enums"]
    | { schema: keyof DatabaseWithoutInternals },
  EnumName extends DefaultSchemaEnumNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof DatabaseWithoutInternals[DefaultSchemaEnumNameOrOptions["schema"]]["Enums"]
    : never = never
> = DefaultSchemaEnumNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
  ? DatabaseWithoutInternals[DefaultSchemaEnumNameOrOptions["schema"]]["Enums"][EnumName]
  : DefaultSchemaEnumNameOrOptions extends keyof DefaultSchema["Enums"]
  ? DefaultSchema["Enums"][DefaultSchemaEnumNameOrOptions]
  : never

export type CompositeTypes<
  PublicCompositeTypeNameOrOptions extends
    | keyof DefaultSchema["CompositeTypes"]
    | { schema: keyof DatabaseWithoutInternals },
  CompositeTypeName extends PublicCompositeTypeNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof DatabaseWithoutInternals[PublicCompositeTypeNameOrOptions["schema"]]["CompositeTypes"]
    : never = never
> = PublicCompositeTypeNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
  ? DatabaseWithoutInternals[PublicCompositeTypeNameOrOptions["schema"]]["CompositeTypes"][CompositeTypeName]
  : PublicCompositeTypeNameOrOptions extends keyof DefaultSchema["CompositeTypes"]
  ? DefaultSchema["CompositeTypes"][PublicCompositeTypeNameOrOptions]
  : never`;

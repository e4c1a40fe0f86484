/**
 * Turns a parsed request into one SQL statement, shaped like the statements PostgREST generates: the
 * rows (or the mutation's RETURNING, in a CTE) are aggregated by one outer select that returns the total
 * count, the page count, the JSON body and the `response.headers`/`response.status` GUCs as text.
 * Identifiers come only from the schema cache and are quoted; every value from the request is a bind
 * parameter.
 */
import { RestError, columnMissing, payloadColumnMissing } from './errors.ts';
import { findRelationship, isToOne, type Relationship } from './relationships.ts';
import type { Column, SchemaCache, Table } from './schema-cache.ts';
import {
  OPERATORS,
  type Condition,
  type FieldRef,
  type Filter,
  type OrderTerm,
  type ParsedQuery,
  type SelectItem,
} from './query-parser.ts';

export function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

export class Params {
  values: unknown[] = [];
  add(v: unknown): string {
    this.values.push(v);
    return `$${this.values.length}`;
  }
}

interface Source {
  table: Table;
  /** SQL for the FROM item, e.g. `"public"."reports"` or `pgrst_mutation`. */
  from: string;
}

interface Built {
  /** `select ... from ... joins where ... order limit` */
  sql: string;
  /** The same rows without the select list, order and paging, for counting. */
  countSql: string;
  /** Output column names, for `...spread` embeds. */
  outputs: string[];
}

export class Builder {
  private aliasSeq = 0;
  /** A mutation's returned rows were already chosen by its WHERE; filtering them again would drop changed rows. */
  private skipRootFilters = false;
  readonly params = new Params();

  constructor(
    private cache: SchemaCache,
    private query: ParsedQuery,
    private maxRows: number | undefined,
  ) {}

  /** The read query over a source (a table, a view, a function call or a mutation's returned rows). */
  read(source: Source, paging: { limit?: number; offset?: number }, root = true, rootFilters = true): Built {
    this.skipRootFilters = !rootFilters;
    const alias = ident(source.table.name);
    return this.node(
      source.table,
      `${source.from} as ${alias}`,
      alias,
      this.query.select,
      '',
      null,
      root ? paging : undefined,
    );
  }

  /** `from` is the FROM list, `alias` the name of `table`'s rows in it. */
  private node(
    table: Table,
    from: string,
    alias: string,
    select: SelectItem[],
    path: string,
    joinCond: string | null,
    paging: { limit?: number; offset?: number } | undefined,
  ): Built {
    const params = (path === '' && this.skipRootFilters ? undefined : this.query.nodes.get(path)) ?? {
      conditions: [],
    };
    const cols: string[] = [];
    const outputs: string[] = [];
    const joins: string[] = [];
    const countJoins: string[] = [];
    const embedAliases = new Map<string, { sqlAlias: string; rel: Relationship }>();
    /** With an aggregate in the select, PostgREST groups by the other fields selected. */
    let aggregated = false;
    const groupBy: string[] = [];

    for (const item of select) {
      if (item.kind === 'star') {
        // Spelled out, so bookkeeping columns of a mutation's RETURNING never reach the body.
        for (const c of table.columnList) cols.push(`${alias}.${ident(c.name)}`);
        outputs.push(...table.columnList.map((c) => c.name));
      } else if (item.kind === 'field' && item.aggregate) {
        if (!this.cache.pgrst.aggregatesEnabled)
          throw new RestError(400, 'PGRST123', 'Use of aggregate functions is not allowed');
        const input = item.field.name === '*' ? '*' : this.fieldExpr(table, alias, item.field, item.cast);
        const call = `pg_catalog.${item.aggregate}(${input})`;
        const name = item.alias ?? item.aggregate;
        cols.push(`${item.aggregateCast ? `(${call})::${item.aggregateCast}` : call} as ${ident(name)}`);
        outputs.push(name);
        aggregated = true;
      } else if (item.kind === 'field') {
        const expr = this.fieldExpr(table, alias, item.field, item.cast);
        const name =
          item.alias ??
          (item.field.path.length ? item.field.path[item.field.path.length - 1].key : item.field.name);
        cols.push(`${expr} as ${ident(name)}`);
        outputs.push(name);
        groupBy.push(expr);
      } else {
        const rel = this.resolveRelationship(table, item.name, item.hint);
        const key = item.alias ?? item.name;
        const sqlAlias = ident(`${rel.target.name}_${++this.aliasSeq}`);
        const childPath = path ? `${path}.${key}` : key;
        const source = this.relatedSource(rel, table, alias, sqlAlias);
        const toOne = isToOne(rel);
        // `users()`: an embed selecting nothing joins (for `!inner` and its filters) but is not output.
        const hidden = item.select.length === 0;
        const child = this.node(
          rel.target,
          source.from,
          sqlAlias,
          item.select,
          childPath,
          source.cond,
          toOne ? undefined : {},
        );
        const inner = item.join === 'inner';
        let joinSql: string;
        if (toOne) {
          joinSql = `${inner ? 'inner' : 'left'} join lateral (${child.sql}) as ${sqlAlias} on true`;
          if (hidden) {
            // joined only
          } else if (item.spread) {
            for (const o of child.outputs) {
              cols.push(`${sqlAlias}.${ident(o)} as ${ident(o)}`);
              outputs.push(o);
            }
          } else {
            cols.push(
              `case when ${sqlAlias} is null then null else row_to_json(${sqlAlias}.*) end as ${ident(key)}`,
            );
            outputs.push(key);
          }
        } else {
          if (item.spread)
            throw new RestError(
              400,
              'PGRST119',
              `A spread operation on '${item.name}' is not possible`,
              `'${table.name}' and '${item.name}' do not form a many-to-one or one-to-one relationship`,
            );
          const agg = inner ? `json_agg(${sqlAlias})` : `coalesce(json_agg(${sqlAlias}), '[]')`;
          joinSql = `${inner ? 'inner' : 'left'} join lateral (select ${agg} as ${sqlAlias} from (${child.sql}) as ${sqlAlias}) as ${sqlAlias} on ${inner ? `${sqlAlias}.${sqlAlias} is not null` : 'true'}`;
          if (!hidden) {
            cols.push(`${sqlAlias}.${sqlAlias} as ${ident(key)}`);
            outputs.push(key);
          }
        }
        joins.push(joinSql);
        embedAliases.set(key, { sqlAlias, rel });
        if (inner) countJoins.push(joinSql);
      }
    }

    const where: string[] = [];
    if (joinCond) where.push(joinCond);
    for (const c of params.conditions) {
      const embedFilter = this.embedNullFilter(c, embedAliases);
      if (embedFilter) {
        where.push(embedFilter.sql);
        if (!countJoins.includes(embedFilter.join)) countJoins.push(embedFilter.join);
        continue;
      }
      where.push(this.condition(table, alias, c));
    }
    // Conditions on an embedded path whose embed is not selected cannot apply anywhere: PostgREST says so.
    if (path === '') {
      for (const p of this.query.nodes.keys()) {
        if (p !== '' && !this.embedPathExists(select, p.split('.'))) {
          throw new RestError(
            400,
            'PGRST108',
            `'${p}' is not an embedded resource in this request`,
            null,
            `Verify that '${p}' is included in the 'select' query parameter.`,
          );
        }
      }
    }
    const whereSql = where.length ? ` where ${where.join(' and ')}` : '';
    const order = params.order ? this.orderBy(table, alias, params.order) : '';
    const pagingSql = this.pagingSql(
      path === '' ? paging : paging && { limit: params.limit, offset: params.offset },
    );
    const body = `select ${cols.join(', ') || 'null'} from ${from}`;
    const groupSql = aggregated && groupBy.length ? ` group by ${groupBy.join(', ')}` : '';
    return {
      sql: `${body} ${joins.join(' ')}${whereSql}${groupSql}${order}${pagingSql}`,
      countSql: `select 1 from ${from} ${countJoins.join(' ')}${whereSql}`,
      outputs,
    };
  }

  private pagingSql(p: { limit?: number; offset?: number } | undefined): string {
    if (!p) return '';
    let out = '';
    if (p.limit !== undefined) out += ` limit ${this.params.add(p.limit)}`;
    if (p.offset) out += ` offset ${this.params.add(p.offset)}`;
    return out;
  }

  private embedPathExists(select: SelectItem[], parts: string[]): boolean {
    const [head, ...rest] = parts;
    const e = select.find((s) => s.kind === 'embed' && (s.alias ?? s.name) === head);
    if (!e || e.kind !== 'embed') return false;
    return rest.length === 0 || this.embedPathExists(e.select, rest);
  }

  /** `rel=is.null` / `rel=not.is.null` on an embedded resource filters the parent rows (PostgREST 11+). */
  private embedNullFilter(
    c: Condition,
    embeds: Map<string, { sqlAlias: string; rel: Relationship }>,
  ): { sql: string; join: string } | null {
    if (c.kind !== 'filter' || c.field.path.length || !embeds.has(c.field.name)) return null;
    const e = embeds.get(c.field.name)!;
    if (c.op !== 'is' || String(c.value).toLowerCase() !== 'null') {
      throw new RestError(
        400,
        'PGRST120',
        `Bad operator on the '${c.field.name}' embedded resource`,
        'Only is null or not is null filters are allowed on embedded resources',
      );
    }
    const isNull = isToOne(e.rel)
      ? `${e.sqlAlias} is null`
      : `json_array_length(${e.sqlAlias}.${e.sqlAlias}) = 0`;
    return { sql: c.negate ? `not (${isNull})` : isNull, join: '' };
  }

  resolveRelationship(origin: Table, name: string, hint?: string): Relationship {
    return findRelationship(this.cache.relationships, origin, name, hint);
  }

  /**
   * The FROM list and join condition of `rel`'s rows for a parent row `parentAlias`: the target table
   * on the key's columns, the target and the junction for many-to-many (as PostgREST joins them), or
   * the function of a computed relationship called with the parent's row.
   */
  private relatedSource(
    rel: Relationship,
    parent: Table,
    parentAlias: string,
    alias: string,
  ): { from: string; cond: string | null } {
    const target = `${ident(rel.target.schema)}.${ident(rel.target.name)} as ${alias}`;
    if (rel.fn) {
      const row = parent.columnList.map((c) => `${parentAlias}.${ident(c.name)}`).join(', ');
      const arg = `row(${row})::${ident(parent.schema)}.${ident(parent.name)}`;
      return { from: `${ident(rel.fn.schema)}.${ident(rel.fn.name)}(${arg}) as ${alias}`, cond: null };
    }
    if (rel.junction) {
      const j = rel.junction;
      const jAlias = ident(`${j.table.name}_${++this.aliasSeq}`);
      const cond = [
        ...j.target.map(([t, jc]) => `${alias}.${ident(t)} = ${jAlias}.${ident(jc)}`),
        ...j.source.map(([o, jc]) => `${jAlias}.${ident(jc)} = ${parentAlias}.${ident(o)}`),
      ];
      return {
        from: `${target}, ${ident(j.table.schema)}.${ident(j.table.name)} as ${jAlias}`,
        cond: cond.join(' and '),
      };
    }
    const cond = rel.pairs.map(([o, t]) => `${alias}.${ident(t)} = ${parentAlias}.${ident(o)}`);
    return { from: target, cond: cond.join(' and ') };
  }

  /**
   * A column of `table`, or a computed field: a function of the table's row type, which PostgreSQL
   * calls when it is written as a column (`reports.blurb` is `blurb(reports)`), as PostgREST relies on.
   * `count` (PostgREST's legacy `select=count`) is PostgreSQL's own count(row) written that way.
   */
  column(table: Table, name: string): Column {
    const c = table.columns.get(name);
    if (c) return c;
    const computed = this.cache.computedField(table, name);
    if (computed) return computed;
    throw columnMissing(table.name, name);
  }

  fieldExpr(table: Table, alias: string, field: FieldRef, cast?: string): string {
    this.column(table, field.name);
    let expr = `${alias}.${ident(field.name)}`;
    for (const step of field.path) {
      const key = /^-?\d+$/.test(step.key)
        ? `${this.params.add(Number(step.key))}::int`
        : `${this.params.add(step.key)}::text`;
      expr = `${expr}${step.arrow}${key}`;
    }
    return cast ? `(${expr})::${cast}` : expr;
  }

  condition(table: Table, alias: string, c: Condition): string {
    if (c.kind === 'logic') {
      const inner = c.children.map((ch) => this.condition(table, alias, ch)).join(` ${c.op} `);
      const sql = `(${inner || (c.op === 'and' ? 'true' : 'false')})`;
      return c.negate ? `not ${sql}` : sql;
    }
    const sql = this.filter(table, alias, c);
    return c.negate ? `not (${sql})` : sql;
  }

  private filter(table: Table, alias: string, f: Filter): string {
    const col = this.column(table, f.field.name);
    const lhs = this.fieldExpr(table, alias, f.field);
    const sqlOp = OPERATORS[f.op];
    const likeValue = (v: string) => (f.op === 'like' || f.op === 'ilike' ? v.replace(/\*/g, '%') : v);
    switch (f.op) {
      case 'is': {
        const v = String(f.value).toLowerCase();
        return `${lhs} is ${v === 'not_null' ? 'not null' : v}`;
      }
      case 'in':
        return `${lhs} = any(${this.params.add(f.value as string[])})`;
      case 'fts':
      case 'plfts':
      case 'phfts':
      case 'wfts': {
        const fn = {
          fts: 'to_tsquery',
          plfts: 'plainto_tsquery',
          phfts: 'phraseto_tsquery',
          wfts: 'websearch_to_tsquery',
        }[f.op];
        const cfg = f.ftsConfig ? `${this.params.add(f.ftsConfig)}::regconfig, ` : '';
        const vec = col.type === 'tsvector' && f.field.path.length === 0 ? lhs : `to_tsvector(${cfg}${lhs})`;
        return `${vec} @@ ${fn}(${cfg}${this.params.add(f.value)})`;
      }
      default:
        if (f.modifier) {
          return `${lhs} ${sqlOp} ${f.modifier}(${this.params.add((f.value as string[]).map(likeValue))})`;
        }
        return `${lhs} ${sqlOp} ${this.params.add(likeValue(f.value as string))}`;
    }
  }

  private orderBy(table: Table, alias: string, terms: OrderTerm[]): string {
    const parts = terms.map((t) => {
      let expr: string;
      if (t.relation) {
        const rel = this.resolveRelationship(table, t.relation);
        if (!isToOne(rel)) {
          throw new RestError(
            400,
            'PGRST118',
            `A related order on '${t.relation}' is not possible`,
            `'${table.name}' and '${t.relation}' do not form a many-to-one or one-to-one relationship`,
          );
        }
        const a = ident(`${rel.target.name}_order_${++this.aliasSeq}`);
        const source = this.relatedSource(rel, table, alias, a);
        expr = `(select ${this.fieldExpr(rel.target, a, t.field)} from ${source.from}${source.cond ? ` where ${source.cond}` : ''} limit 1)`;
      } else expr = this.fieldExpr(table, alias, t.field);
      return `${expr}${t.dir ? ` ${t.dir}` : ''}${t.nulls ? ` nulls ${t.nulls}` : ''}`;
    });
    return ` order by ${parts.join(', ')}`;
  }

  /** The root's limit capped by `[api] max_rows`, as PostgREST's db-max-rows does. */
  rootPaging(range: { offset: number; limit?: number }): { limit?: number; offset?: number } {
    let limit = range.limit;
    if (this.maxRows !== undefined)
      limit = limit === undefined ? this.maxRows : Math.min(limit, this.maxRows);
    return { limit, offset: range.offset };
  }
}

/**
 * The outer select every statement ends with (PostgREST's `mainRead`/`mainWrite` shape): one aggregate
 * over the rows `_postgrest_t` giving the total, the page count, the body and the response GUCs. A
 * mutation comes in `ctes`, since a data-modifying statement may only stand in WITH.
 */
export function wrap(
  inner: string,
  opts: { count?: string; body: string; inserted?: string },
  ctes?: string,
): string {
  return (
    `${ctes ? `with ${ctes} ` : ''}select ${opts.count ?? 'null'}::text as total, pg_catalog.count(*)::text as page_total, ` +
    `${opts.body} as body, ` +
    `nullif(current_setting('response.headers', true), '') as response_headers, ` +
    `nullif(current_setting('response.status', true), '') as response_status, ` +
    `${opts.inserted ?? 'null'}::text as inserted ` +
    `from (${inner}) as _postgrest_t`
  );
}

export const ARRAY_BODY = `coalesce(json_agg(_postgrest_t), '[]')::text`;

/** Columns of an INSERT/PATCH payload, checked against the table. */
export function payloadColumns(table: Table, keys: string[]): Column[] {
  return keys.map((k) => {
    const c = table.columns.get(k);
    if (!c) throw payloadColumnMissing(table.name, k);
    return c;
  });
}

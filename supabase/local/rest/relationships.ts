/**
 * PostgREST 12's relationships, built from the schema cache as its `SchemaCache.hs` builds them, and
 * found for an embed as its `Plan.hs:findRel` finds them:
 * - every foreign key gives a many-to-one (one-to-one when its columns are a primary key or unique),
 *   and views that show the key's columns get the same relationship, view to table, table to view and
 *   view to view;
 * - a table whose foreign keys to two tables (or twice to one) are all columns of its primary key is a
 *   junction: the two tables are many-to-many through it;
 * - every one of them is also seen from the other side (one-to-many);
 * - a function taking one table's row and returning another's (or a set of them) is a computed
 *   relationship, and replaces the foreign-key relationships to a table of the same name.
 * The candidates of an ambiguous embed (PGRST201) come in PostgREST's order, which sorts them.
 */
import { RestError } from './errors.ts';
import { fuzzyGet, fuzzyGetOne } from './fuzzy.ts';
import type { Table } from './schema-cache.ts';

/** `[schema, name]` */
type Qi = [string, string];
type Pairs = [string, string][];

export interface Junction {
  table: Table;
  cons1: string;
  cons2: string;
  /** [origin column, junction column] */
  source: Pairs;
  /** [target column, junction column] */
  target: Pairs;
}

/** A relationship from an origin table (or view) to a target, as PostgREST's embedding resolves it. */
export interface Relationship {
  origin: Table;
  target: Table;
  isSelf: boolean;
  cardinality: 'o2m' | 'm2o' | 'o2o' | 'm2m' | 'computed';
  /** The foreign key's name ('' for many-to-many and computed relationships). */
  cons: string;
  /** [origin column, target column] of a foreign key relationship. */
  pairs: Pairs;
  /** One-to-one from the referenced side. */
  isParent: boolean;
  originIsView: boolean;
  targetIsView: boolean;
  junction?: Junction;
  /** The function of a computed relationship, and whether it returns one row. */
  fn?: { schema: string; name: string; toOne: boolean };
}

/** Embeds as an object rather than an array. */
export function isToOne(r: Relationship): boolean {
  return r.cardinality === 'm2o' || r.cardinality === 'o2o' || (r.cardinality === 'computed' && r.fn!.toOne);
}

export interface RawForeignKey {
  name: string;
  schema: string;
  table: string;
  columns: string[];
  foreignSchema: string;
  foreignTable: string;
  foreignColumns: string[];
  /** The referencing columns are the primary key or a unique key: one-to-one. */
  unique: boolean;
}

export interface RawViewColumn {
  schema: string;
  view: string;
  tableSchema: string;
  table: string;
  column: string;
}

export interface RawComputed {
  schema: string;
  name: string;
  tableSchema: string;
  table: string;
  targetSchema: string;
  target: string;
  singleRow: boolean;
}

interface RawRel {
  table: Qi;
  target: Qi;
  isSelf: boolean;
  card: 'o2m' | 'm2o' | 'o2o' | 'm2m';
  cons: string;
  cols: Pairs;
  isParent: boolean;
  tableIsView: boolean;
  targetIsView: boolean;
  junction?: { table: Qi; cons1: string; cons2: string; source: Pairs; target: Pairs };
}

const key = (q: Qi) => `${q[0]}.${q[1]}`;
const same = (a: Qi, b: Qi) => a[0] === b[0] && a[1] === b[1];
const swap = (p: Pairs): Pairs => p.map(([a, b]) => [b, a]);

/**
 * The columns of each view that show a base table's column (PostgREST's view key dependencies): a
 * view column counts when it is the only column of that name the view takes from its tables.
 */
function viewSources(tables: Map<string, Table>, deps: RawViewColumn[]): Map<string, Map<string, string>> {
  const byView = new Map<string, RawViewColumn[]>();
  for (const d of deps) {
    const k = `${d.schema}.${d.view}`;
    byView.set(k, [...(byView.get(k) ?? []), d]);
  }
  const out = new Map<string, Map<string, string>>();
  for (const [k, ds] of byView) {
    const view = tables.get(k);
    if (!view) continue;
    const source = new Map<string, string>();
    for (const c of view.columnList) {
      const hits = ds.filter((d) => d.column === c.name);
      if (hits.length === 1) source.set(c.name, `${hits[0].tableSchema}.${hits[0].table}`);
    }
    out.set(k, source);
  }
  return out;
}

/** Views take the primary key of the table they show, when they show all of its columns. */
export function addViewPrimaryKeys(tables: Map<string, Table>, deps: RawViewColumn[]): void {
  for (const [k, source] of viewSources(tables, deps)) {
    const view = tables.get(k)!;
    if (view.pk.length) continue;
    for (const b of new Set(source.values())) {
      const t = tables.get(b);
      if (t && t.pk.length && t.pk.every((c) => source.get(c) === b)) view.pk = t.pk;
    }
  }
}

function addViewRels(tables: Map<string, Table>, deps: RawViewColumn[], rels: RawRel[]): RawRel[] {
  const sources = viewSources(tables, deps);
  /** The views showing all of `cols` of `table`. */
  const viewsShowing = (table: Qi, cols: string[]): Qi[] => {
    const out: Qi[] = [];
    for (const [k, source] of sources) {
      if (cols.every((c) => source.get(c) === key(table))) {
        const v = tables.get(k)!;
        out.push([v.schema, v.name]);
      }
    }
    return out;
  };
  const out: RawRel[] = [];
  for (const r of rels) {
    if (r.card !== 'm2o' && !(r.card === 'o2o' && !r.isParent)) continue;
    const fromViews = viewsShowing(
      r.table,
      r.cols.map(([c]) => c),
    );
    const toViews = viewsShowing(
      r.target,
      r.cols.map(([, f]) => f),
    );
    const base = { card: r.card, cons: r.cons, cols: r.cols, isParent: false };
    for (const v of fromViews)
      out.push({
        ...base,
        table: v,
        target: r.target,
        isSelf: false,
        tableIsView: true,
        targetIsView: false,
      });
    for (const w of toViews)
      out.push({ ...base, table: r.table, target: w, isSelf: false, tableIsView: false, targetIsView: true });
    for (const v of fromViews)
      for (const w of toViews)
        out.push({ ...base, table: v, target: w, isSelf: same(v, w), tableIsView: true, targetIsView: true });
  }
  return [...rels, ...out];
}

/** Many-to-many through a table whose two foreign keys' columns all belong to its primary key. */
function addM2MRels(tables: Map<string, Table>, rels: RawRel[]): RawRel[] {
  const out: RawRel[] = [];
  for (const r1 of rels) {
    if (r1.card !== 'm2o') continue;
    for (const r2 of rels) {
      if (r2.card !== 'm2o' || !same(r1.table, r2.table) || r1.cons === r2.cons) continue;
      const pk = new Set(tables.get(key(r1.table))?.pk ?? []);
      const cols = [...r1.cols.map(([c]) => c), ...r2.cols.map(([c]) => c)];
      if (!cols.every((c) => pk.has(c))) continue;
      out.push({
        table: r1.target,
        target: r2.target,
        isSelf: same(r1.target, r2.target),
        card: 'm2m',
        cons: '',
        cols: [],
        isParent: false,
        tableIsView: r1.targetIsView,
        targetIsView: r2.targetIsView,
        junction: {
          table: r1.table,
          cons1: r1.cons,
          cons2: r2.cons,
          source: swap(r1.cols),
          target: swap(r2.cols),
        },
      });
    }
  }
  return [...rels, ...out];
}

function addInverseRels(rels: RawRel[]): RawRel[] {
  const out: RawRel[] = [];
  for (const r of rels) {
    if (r.card !== 'm2o' && r.card !== 'o2o') continue;
    out.push({
      ...r,
      table: r.target,
      target: r.table,
      card: r.card === 'm2o' ? 'o2m' : 'o2o',
      cols: swap(r.cols),
      isParent: r.card === 'o2o' ? !r.isParent : false,
      tableIsView: r.targetIsView,
      targetIsView: r.tableIsView,
    });
  }
  return [...rels, ...out];
}

// PostgREST sorts each origin's relationships with Haskell's derived order on its Relationship type.
const CARD_ORDER = { o2m: 0, m2o: 1, o2o: 2, m2m: 3, computed: 4 };

function cmp(a: string | number | boolean, b: string | number | boolean): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function cmpList<T>(a: T[], b: T[], item: (x: T, y: T) => number): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const c = item(a[i], b[i]);
    if (c) return c;
  }
  return cmp(a.length, b.length);
}

const cmpPair = (x: [string, string], y: [string, string]) => cmp(x[0], y[0]) || cmp(x[1], y[1]);
const cmpTable = (x: Table, y: Table) => cmp(x.schema, y.schema) || cmp(x.name, y.name);

function compare(a: Relationship, b: Relationship): number {
  if (a.cardinality === 'computed' || b.cardinality === 'computed') {
    if (a.cardinality !== b.cardinality) return a.cardinality === 'computed' ? 1 : -1;
    return (
      cmp(a.fn!.schema, b.fn!.schema) ||
      cmp(a.fn!.name, b.fn!.name) ||
      cmpTable(a.origin, b.origin) ||
      cmpTable(a.target, b.target) ||
      cmp(a.fn!.toOne, b.fn!.toOne) ||
      cmp(a.isSelf, b.isSelf)
    );
  }
  const byCard = () => {
    if (a.cardinality === 'm2m') {
      const ja = a.junction!;
      const jb = b.junction!;
      return (
        cmpTable(ja.table, jb.table) ||
        cmp(ja.cons1, jb.cons1) ||
        cmp(ja.cons2, jb.cons2) ||
        cmpList(ja.source, jb.source, cmpPair) ||
        cmpList(ja.target, jb.target, cmpPair)
      );
    }
    return cmp(a.cons, b.cons) || cmpList(a.pairs, b.pairs, cmpPair) || cmp(a.isParent, b.isParent);
  };
  return (
    cmpTable(a.origin, b.origin) ||
    cmpTable(a.target, b.target) ||
    cmp(a.isSelf, b.isSelf) ||
    cmp(CARD_ORDER[a.cardinality], CARD_ORDER[b.cardinality]) ||
    byCard() ||
    cmp(a.originIsView, b.originIsView) ||
    cmp(a.targetIsView, b.targetIsView)
  );
}

/**
 * Every relationship of the exposed tables, by origin (`schema.name`), each list in PostgREST's
 * order. Relationships to or through tables outside the exposed schemas are left out.
 */
export function buildRelationships(
  tables: Map<string, Table>,
  fks: RawForeignKey[],
  viewColumns: RawViewColumn[],
  computed: RawComputed[],
): Map<string, Relationship[]> {
  const base: RawRel[] = fks.map((fk) => ({
    table: [fk.schema, fk.table],
    target: [fk.foreignSchema, fk.foreignTable],
    isSelf: fk.schema === fk.foreignSchema && fk.table === fk.foreignTable,
    card: fk.unique ? 'o2o' : 'm2o',
    cons: fk.name,
    cols: fk.columns.map((c, i): [string, string] => [c, fk.foreignColumns[i]]),
    isParent: false,
    tableIsView: false,
    targetIsView: false,
  }));
  const raw = addInverseRels(addM2MRels(tables, addViewRels(tables, viewColumns, base)));
  const out = new Map<string, Relationship[]>();
  const push = (r: Relationship) => {
    const k = `${r.origin.schema}.${r.origin.name}`;
    out.set(k, [...(out.get(k) ?? []), r]);
  };
  // A computed relationship named like a table replaces the foreign-key relationships to it.
  const overridden = new Set(computed.map((c) => `${c.tableSchema}.${c.table}\u0000${c.schema}.${c.name}`));
  for (const r of raw) {
    if (overridden.has(`${key(r.table)}\u0000${key(r.target)}`)) continue;
    const origin = tables.get(key(r.table));
    const target = tables.get(key(r.target));
    const junction = r.junction && tables.get(key(r.junction.table));
    if (!origin || !target || (r.junction && !junction)) continue;
    push({
      origin,
      target,
      isSelf: r.isSelf,
      cardinality: r.card,
      cons: r.cons,
      pairs: r.cols,
      isParent: r.isParent,
      originIsView: r.tableIsView,
      targetIsView: r.targetIsView,
      junction: r.junction && { ...r.junction, table: junction! },
    });
  }
  for (const c of computed) {
    const origin = tables.get(`${c.tableSchema}.${c.table}`);
    const target = tables.get(`${c.targetSchema}.${c.target}`);
    if (!origin || !target) continue;
    push({
      origin,
      target,
      isSelf: origin === target,
      cardinality: 'computed',
      cons: '',
      pairs: [],
      isParent: false,
      originIsView: origin.isView,
      targetIsView: target.isView,
      fn: { schema: c.schema, name: c.name, toOne: c.singleRow },
    });
  }
  for (const list of out.values()) list.sort(compare);
  return out;
}

const single = (pairs: Pairs, side: 0 | 1, name: string) => pairs.length === 1 && pairs[0][side] === name;

/**
 * The relationship an embed `target!hint(...)` on `origin` names (PostgREST's `findRel`): the target
 * is a table or view, or without a hint also a foreign key's name or single column (to a table, not a
 * view); the hint is a foreign key's name, one of its single columns, or a junction's name. In a
 * self-relationship the table's name means its children and the foreign key's column its parent.
 */
export function matchRelationships(rels: Relationship[], target: string, hint?: string): Relationship[] {
  return rels.filter((r) => {
    if (r.cardinality === 'computed') return r.fn!.name === target;
    const fk = r.cardinality !== 'm2m';
    if (r.isSelf) {
      if (hint === undefined)
        return (
          (r.target.name === target && r.cardinality === 'o2m') ||
          (r.cardinality === 'm2o' && single(r.pairs, 0, target))
        );
      return r.target.name === target && r.cardinality === 'o2m' && single(r.pairs, 1, hint);
    }
    if (hint === undefined)
      return (
        r.target.name === target ||
        (fk && r.cons === target && !r.targetIsView) ||
        (fk && single(r.pairs, 0, target) && !r.targetIsView)
      );
    return (
      r.target.name === target &&
      ((fk && (r.cons === hint || single(r.pairs, 0, hint) || single(r.pairs, 1, hint))) ||
        (r.cardinality === 'm2m' && r.junction!.table.name === hint))
    );
  });
}

const CARDINALITY_NAMES = {
  o2m: 'one-to-many',
  m2o: 'many-to-one',
  o2o: 'one-to-one',
  m2m: 'many-to-many',
  computed: '',
};

/** A candidate in PGRST201's details, as PostgREST prints the relationship's two sides. */
function describe(r: Relationship) {
  const cols = (names: string[]) => `(${names.join(', ')})`;
  const relationship = r.junction
    ? `${r.junction.table.name} using ${r.junction.cons1}${cols(r.junction.source.map(([, j]) => j))} and ${r.junction.cons2}${cols(r.junction.target.map(([, j]) => j))}`
    : `${r.cons} using ${r.origin.name}${cols(r.pairs.map(([o]) => o))} and ${r.target.name}${cols(r.pairs.map(([, t]) => t))}`;
  return {
    cardinality: CARDINALITY_NAMES[r.cardinality],
    embedding: `${r.origin.name} with ${r.target.name}`,
    relationship,
  };
}

/**
 * The one relationship an embed names, or PGRST200 (none; the hint names a close table when there is
 * one) or PGRST201 (several, listed with the hints that pick each).
 */
export function findRelationship(
  all: Map<string, Relationship[]>,
  origin: Table,
  target: string,
  hint?: string,
): Relationship {
  const schema = origin.schema;
  const ofOrigin = all.get(`${schema}.${origin.name}`);
  const rels = (ofOrigin ?? []).filter((r) => r.target.schema === schema);
  const matches = matchRelationships(rels, target, hint);
  if (matches.length === 1) return matches[0];
  if (matches.length === 0) {
    let suggestion: string | null;
    if (rels.length) {
      const close = fuzzyGet(
        rels.map((r) => r.target.name),
        target,
      ).find(([score]) => score < 1);
      suggestion = close ? `Perhaps you meant '${close[1]}' instead of '${target}'.` : null;
    } else {
      const origins = [...all.entries()]
        .filter(([, list]) => list.some((r) => r.target.schema === schema))
        .map(([, list]) => list[0].origin.name);
      const parent = fuzzyGetOne(origins, origin.name);
      suggestion = parent ? `Perhaps you meant '${parent}' instead of '${origin.name}'.` : null;
    }
    throw new RestError(
      400,
      'PGRST200',
      `Could not find a relationship between '${origin.name}' and '${target}' in the schema cache`,
      `Searched for a foreign key relationship between '${origin.name}' and '${target}${hint ? `' using the hint '${hint}` : ''}' in the schema '${schema}', but no matches were found.`,
      suggestion,
    );
  }
  const err = new RestError(
    300,
    'PGRST201',
    `Could not embed because more than one relationship was found for '${origin.name}' and '${target}'`,
    null,
    `Try changing '${target}' to one of the following: ${matches.map((r) => `'${r.target.name}!${r.junction ? r.junction.table.name : r.cons}'`).join(', ')}. Find the desired relationship in the 'details' key.`,
  );
  err.detailsJson = matches.map(describe);
  throw err;
}

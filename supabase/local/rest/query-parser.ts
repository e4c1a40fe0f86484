/**
 * Parses PostgREST's query-string grammar (https://docs.postgrest.org/en/v12/references/api/tables_views.html):
 * `select` with aliases, casts, JSON paths and embedding, horizontal filters with `not.` and modifiers,
 * `and`/`or` logic trees, `order`, `limit`/`offset`, also per embedded resource (`rel.limit`, `rel.col=`).
 * Only syntax is checked here; names are checked against the schema cache when SQL is built.
 */
import { RestError, parseError } from './errors.ts';

export interface JsonStep {
  arrow: '->' | '->>';
  key: string;
}

export interface FieldRef {
  name: string;
  path: JsonStep[];
}

export type SelectItem =
  | { kind: 'star' }
  | {
      kind: 'field';
      field: FieldRef;
      alias?: string;
      cast?: string;
      /** PostgREST 12's aggregates: `col.sum()`, `count()` (whose field is `*`). */
      aggregate?: Aggregate;
      /** `col.sum()::int`: a cast of the aggregate's result. */
      aggregateCast?: string;
    }
  | {
      kind: 'embed';
      name: string;
      alias?: string;
      hint?: string;
      join?: 'inner' | 'left';
      spread: boolean;
      select: SelectItem[];
    };

export type Aggregate = 'sum' | 'avg' | 'count' | 'max' | 'min';

/** `[alias:]count()[::cast]` or `[alias:]field[::cast].agg()[::cast]`. */
const AGGREGATE =
  /^(?:("(?:[^"\\]|\\.)*"|[^:"(]+):(?!:))?(?:count\(\)|(.+)\.(sum|avg|count|max|min)\(\))(?:::([A-Za-z_][A-Za-z0-9_]*))?$/;
const CAST = /^[A-Za-z_][A-Za-z0-9_]*(\[\])?$/;

export const OPERATORS = {
  eq: '=',
  neq: '<>',
  gt: '>',
  gte: '>=',
  lt: '<',
  lte: '<=',
  like: 'like',
  ilike: 'ilike',
  match: '~',
  imatch: '~*',
  is: 'is',
  isdistinct: 'is distinct from',
  in: 'in',
  cs: '@>',
  cd: '<@',
  ov: '&&',
  sl: '<<',
  sr: '>>',
  nxr: '&<',
  nxl: '&>',
  adj: '-|-',
  fts: '@@',
  plfts: '@@',
  phfts: '@@',
  wfts: '@@',
} as const;
export type Operator = keyof typeof OPERATORS;

export interface Filter {
  kind: 'filter';
  field: FieldRef;
  negate: boolean;
  op: Operator;
  /** A list for `in` and for `(any)`/`(all)` modifiers, otherwise the raw text. */
  value: string | string[];
  modifier?: 'any' | 'all';
  ftsConfig?: string;
}

export interface LogicTree {
  kind: 'logic';
  op: 'and' | 'or';
  negate: boolean;
  children: Condition[];
}

export type Condition = Filter | LogicTree;

export interface OrderTerm {
  /** An embedded resource to order by (many-to-one only), as in `order=author(name).asc`. */
  relation?: string;
  field: FieldRef;
  dir?: 'asc' | 'desc';
  nulls?: 'first' | 'last';
}

/** Conditions, order and paging for the root (path '') or one embedded resource path ('a.b'). */
export interface NodeParams {
  conditions: Condition[];
  order?: OrderTerm[];
  limit?: number;
  offset?: number;
}

export interface ParsedQuery {
  select: SelectItem[];
  nodes: Map<string, NodeParams>;
  columns?: string[];
  onConflict?: string[];
  /** Query parameters that are not PostgREST keywords (function arguments for GET /rpc). */
  rest: [string, string][];
}

const SIMPLE_OPS = new Set([
  'eq',
  'gte',
  'gt',
  'lte',
  'lt',
  'neq',
  'like',
  'ilike',
  'cs',
  'cd',
  'ov',
  'sl',
  'sr',
  'nxr',
  'nxl',
  'adj',
  'match',
  'imatch',
  'isdistinct',
]);
const FTS_OPS = new Set(['fts', 'plfts', 'phfts', 'wfts']);

/**
 * PostgREST's rule for telling filters from other parameters: a key with a dot (an embedded path) or a
 * value that starts with an operator is a filter; anything else is a function argument on /rpc and is
 * ignored on tables (so cache-busting parameters do no harm).
 */
function isFilter(key: string, value: string): boolean {
  if (key.includes('.')) return true;
  const parts = value.split('.');
  if (parts[0] === 'not' && parts.length > 1) return true;
  if (parts[0] === 'is' || parts[0] === 'in') return true;
  const head = parts[0].replace(/\((any|all)\)$/, '');
  if (SIMPLE_OPS.has(head) || FTS_OPS.has(head)) return true;
  const paren = value.split('(');
  return paren.length > 1 && FTS_OPS.has(paren[0]);
}

function nodeAt(nodes: Map<string, NodeParams>, path: string): NodeParams {
  let n = nodes.get(path);
  if (!n) nodes.set(path, (n = { conditions: [] }));
  return n;
}

/** Parses the whole query string. Parameters that are not filters or keywords land in `rest`. */
export function parseQuery(search: URLSearchParams): ParsedQuery {
  const nodes = new Map<string, NodeParams>([['', { conditions: [] }]]);
  const out: ParsedQuery = { select: [{ kind: 'star' }], nodes, rest: [] };
  for (const [key, value] of search) {
    if (key === 'select') {
      out.select = parseSelect(value);
      continue;
    }
    if (key === 'columns') {
      out.columns = parseNameList(value, 'columns parameter');
      continue;
    }
    if (key === 'on_conflict') {
      out.onConflict = parseNameList(value, 'on_conflict parameter');
      continue;
    }
    const words = key.split('.');
    const last = words[words.length - 1];
    if (['order', 'limit', 'offset', 'and', 'or'].includes(last)) {
      if (value === '') continue;
      const negate = words.includes('not') && (last === 'and' || last === 'or');
      const path = words
        .slice(0, -1)
        .filter((w) => !(negate && w === 'not'))
        .join('.');
      const n = nodeAt(nodes, path);
      if (last === 'order') n.order = parseOrder(value);
      else if (last === 'limit') n.limit = parseNonNegative(value, 'limit');
      else if (last === 'offset') n.offset = parseNonNegative(value, 'offset');
      else n.conditions.push(parseLogicTree(last as 'and' | 'or', negate, value));
      continue;
    }
    if (value === '' || !isFilter(key, value)) {
      out.rest.push([key, value]);
      continue;
    }
    // A horizontal filter; an embedded one names its resource path before the last dot.
    const dot = key.lastIndexOf('.');
    nodeAt(nodes, dot >= 0 ? key.slice(0, dot) : '').conditions.push(
      parseFilter(parseField(dot >= 0 ? key.slice(dot + 1) : key, 'filter'), value),
    );
  }
  return out;
}

/**
 * `limit`/`offset` as PostgREST reads them: a value that is not an integer is ignored; a negative
 * limit is an unsatisfiable range.
 */
function parseNonNegative(value: string, what: string): number | undefined {
  if (!/^-?\d+$/.test(value.trim())) return undefined;
  const n = Number(value);
  if (n < 0 && what === 'limit') {
    throw new RestError(
      416,
      'PGRST103',
      'Requested range not satisfiable',
      'Limit should be greater than or equal to zero.',
    );
  }
  return Math.max(0, n);
}

function parseNameList(value: string, what: string): string[] {
  const names = splitTopLevel(value, ',').map((s) => unquote(s.trim()));
  if (names.some((n) => !n)) throw parseError(what, value, 'unexpected "," expecting a column name');
  return names;
}

/** A field with an optional JSON path: `data->a->>b`, `"my col"`. */
export function parseField(text: string, what: string): FieldRef {
  const t = text.trim();
  let name: string;
  let rest: string;
  if (t.startsWith('"')) {
    const close = /^"(?:[^"\\]|\\.)*"/.exec(t);
    if (!close) throw parseError(what, text, 'unexpected end of input expecting closing quote');
    name = unquote(close[0]);
    rest = t.slice(close[0].length);
  } else {
    const arrow = t.indexOf('->');
    name = arrow < 0 ? t : t.slice(0, arrow);
    rest = arrow < 0 ? '' : t.slice(arrow);
    if (!/^[^\s,.:()!"]+$/.test(name))
      throw parseError(what, text, `unexpected "${firstBad(text)}" expecting field name`);
  }
  const path: JsonStep[] = [];
  const parts = rest.split(/(->>?)/);
  if (parts[0] !== '') throw parseError(what, text, `unexpected "${parts[0][0]}" expecting "->"`);
  for (let i = 1; i < parts.length; i += 2) {
    const key = parts[i + 1].replace(/^'(.*)'$/, '$1');
    if (key === '' || /[,:()!"]/.test(key))
      throw parseError(what, text, `unexpected "${key[0] ?? 'end of input'}" expecting JSON key`);
    path.push({ arrow: parts[i] as '->' | '->>', key });
  }
  return { name, path };
}

function firstBad(text: string): string {
  const m = /[^A-Za-z0-9_ ]/.exec(text);
  return m ? m[0] : text.slice(-1);
}

function unquote(s: string): string {
  if (s.length >= 2 && s.startsWith('"') && s.endsWith('"')) return s.slice(1, -1).replace(/\\(.)/g, '$1');
  return s;
}

/** Splits on `sep` outside double quotes, parentheses and braces (one pass, slicing). */
export function splitTopLevel(s: string, sep: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const ch = s.charCodeAt(i);
    if (quoted) {
      if (ch === 92 /* \\ */) i++;
      else if (ch === 34 /* " */) quoted = false;
      continue;
    }
    if (ch === 34) quoted = true;
    else if (ch === 40 || ch === 123 || ch === 91) depth++;
    else if (ch === 41 || ch === 125 || ch === 93) {
      if (--depth < 0)
        throw new RestError(
          400,
          'PGRST100',
          `"failed to parse (${s})" (line 1, column ${i + 1})`,
          `unexpected "${s[i]}"`,
        );
    } else if (depth === 0 && s[i] === sep) {
      parts.push(s.slice(from, i));
      from = i + 1;
    }
  }
  if (quoted || depth !== 0)
    throw new RestError(
      400,
      'PGRST100',
      `"failed to parse (${s})" (line 1, column ${s.length})`,
      'unexpected end of input',
    );
  parts.push(s.slice(from));
  return parts;
}

/** `[not.]op[(modifier)].value` for one field. */
export function parseFilter(field: FieldRef, expr: string, what = 'filter'): Filter {
  const m = /^(not\.)?([^.(]+)(?:\(([^)]*)\))?\.([\s\S]*)$/.exec(expr);
  if (!m || !Object.prototype.hasOwnProperty.call(OPERATORS, m[2])) {
    const opText = m ? m[2] : expr.replace(/^not\./, '');
    throw parseError(
      what,
      expr,
      m ? `unknown single value operator ${opText}` : 'unexpected end of input expecting delimiter (.)',
    );
  }
  const op = m[2] as Operator;
  const negate = !!m[1];
  const arg = m[3];
  const raw = m[4];
  const filter: Filter = { kind: 'filter', field, negate, op, value: raw };
  if (arg !== undefined) {
    if (op.endsWith('fts')) {
      if (!/^[A-Za-z0-9_]+$/.test(arg))
        throw parseError(what, expr, `unexpected "${firstBad(arg)}" expecting a text search configuration`);
      filter.ftsConfig = arg;
    } else if (
      (arg === 'any' || arg === 'all') &&
      ['eq', 'like', 'ilike', 'gt', 'gte', 'lt', 'lte', 'match', 'imatch'].includes(op)
    ) {
      filter.modifier = arg;
      filter.value = parseList(raw, what, expr, '{', '}');
    } else throw parseError(what, expr, `unexpected "${arg}" expecting "any" or "all"`);
  }
  if (op === 'in') filter.value = parseList(raw, what, expr, '(', ')');
  if (op === 'is' && !['null', 'not_null', 'true', 'false', 'unknown'].includes(raw.toLowerCase())) {
    throw parseError(
      what,
      expr,
      `unexpected "${raw.slice(0, 1)}" expecting null or trilean value (unknown, true, false)`,
    );
  }
  return filter;
}

/** `(a,b,"c,d")` or `{a,b}` into its elements. */
function parseList(raw: string, what: string, expr: string, open: string, close: string): string[] {
  if (!raw.startsWith(open) || !raw.endsWith(close)) {
    throw parseError(what, expr, `unexpected "${raw.slice(0, 1) || 'end of input'}" expecting "${open}"`);
  }
  const inner = raw.slice(1, -1);
  if (inner.trim() === '') return [];
  return splitTopLevel(inner, ',').map((v) => unquote(v.trim()));
}

/** `(a.eq.1,or(b.gt.2,c.is.null))` under `and`/`or`. */
export function parseLogicTree(op: 'and' | 'or', negate: boolean, value: string, depth = 0): LogicTree {
  if (!value.startsWith('(') || !value.endsWith(')')) {
    throw parseError(
      'logic tree',
      value,
      `unexpected "${value.slice(0, 1) || 'end of input'}" expecting "("`,
    );
  }
  // As for embedding: real filters nest a few levels, hostile ones thousands.
  if (depth >= MAX_EMBED_DEPTH)
    throw parseError('logic tree', value, `logic operators nest deeper than ${MAX_EMBED_DEPTH} levels`);
  const children: Condition[] = splitTopLevel(value.slice(1, -1), ',').map((part) => {
    const p = part.trim();
    const sub = /^(not\.)?(and|or)(\(.*\))$/s.exec(p);
    if (sub) return parseLogicTree(sub[2] as 'and' | 'or', !!sub[1], sub[3], depth + 1);
    const dot = p.indexOf('.');
    if (dot <= 0)
      throw parseError('logic tree', value, `unexpected "${p.slice(0, 1) || ')'}" expecting field name`);
    return parseFilter(
      parseField(p.slice(0, dot), 'logic tree'),
      unquoteValue(p.slice(dot + 1)),
      'logic tree',
    );
  });
  return { kind: 'logic', op, negate, children };
}

/** Inside logic trees a scalar value may be double-quoted to hold commas or parentheses. */
function unquoteValue(expr: string): string {
  const m = /^((?:not\.)?[a-z]+(?:\([^)]*\))?\.)("(?:[^"\\]|\\.)*")$/s.exec(expr);
  return m ? m[1] + unquote(m[2]) : expr;
}

/** `col.desc.nullslast,rel(col).asc`. */
export function parseOrder(value: string): OrderTerm[] {
  return splitTopLevel(value, ',').map((part) => {
    const p = part.trim();
    const m =
      /^(?:([^\s,.:()!"]+)\(([^)]+)\)|("(?:[^"\\]|\\.)*"|[^.]+?))((?:\.(?:asc|desc|nullsfirst|nullslast))*)$/.exec(
        p,
      );
    if (!m)
      throw parseError(
        'order',
        value,
        `unexpected "${firstBad(p)}" expecting "asc", "desc", "nullsfirst" or "nullslast"`,
      );
    const term: OrderTerm = m[1]
      ? { relation: m[1], field: parseField(m[2], 'order') }
      : { field: parseField(m[3], 'order') };
    for (const mod of m[4].split('.').filter(Boolean)) {
      if (mod === 'asc' || mod === 'desc') term.dir = mod;
      else term.nulls = mod === 'nullsfirst' ? 'first' : 'last';
    }
    return term;
  });
}

/** The `select` parameter: `alias:col::cast, rel!hint!inner(cols), ...rel(cols), *`. */
export function parseSelect(value: string): SelectItem[] {
  // postgrest-js strips whitespace outside quotes; PostgREST ignores it too. A linear scan, so a long
  // hostile select costs no more than its length.
  let text = value;
  if (/[\s"]/.test(value)) {
    text = '';
    let quoted = false;
    for (const ch of value) {
      if (ch === '"') quoted = !quoted;
      if (quoted || !/\s/.test(ch)) text += ch;
    }
  }
  if (text === '') return [{ kind: 'star' }];
  return splitTopLevel(text, ',').map((raw) => parseSelectItem(raw, value));
}

/**
 * Deeper embedding than any schema needs; the limit keeps a hostile `a(a(a(...)))` from costing
 * quadratic parsing time.
 */
const MAX_EMBED_DEPTH = 32;

function aggregateItem(m: RegExpExecArray, whole: string): SelectItem {
  const [, alias, target, fn, aggregateCast] = m;
  let field: FieldRef = { name: '*', path: [] };
  let cast: string | undefined;
  if (target !== undefined) {
    let rest = target;
    const castAt = rest.lastIndexOf('::');
    if (castAt >= 0) {
      cast = rest.slice(castAt + 2);
      rest = rest.slice(0, castAt);
      if (!CAST.test(cast))
        throw parseError('select parameter', whole, `unexpected "${firstBad(cast)}" expecting cast type`);
    }
    try {
      field = parseField(rest, 'select parameter');
    } catch {
      throw parseError(
        'select parameter',
        whole,
        `unexpected "${firstBad(rest)}" expecting field name (* or [a..z0..9_$])`,
      );
    }
  }
  return {
    kind: 'field',
    field,
    alias: alias === undefined ? undefined : unquote(alias),
    cast,
    aggregate: (fn ?? 'count') as Aggregate,
    aggregateCast,
  };
}

function parseSelectItem(raw: string, whole: string, depth = 0): SelectItem {
  if (raw === '*') return { kind: 'star' };
  if (raw === '')
    throw parseError('select parameter', whole, 'unexpected "," expecting field name (* or [a..z0..9_$])');
  const agg = AGGREGATE.exec(raw);
  if (agg) return aggregateItem(agg, whole);
  const open = raw.indexOf('(');
  if (open >= 0 && raw.endsWith(')') && !raw.slice(0, open).includes('::')) {
    // An embedded resource.
    let head = raw.slice(0, open);
    const body = raw.slice(open + 1, -1);
    let spread = false;
    // `...rel(cols)` as postgrest-js writes it (PostgREST's own parser also takes `..`).
    const dots = /^\.{2,3}/.exec(head);
    if (dots) {
      spread = true;
      head = head.slice(dots[0].length);
    }
    let alias: string | undefined;
    const colon = head.indexOf(':');
    if (colon >= 0) {
      alias = unquote(head.slice(0, colon));
      head = head.slice(colon + 1);
    }
    const [name, ...hints] = head.split('!');
    if (!/^[^\s,.:()!"]+$/.test(name) || hints.some((h) => !/^[^\s,.:()!"]+$/.test(h)) || hints.length > 2) {
      throw parseError(
        'select parameter',
        whole,
        `unexpected "${firstBad(head)}" expecting embedded resource name`,
      );
    }
    if (depth >= MAX_EMBED_DEPTH)
      throw parseError(
        'select parameter',
        whole,
        `embedded resources nest deeper than ${MAX_EMBED_DEPTH} levels`,
      );
    const item: SelectItem = {
      kind: 'embed',
      name,
      alias,
      spread,
      select: body === '' ? [] : splitTopLevel(body, ',').map((r) => parseSelectItem(r, whole, depth + 1)),
    };
    for (const h of hints) {
      if (h === 'inner' || h === 'left') item.join = h;
      else item.hint = h;
    }
    return item;
  }
  let rest = raw;
  let alias: string | undefined;
  const aliasMatch = /^("(?:[^"\\]|\\.)*"|[^:"]+):(?!:)/.exec(rest);
  if (aliasMatch) {
    alias = unquote(aliasMatch[1]);
    rest = rest.slice(aliasMatch[0].length);
  }
  let cast: string | undefined;
  const castAt = rest.lastIndexOf('::');
  if (castAt >= 0) {
    cast = rest.slice(castAt + 2);
    rest = rest.slice(0, castAt);
    if (!/^[A-Za-z_][A-Za-z0-9_]*(\[\])?$/.test(cast)) {
      throw parseError('select parameter', whole, `unexpected "${firstBad(cast)}" expecting cast type`);
    }
  }
  try {
    return { kind: 'field', field: parseField(rest, 'select parameter'), alias, cast };
  } catch {
    throw parseError(
      'select parameter',
      whole,
      `unexpected "${firstBad(rest)}" expecting field name (* or [a..z0..9_$])`,
    );
  }
}

/**
 * Reads of one shape share their SQL. Apps send the same few reads over and over with other values
 * (`reports?select=...&identifier=eq.<value>`); parsing the query string and building the statement
 * again for each costs the gateway more than the rest of the request. A shape is the query string with
 * the values of plain root comparisons (`col=eq.v`, `neq`, `gt`, `gte`, `lt`, `lte`) taken out, plus
 * everything else that decides the statement; those values are bind parameters whatever they are, so
 * a statement built once for the shape serves every request of it with the values put in their places.
 *
 * A template is built by running the ordinary parser and builder on the shape with a unique marker in
 * place of each value and finding each marker among the statement's parameters; a shape whose markers
 * are not each found exactly once as a whole parameter is never cached and takes the ordinary path.
 * A template is built the second time a shape is seen, so reads that never repeat (a select list made
 * up per request) cost no more than without templates. Templates belong to one schema cache, so a
 * schema reload starts afresh; the set is bounded.
 */
import type { SchemaCache } from './schema-cache.ts';

/** Operators whose value becomes one bind parameter as it is, whatever it holds. */
const PLAIN = /^(eq|neq|gt|gte|lt|lte)\./;
/** Query keys that are never filters. */
const KEYWORDS = new Set(['select', 'order', 'limit', 'offset', 'and', 'or', 'columns', 'on_conflict']);
const MAX_SHAPES = 1000;

export interface Shape {
  /** Everything that decides the statement, unambiguous (each part length-prefixed). */
  key: string;
  /** The values taken out, in order. */
  values: string[];
}

/** A statement for a shape: its parameters, with `slots[i]` the index of the i-th value taken out. */
export interface Template<T> {
  plan: T;
  values: unknown[];
  slots: number[];
}

/** The shape of a query string; `context` holds the other things the statement depends on (method, table, headers). */
export function shapeOf(search: URLSearchParams, context: string): Shape {
  let key = `${context.length}:${context}`;
  const values: string[] = [];
  for (const [k, v] of search) {
    if (!KEYWORDS.has(k) && !k.includes('.') && PLAIN.test(v)) {
      const dot = v.indexOf('.');
      values.push(v.slice(dot + 1));
      key += `|${k.length}:${k}?${v.slice(0, dot)}`;
    } else key += `|${k.length}:${k}=${v.length}:${v}`;
  }
  return { key, values };
}

const marker = (i: number) => `\u0000pgrst-value-${i}\u0000`;

/** The query string with a marker in place of each of the shape's values, to build the template from. */
export function markedSearch(search: URLSearchParams): URLSearchParams {
  const out = new URLSearchParams();
  let i = 0;
  for (const [k, v] of search) {
    if (!KEYWORDS.has(k) && !k.includes('.') && PLAIN.test(v))
      out.append(k, `${v.slice(0, v.indexOf('.'))}.${marker(i++)}`);
    else out.append(k, v);
  }
  return out;
}

/** What is known of a shape: seen once, its template, or `null` when it cannot be templated. */
type Known<T> = 'seen' | Template<T> | null;

export class ReadPlans<T> {
  private byCache = new WeakMap<SchemaCache, Map<string, Known<T>>>();

  private shapes(cache: SchemaCache): Map<string, Known<T>> {
    let m = this.byCache.get(cache);
    if (!m) this.byCache.set(cache, (m = new Map()));
    return m;
  }

  /**
   * The template for a shape; `undefined` when it is time to build one (the shape's second sighting),
   * `null` when the request should take the ordinary path (first sighting, or not templatable).
   */
  get(cache: SchemaCache, shape: Shape): Template<T> | null | undefined {
    const shapes = this.shapes(cache);
    const known = shapes.get(shape.key);
    if (known === 'seen') return undefined;
    if (known === undefined) {
      this.remember(shapes, shape.key, 'seen');
      return null;
    }
    return known;
  }

  private remember(shapes: Map<string, Known<T>>, key: string, known: Known<T>) {
    if (shapes.size >= MAX_SHAPES && !shapes.has(key)) shapes.clear();
    shapes.set(key, known);
  }

  /**
   * Keeps what was built from the marked query string: a template when each marker is exactly one whole
   * parameter and no other parameter holds a marker's delimiter, else a note that the shape is not cached.
   */
  learn(cache: SchemaCache, shape: Shape, plan: T, params: unknown[]): Template<T> | null {
    const slots: number[] = [];
    let ok = true;
    for (let i = 0; i < shape.values.length && ok; i++) {
      const at = params.indexOf(marker(i));
      ok = at >= 0 && params.indexOf(marker(i), at + 1) < 0;
      slots.push(at);
    }
    if (ok) {
      const used = new Set(slots);
      ok = params.every(
        (p, j) =>
          used.has(j) ||
          !(typeof p === 'string'
            ? p.includes('\u0000')
            : Array.isArray(p) && p.some((e) => String(e).includes('\u0000'))),
      );
    }
    const template = ok ? { plan, values: params, slots } : null;
    this.remember(this.shapes(cache), shape.key, template);
    return template;
  }

  /** The parameters of one request: the template's, with this request's values in their slots. */
  static values<T>(template: Template<T>, shape: Shape): unknown[] {
    const values = template.values.slice();
    for (let i = 0; i < template.slots.length; i++) values[template.slots[i]] = shape.values[i];
    return values;
  }
}

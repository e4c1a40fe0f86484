/**
 * Which function an `/rpc/name` call runs, as PostgREST 12 chooses (`Plan.hs:findProc`): the overloads
 * whose parameters the argument keys name (every required one, and optional ones), else a function
 * with one unnamed parameter taking the whole body (json/jsonb for a JSON body, text, xml or bytea for
 * text/plain, text/xml and application/octet-stream). Several candidates answer 300 PGRST203, none
 * 404 PGRST202 with a close name as the hint. Functions PostgREST cannot call (more than one unnamed
 * parameter, or one of another type) are left out as its schema cache leaves them out.
 */
import { RestError } from './errors.ts';
import { fuzzyGetOne } from './fuzzy.ts';
import type { FunctionParam, RoutineInfo, SchemaCache } from './schema-cache.ts';

/** The request body's media type, as far as calling a function goes. */
export type CallMedia = 'json' | 'text' | 'xml' | 'bytea' | 'other';

export function callMedia(contentType: string | undefined): CallMedia {
  const t = (contentType ?? 'application/json').split(';')[0].trim().toLowerCase();
  if (t === 'application/json' || t === '') return 'json';
  if (t === 'text/plain') return 'text';
  if (t === 'text/xml') return 'xml';
  if (t === 'application/octet-stream') return 'bytea';
  return 'other';
}

const SINGLE_TYPES: Record<CallMedia, string[]> = {
  json: ['json', 'jsonb'],
  text: ['text'],
  xml: ['xml'],
  bytea: ['bytea'],
  other: [],
};

const UNNAMED_TYPES = ['bytea', 'json', 'jsonb', 'text', 'xml'];

/** PostgREST lists only functions it can call: at most one unnamed parameter, of a body type. */
function callable(r: RoutineInfo): boolean {
  const unnamed = r.params.filter((p) => !p.name);
  return unnamed.length === 0 || (unnamed.length === 1 && UNNAMED_TYPES.includes(unnamed[0].type));
}

function cmp(a: string | boolean, b: string | boolean): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const cmpParam = (a: FunctionParam, b: FunctionParam) =>
  cmp(a.name, b.name) || cmp(a.type, b.type) || cmp(!a.hasDefault, !b.hasDefault);

/** PostgREST's order of overloads: fewer parameters first, then by the parameters themselves. */
function compareRoutines(a: RoutineInfo, b: RoutineInfo): number {
  if (a.params.length !== b.params.length) return a.params.length - b.params.length;
  for (let i = 0; i < a.params.length; i++) {
    const c = cmpParam(a.params[i], b.params[i]);
    if (c) return c;
  }
  return 0;
}

export interface CallOptions {
  isPost: boolean;
  media: CallMedia;
  /** `Prefer: params=single-object`: the body goes whole to a single json/jsonb parameter. */
  singleObject: boolean;
}

/** `routine` and whether it takes the whole body as its one positional argument. */
export interface ChosenRoutine {
  routine: RoutineInfo;
  positional: boolean;
}

function matchesParams(r: RoutineInfo, keys: Set<string>, o: CallOptions): boolean {
  const params = r.params;
  if (o.singleObject) return params.length === 1 && (params[0].type === 'json' || params[0].type === 'jsonb');
  if (params.length === 0)
    return keys.size === 0 && !(o.isPost && ['bytea', 'text', 'xml'].includes(o.media));
  const required = params.filter((p) => !p.hasDefault).map((p) => p.name);
  const optional = new Set(params.filter((p) => p.hasDefault).map((p) => p.name));
  const rest = [...keys].filter((k) => !optional.has(k));
  return rest.length === required.length && required.every((n) => rest.includes(n));
}

function hasSingleUnnamedParam(r: RoutineInfo, o: CallOptions): boolean {
  return r.params.length === 1 && o.isPost && SINGLE_TYPES[o.media].includes(r.params[0].type);
}

export function findRoutine(
  cache: SchemaCache,
  schema: string,
  name: string,
  argKeys: string[],
  o: CallOptions,
): ChosenRoutine {
  const keys = new Set(argKeys);
  const procs = cache.routines(schema, name).filter(callable).sort(compareRoutines);
  const matched = procs.filter((r) => matchesParams(r, keys, o));
  const fallback = procs.filter((r) => !matched.includes(r) && hasSingleUnnamedParam(r, o));
  const chosen = matched.length ? matched : fallback;
  if (chosen.length === 1) {
    const r = chosen[0];
    return { routine: r, positional: r.params.length === 1 && (o.singleObject || r.params[0].name === '') };
  }
  if (chosen.length > 1) {
    const list = chosen.map(
      (r) => `${schema}.${name}(${r.params.map((prm) => `${prm.name} => ${prm.type}`).join(', ')})`,
    );
    throw new RestError(
      300,
      'PGRST203',
      `Could not choose the best candidate function between: ${list.join(', ')}`,
      null,
      'Try renaming the parameters or the function itself in the database so function overloading can be resolved',
    );
  }
  throw noFunction(cache, schema, name, argKeys, procs, o);
}

/** PGRST202 with PostgREST's texts for each kind of call. */
function noFunction(
  cache: SchemaCache,
  schema: string,
  name: string,
  keys: string[],
  overloads: RoutineInfo[],
  o: CallOptions,
): RestError {
  const func = `${schema}.${name}`;
  const list = keys.join(', ');
  const onlySingle = o.singleObject || (o.isPost && ['text', 'xml', 'bytea'].includes(o.media));
  const withParams = keys.length ? `(${list})` : ' without parameters';
  const detailParams = keys.length
    ? ` with parameter${keys.length > 1 ? 's' : ''} ${list}`
    : ' without parameters';
  const searched = o.singleObject
    ? ' with a single json/jsonb parameter'
    : o.isPost && o.media === 'text'
      ? ' with a single unnamed text parameter'
      : o.isPost && o.media === 'xml'
        ? ' with a single unnamed xml parameter'
        : o.isPost && o.media === 'bytea'
          ? ' with a single unnamed bytea parameter'
          : o.isPost && o.media === 'json'
            ? `${detailParams} or with a single unnamed json/jsonb parameter`
            : detailParams;
  let hint: string | null = null;
  if (!onlySingle) {
    const sorted = (names: string[]) => `(${[...names].sort().join(', ')})`;
    const close = overloads.length
      ? fuzzyGetOne(
          overloads.map((r) => sorted(r.params.map((p) => p.name))),
          sorted(keys),
        )
      : fuzzyGetOne(
          [...cache.functions.values()]
            .flat()
            .filter((r) => r.schema === schema && callable(r))
            .map((r) => r.name),
          name,
        );
    if (close)
      hint = `Perhaps you meant to call the function ${schema}.${overloads.length ? name : ''}${close}`;
  }
  return new RestError(
    404,
    'PGRST202',
    `Could not find the function ${func}${onlySingle ? '' : withParams} in the schema cache`,
    `Searched for the function ${func}${searched}, but no matches were found in the schema cache.`,
    hint,
  );
}

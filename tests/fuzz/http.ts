/**
 * Fuzzing every /api/v1 call and every edge function with hostile requests (issue 12): fast-check builds
 * broken JSON (cut off, not an object, every known field of the wrong type, nested past the limit),
 * broken multipart (no closing boundary, a boundary the body lacks, parts without names, random bytes as
 * evidence), foreign content types, garbage and forged bearer tokens, and random headers and client
 * addresses. Each request must be answered within 15 s with a 4xx and a readable message (`msg`, or
 * `message`/`error` where the gateway answers), never a 5xx; the health check, which takes no input,
 * must answer and never 5xx. Afterwards no table may have gained or lost a row.
 */
import fc from 'fast-check';
import type pg from 'pg';
import { API_CALLS } from '../../supabase/tests/functions/api-calls.ts';
import { createUser, forgedToken } from '../../supabase/tests/functions/helpers.ts';
import { clientAddress } from '../own-stack.ts';

/** Every field name a route reads; a body gives each one a value of the wrong type. */
const FIELDS = [
  'name',
  'email',
  'password',
  'searchString',
  'assetName',
  'message',
  'newsTitle',
  'newsBody',
  'incidentType',
  'incidentDate',
  'incidentDescription',
  'reportedAccount',
  'reportedAccountType',
  'reportId',
  'response',
  'reason',
  'contact',
  'path',
  'paths',
  'bucket',
  'currentPassword',
  'newPassword',
  'token',
  'code',
];
/** Calls that start or end a session (logout, which takes no input, is left out). */
const SESSION = /^\/(auth|verify)\//;

interface Target {
  name: string;
  url: string;
  method: string;
  /** Takes a body (else only headers and the path are fuzzed). */
  body: boolean;
  /** Refuses any token but a valid one with 401 (so a garbage token must give 401). */
  tokenChecked: boolean;
  /**
   * The visitor beacon counts a page view for any well-formed body, dropping fields it cannot use (a
   * path it cannot keep is left out, the view still counts), so only unreadable bodies must fail there.
   */
  anyWellFormedForm?: boolean;
}

function targets(apiUrl: string): Target[] {
  const fn = `${apiUrl}/functions/v1`;
  const out: Target[] = API_CALLS.filter(([, p]) => p !== '/auth/logout').map(([method, path]) => ({
    name: `${method} /api/v1${path}`,
    url: `${fn}/api/v1${path}`,
    method,
    body: method !== 'GET',
    tokenChecked: !SESSION.test(path),
  }));
  for (const name of ['search', 'visitor', 'upload-image'])
    out.push({
      name: `POST ${name}`,
      url: `${fn}/${name}`,
      method: 'POST',
      body: true,
      tokenChecked: true,
      anyWellFormedForm: name === 'visitor',
    });
  for (const name of ['notify-dispatch', 'removal-expiry', 'open-data', 'upload-cleanup'])
    out.push({ name: `POST ${name}`, url: `${fn}/${name}`, method: 'POST', body: true, tokenChecked: true });
  return out;
}

const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
);

const notAList = fc.oneof(
  fc.integer(),
  fc.boolean(),
  fc.string(),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.integer()),
);

const WELL_FORMED_FORM = 'multipart: nameless part and random bytes as evidence';

type Body = { text: string | Uint8Array; type: string | null; what: string };

const brokenJson: fc.Arbitrary<Body> = fc.oneof(
  // cut off somewhere inside a valid object
  fc
    .tuple(fc.dictionary(fc.constantFrom(...FIELDS), fc.jsonValue({ maxDepth: 3 }), { minKeys: 1 }), fc.nat())
    .map(([o, n]) => {
      const full = JSON.stringify(o);
      return full.slice(0, 1 + (n % (full.length - 1)));
    })
    .filter((t) => {
      try {
        JSON.parse(t);
        return false;
      } catch {
        return true;
      }
    })
    .map((text) => ({ text, type: 'application/json', what: 'cut-off JSON' })),
  // valid JSON that is not an object
  fc
    .oneof(fc.array(fc.jsonValue({ maxDepth: 2 })), fc.string(), fc.double(), fc.boolean(), fc.constant(null))
    .map((v) => ({
      text: JSON.stringify(v) ?? 'null',
      type: 'application/json',
      what: 'JSON, not an object',
    })),
  // every field present with a wrong type
  fc
    .record(
      // `paths` is a list (the visitor's batch; an empty one only asks for the caller's location)
      Object.fromEntries(FIELDS.map((f) => [f, f === 'paths' ? notAList : wrongValue])) as Record<
        string,
        fc.Arbitrary<unknown>
      >,
    )
    .map((o) => ({ text: JSON.stringify(o), type: 'application/json', what: 'wrong types' })),
  // nested past the 32 levels the functions read
  fc.integer({ min: 33, max: 3000 }).map((n) => ({
    text: `{"name":${'['.repeat(n)}${']'.repeat(n)}}`,
    type: 'application/json',
    what: 'deep JSON',
  })),
  // lone surrogates and NUL in strings, escaped so the server's parser meets them
  fc.constantFrom('\\u0000', '\\ud800', 'a\\udfffb').map((bad) => ({
    text: `{${FIELDS.map((f) => `"${f}":"${bad}"`).join(',')}}`,
    type: 'application/json',
    what: 'NUL or lone surrogate',
  })),
);

const boundary = fc.stringMatching(/^[A-Za-z0-9'()+_,-]{1,40}$/);
const brokenMultipart: fc.Arbitrary<Body> = fc.oneof(
  fc.tuple(boundary, fc.string({ maxLength: 200 })).map(([b, junk]) => ({
    text: `--${b}\r\n${junk}`,
    type: `multipart/form-data; boundary=${b}`,
    what: 'multipart without its end',
  })),
  fc.tuple(boundary, boundary, fc.uint8Array({ maxLength: 300 })).map(([b, other, bytes]) => ({
    text: new Uint8Array([
      ...new TextEncoder().encode(
        `--${other}x\r\nContent-Disposition: form-data; name="evidence"; filename="e.jpg"\r\n\r\n`,
      ),
      ...bytes,
      ...new TextEncoder().encode(`\r\n--${other}x--\r\n`),
    ]),
    type: `multipart/form-data; boundary=${b}`,
    what: 'multipart with another boundary',
  })),
  fc.tuple(boundary, fc.uint8Array({ maxLength: 300 })).map(([b, bytes]) => ({
    text: new Uint8Array([
      ...new TextEncoder().encode(
        `--${b}\r\nContent-Disposition: form-data\r\n\r\nno name\r\n--${b}\r\nContent-Disposition: form-data; name="evidence"; filename="x.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
      ),
      0xff,
      0xd8,
      ...bytes,
      ...new TextEncoder().encode(`\r\n--${b}--\r\n`),
    ]),
    type: `multipart/form-data; boundary=${b}`,
    what: WELL_FORMED_FORM,
  })),
  fc
    .string({ minLength: 1, maxLength: 100 }) // an empty body is no body: "nothing sent"
    .map((junk) => ({ text: junk, type: 'multipart/form-data', what: 'multipart, no boundary' })),
);

const foreignBody: fc.Arbitrary<Body> = fc
  .tuple(
    fc.uint8Array({ minLength: 1, maxLength: 400 }), // an empty body is no body: "nothing sent"
    fc.constantFrom(
      'application/octet-stream',
      'text/plain',
      'application/xml',
      'image/png',
      'application/json; charset=utf-16',
      null,
    ),
  )
  .map(([bytes, type]) => ({ text: bytes, type, what: `bytes as ${type ?? 'no type'}` }));

const headerName = fc.stringMatching(/^x-[a-z0-9-]{1,20}$/);
const headerValue = fc.stringMatching(/^[\x20-\x7e]{0,60}$/).map((v) => v.trim());

export interface HttpFuzzResult {
  requests: number;
  byStatus: Record<string, number>;
  seconds: number;
  changedTables: string[];
}

async function tableCounts(pool: pg.Pool): Promise<Map<string, number>> {
  const { rows: tables } = await pool.query<{ t: string }>(
    `select format('%I.%I', schemaname, relname) as t from pg_stat_user_tables
      where schemaname in ('public', 'storage', 'auth', 'private')
        and relname not in ('rate_limit_buckets')  -- the limiter's counters (a refused request still counts)
      order by 1`,
  );
  const counts = new Map<string, number>();
  for (const { t } of tables)
    counts.set(t, Number((await pool.query(`select count(*) as n from ${t}`)).rows[0].n));
  return counts;
}

/**
 * Sends `runs` fuzzed requests per target. Throws fast-check's report for the first answer that breaks the
 * rule, and an error naming every table whose row count changed.
 */
export async function fuzzHttp(opts: {
  apiUrl: string;
  pool: pg.Pool;
  runs: number;
  seed?: number;
  log?: (line: string) => void;
}): Promise<HttpFuzzResult> {
  const began = Date.now();
  const user = await createUser('fuzz');
  const tokens = [user.token, forgedToken(user), 'not-a-jwt', 'e30.e30.', `${user.token}x`];
  const before = await tableCounts(opts.pool);
  const byStatus: Record<string, number> = {};
  let requests = 0;
  let client = 0;

  const request = fc.record({
    body: fc.oneof(
      { weight: 3, arbitrary: brokenJson },
      { weight: 2, arbitrary: brokenMultipart },
      { weight: 1, arbitrary: foreignBody },
    ),
    // half the broken bodies come with the user's valid token, so they reach the routes' own checks
    token: fc.oneof(fc.constant(0), fc.nat({ max: tokens.length - 1 }), fc.constant(null)),
    authScheme: fc.oneof(fc.constant('Bearer '), fc.constantFrom('bearer ', 'Basic ', '')),
    forwardedFor: fc.oneof(fc.constant(null), fc.ipV4(), fc.ipV6(), headerValue),
    extra: fc.dictionary(headerName, headerValue, { maxKeys: 3 }),
    language: fc.option(headerValue, { nil: null }),
  });

  for (const target of targets(opts.apiUrl)) {
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        if (target.anyWellFormedForm && r.body.what === WELL_FORMED_FORM) return;
        const headers: Record<string, string> = { ...r.extra };
        // The valid token is sent only with a broken body; without a body, a garbage token is the fuzz.
        const tokenIndex = target.body ? r.token : (r.token ?? 1) || 1;
        const isValidToken = tokenIndex === 0 && r.authScheme.toLowerCase() === 'bearer ';
        if (tokenIndex !== null) headers.authorization = `${r.authScheme}${tokens[tokenIndex]}`;
        headers['x-forwarded-for'] = r.forwardedFor ?? clientAddress(++client);
        if (r.language) headers['accept-language'] = r.language;
        let body: BodyInit | undefined;
        if (target.body) {
          body =
            typeof r.body.text === 'string'
              ? r.body.text
              : new Blob([r.body.text as Uint8Array<ArrayBuffer>]);
          if (r.body.type) headers['content-type'] = r.body.type;
        }
        requests++;
        let status: number;
        let text: string;
        try {
          const res = await fetch(target.url, {
            method: target.method,
            headers,
            body,
            signal: AbortSignal.timeout(15_000),
          });
          status = res.status;
          text = await res.text();
        } catch (e) {
          throw new Error(`${target.name}: no answer within 15 s (${(e as Error).message})`);
        }
        byStatus[status] = (byStatus[status] ?? 0) + 1;
        const what = `${target.name} (${target.body ? r.body.what : 'no body'}, token ${tokenIndex ?? 'none'}): ${status} ${text.slice(0, 200)}`;
        if (status < 400 || status > 499) throw new Error(what);
        let message: unknown;
        try {
          const parsed = JSON.parse(text) as Record<string, unknown>;
          message = parsed.msg ?? parsed.message ?? parsed.error;
        } catch {
          throw new Error(`not JSON: ${what}`);
        }
        if (typeof message !== 'string' || message.trim() === '') throw new Error(`no message: ${what}`);
        if (!target.body && target.tokenChecked && !isValidToken && status !== 401 && status !== 429)
          throw new Error(`a garbage token did not get 401: ${what}`);
      }),
      { numRuns: opts.runs, seed: opts.seed, endOnFailure: true },
    );
    opts.log?.(`${target.name}: ${opts.runs} requests, all 4xx with a message`);
  }

  // The health check takes no input: whatever it is sent, it answers without a 5xx.
  for (let i = 0; i < Math.min(opts.runs, 20); i++) {
    const res = await fetch(`${opts.apiUrl}/functions/v1/health`, {
      method: i % 2 ? 'POST' : 'GET',
      headers: {
        authorization: `Bearer ${tokens[i % tokens.length]}`,
        'x-forwarded-for': clientAddress(++client),
      },
      body: i % 2 ? '{"a": ' : undefined,
      signal: AbortSignal.timeout(15_000),
    });
    await res.text();
    requests++;
    byStatus[res.status] = (byStatus[res.status] ?? 0) + 1;
    if (res.status >= 500) throw new Error(`health answered ${res.status}`);
  }

  const after = await tableCounts(opts.pool);
  const changedTables = [...after]
    .filter(([t, n]) => before.get(t) !== n)
    .map(([t, n]) => `${t}: ${before.get(t) ?? 'absent'} -> ${n}`);
  for (const t of before.keys()) if (!after.has(t)) changedTables.push(`${t}: gone`);
  if (changedTables.length)
    throw new Error(`rows were written by refused requests: ${changedTables.join('; ')}`);
  return { requests, byStatus, seconds: (Date.now() - began) / 1000, changedTables };
}

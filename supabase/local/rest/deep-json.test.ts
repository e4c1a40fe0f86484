/**
 * Issue 28, "No 5xx on bad input": a body of 10,000 nested arrays into the local REST (an RPC, a table
 * write) reached PostgreSQL, whose stack-depth error (54001) is a 500. It is refused first with 400.
 * Holds on: local-only (hosted PostgREST hands the body to PostgreSQL; docs/security.md "Bad input").
 */
import { describe, expect, it } from 'vitest';
import { MAX_BODY_JSON_DEPTH, jsonTooDeep } from '../http.ts';
import { RestError } from './errors.ts';
import { parseJson } from './http.ts';

const nested = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;

describe('holds on: local-only — deep JSON into the local REST', () => {
  it('answers 400 PGRST102 naming the limit, for arrays and objects', () => {
    for (const body of [
      nested(10_000),
      `{"p_text":${nested(10_000)}}`,
      '{"a":'.repeat(600) + '1' + '}'.repeat(600),
    ]) {
      let error: unknown;
      try {
        parseJson(Buffer.from(body));
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(RestError);
      expect(error).toMatchObject({
        status: 400,
        code: 'PGRST102',
        message: `Invalid json: nested deeper than ${MAX_BODY_JSON_DEPTH} levels`,
      });
    }
  });

  it('counts only brackets outside strings, escapes included, and keeps bodies within the limit', () => {
    expect(jsonTooDeep(`{"a":"${'['.repeat(5000)}"}`)).toBe(false);
    expect(jsonTooDeep(`{"a":"\\"${'['.repeat(5000)}"}`)).toBe(false);
    expect(jsonTooDeep(nested(MAX_BODY_JSON_DEPTH))).toBe(false);
    expect(jsonTooDeep(nested(MAX_BODY_JSON_DEPTH + 1))).toBe(true);
    expect(parseJson(Buffer.from(`{"p":${nested(100)}}`))).toHaveProperty('p');
  });
});

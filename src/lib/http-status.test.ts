/**
 * The status behind an error, for each PostgREST code group and PostgreSQL class the retry rule depends
 * on (docs.postgrest.org, "Errors"; react-query.test.ts checks the retry rule itself). The expected
 * statuses are PostgREST's, except that every server-side class reads as 500 (PostgREST says 503 for
 * some): what matters here is 4xx (a retry cannot help) against 5xx or no answer.
 */
import { describe, expect, it } from 'vitest';
import { httpStatusOf, isClientError } from './http-status';

const withCode = (code: string) => ({ name: 'PostgrestError', message: 'refused', code });

describe('httpStatusOf', () => {
  it('has no status for what is not an error object', () => {
    expect(httpStatusOf(null)).toBeUndefined();
    expect(httpStatusOf(undefined)).toBeUndefined();
    expect(httpStatusOf('42501')).toBeUndefined();
    expect(httpStatusOf(404)).toBeUndefined();
    expect(httpStatusOf({})).toBeUndefined();
  });

  it('takes a real HTTP status from the error, and reads the code when there is none', () => {
    expect(httpStatusOf({ status: 100 })).toBe(100);
    expect(httpStatusOf({ status: 503, code: '42501' })).toBe(503);
    // supabase-js puts status 0 (or none) on errors that had no answer: the code decides then.
    expect(httpStatusOf({ status: 0, code: '42501' })).toBe(403);
    expect(httpStatusOf({ status: 99, code: '42501' })).toBe(403);
    expect(httpStatusOf({ status: '404', code: '42501' })).toBe(403);
    expect(httpStatusOf({ status: 0 })).toBeUndefined();
    expect(httpStatusOf({ code: '' })).toBeUndefined();
    // Not a PostgREST or PostgreSQL code (GoTrue's, here without its status).
    expect(httpStatusOf({ code: 'weak_password' })).toBeUndefined();
    expect(httpStatusOf({ code: '4250' })).toBeUndefined();
    expect(httpStatusOf({ code: '425011' })).toBeUndefined();
    expect(httpStatusOf({ code: '42p01' })).toBeUndefined();
  });

  it('maps PostgREST codes by group', () => {
    expect(httpStatusOf(withCode('PGRST000'))).toBe(503);
    expect(httpStatusOf(withCode('PGRST003'))).toBe(503);
    expect(httpStatusOf(withCode('PGRST100'))).toBe(400);
    expect(httpStatusOf(withCode('PGRST205'))).toBe(400);
    expect(httpStatusOf(withCode('PGRST300'))).toBe(500);
    expect(httpStatusOf(withCode('PGRST302'))).toBe(401);
    expect(httpStatusOf(withCode('PGRSTX00'))).toBe(500);
  });

  it('maps the PostgreSQL codes PostgREST gives their own status', () => {
    expect(httpStatusOf(withCode('P0001'))).toBe(400);
    expect(httpStatusOf(withCode('42501'))).toBe(403);
    expect(httpStatusOf(withCode('42P01'))).toBe(404);
    expect(httpStatusOf(withCode('42883'))).toBe(404);
    expect(httpStatusOf(withCode('23503'))).toBe(409);
    expect(httpStatusOf(withCode('23505'))).toBe(409);
    expect(httpStatusOf(withCode('25006'))).toBe(405);
  });

  it('reads the server-side classes as 500 and every other class as 400', () => {
    for (const code of [
      '08006',
      '09000',
      '25001',
      '2D000',
      '38001',
      '39001',
      '3B001',
      '40001',
      '53100',
      '54001',
      '55P03',
      '57014',
      '58030',
      'F0000',
      'HV000',
      'P0002',
      'XX000',
    ])
      expect(httpStatusOf(withCode(code)), code).toBe(500);
    for (const code of ['22023', '22P02', '23514', '42703', '0A000', '28000'])
      expect(httpStatusOf(withCode(code)), code).toBe(400);
  });
});

describe('isClientError', () => {
  it('is true for 400 to 499 only', () => {
    expect(isClientError({ status: 399 })).toBe(false);
    expect(isClientError({ status: 400 })).toBe(true);
    expect(isClientError({ status: 499 })).toBe(true);
    expect(isClientError({ status: 500 })).toBe(false);
    expect(isClientError(new TypeError('Failed to fetch'))).toBe(false);
    expect(isClientError(withCode('42501'))).toBe(true);
  });
});

/**
 * The fuzzy matching behind PGRST200/PGRST202 hints, checked against the examples PostgREST 12 gives
 * in its own documentation of those hints (`Error.hs`'s doctests for noRpcHint and noRelBetweenHint).
 */
import { describe, expect, it } from 'vitest';
import { fuzzyGet, fuzzyGetOne } from './fuzzy.ts';

describe('fuzzy matching as PostgREST’s hints use it', () => {
  it('suggests a close function name, or none', () => {
    expect(fuzzyGetOne(['test', 'another'], 'testt')).toBe('test');
    expect(fuzzyGetOne(['test', 'another'], 'other')).toBe('another');
    expect(fuzzyGetOne(['test', 'another'], 'noclosealternative')).toBeNull();
  });

  it('suggests the closest parameter list of an overloaded function', () => {
    const lists = ['(name, param, val)', '(attr, id)'];
    expect(fuzzyGetOne(lists, '(nam, pqaram, vall)')).toBe('(name, param, val)');
    expect(fuzzyGetOne(lists, '(param, val)')).toBe('(name, param, val)');
    expect(fuzzyGetOne(lists, '(attrs, id)')).toBe('(attr, id)');
    expect(fuzzyGetOne(lists, '(id)')).toBe('(attr, id)');
    expect(fuzzyGetOne(lists, '(noclosealternative)')).toBeNull();
  });

  it('scores an exact (case-blind) match 1, and table names by their n-grams', () => {
    expect(fuzzyGet(['Films', 'roles'], 'films')).toEqual([[1, 'Films']]);
    expect(fuzzyGetOne(['films'], 'film')).toBe('films');
    expect(fuzzyGet(['directors', 'roles', 'actors'], 'role')[0][1]).toBe('roles');
    expect(fuzzyGet(['directors', 'roles', 'actors'], 'noclosealternative')).toEqual([]);
  });
});

/**
 * The helpers every search and report runs (issue 12, Postgres CPU per request): they are PL/pgSQL, whose
 * statement plans a pooled connection keeps, and they answer as the SQL versions did. A SQL function with a
 * pinned search_path is never inlined, and PostgreSQL 17 plans its body again in every transaction.
 */
import { describe, expect, it } from 'vitest';
import { withRole } from '../helpers.ts';
import { adminPool } from '../helpers.ts';

/** Run on every search, search log row, report insert or Data API write. */
const HOT = [
  'private.request_role()',
  'private.is_non_public_address(inet)',
  'private.client_address()',
  'private.address_key(inet)',
  'private.client_address_key()',
  'private.bump_site_counter(text,bigint)',
  'private.identifier_weight(text)',
  'private.ph_region(text,text)',
];

/** The address private.client_address() finds in this raw request.headers value (not necessarily JSON). */
async function addressIn(rawHeaders: string): Promise<string | null> {
  return withRole(adminPool(), { role: 'anon' }, async (c) => {
    await c.query(`select set_config('request.headers', $1, true)`, [rawHeaders]);
    return (await c.query<{ a: string | null }>('select host(private.client_address()) as a')).rows[0].a;
  });
}

describe('the per-request helpers', () => {
  it('are PL/pgSQL, so their plans outlive the transaction, with their search_path still pinned', async () => {
    const { rows } = await adminPool().query<{ f: string; lang: string; pinned: boolean }>(
      `select p.oid::regprocedure::text as f, l.lanname as lang,
              exists (select 1 from unnest(p.proconfig) c where c = 'search_path=""') as pinned
         from pg_proc p join pg_language l on l.oid = p.prolang
        where p.oid = any ($1::regprocedure[])
        order by 1`,
      [HOT],
    );
    expect(rows).toEqual([...HOT].sort().map((f) => ({ f, lang: 'plpgsql', pinned: true })));
  });

  it('client_address: headers that are not a JSON object, and entries that are not addresses, are skipped without an error', async () => {
    expect(await addressIn('not json')).toBeNull();
    expect(await addressIn('')).toBeNull();
    expect(await addressIn('["203.0.113.7"]')).toBeNull();
    expect(await addressIn('"203.0.113.7"')).toBeNull();
    expect(await addressIn('{"x-forwarded-for": 5}')).toBeNull();
    expect(await addressIn('{"x-forwarded-for": "203.0.113.7, garbage, [zz]:1"}')).toBe('203.0.113.7');
    expect(await addressIn('{"x-forwarded-for": "203.0.113.7, 198.51.100.4:8080"}')).toBe('198.51.100.4');
    expect(await addressIn('{"x-forwarded-for": "203.0.113.7, 10.0.0.1, fe80::1"}')).toBe('203.0.113.7');
  });

  it('client_address_key: computed once per transaction for the same headers, again when they change', async () => {
    const keyFor = (headers: string) =>
      withRole(adminPool(), { role: 'anon' }, async (c) => {
        await c.query(`select set_config('request.headers', $1, true)`, [headers]);
        return (await c.query<{ k: string | null }>('select private.client_address_key() as k')).rows[0].k;
      });
    const a = '{"x-forwarded-for": "203.0.113.7"}';
    const b = '{"x-forwarded-for": "203.0.113.8"}';
    const [ka, kb] = [await keyFor(a), await keyFor(b)];
    expect(ka).toMatch(/^ip:[0-9a-f]{32}$/);
    expect(kb).not.toBe(ka);
    const inOne = await withRole(adminPool(), { role: 'anon' }, async (c) => {
      const keys: (string | null)[] = [];
      for (const h of [a, a, b, '', 'not json', a]) {
        await c.query(`select set_config('request.headers', $1, true)`, [h]);
        keys.push(
          (await c.query<{ k: string | null }>('select private.client_address_key() as k')).rows[0].k,
        );
      }
      return keys;
    });
    expect(inOne).toEqual([ka, ka, kb, null, null, ka]);
    // The cache is transaction-local: a later transaction without headers has no key.
    expect(await keyFor('')).toBeNull();
  });

  it('ph_region: the nearest region for a location in the Philippines, null for anything else', async () => {
    const { rows } = await adminPool().query(
      `select private.ph_region('14.5995,120.9842', 'PH') as manila, private.ph_region('7.0731,125.6128', 'PH') as davao,
              private.ph_region('14.5995,120.9842', 'US') as abroad, private.ph_region('14.5995,120.9842', null) as no_country,
              private.ph_region(null, 'PH') as no_loc, private.ph_region('40.7,-74.0', 'PH') as outside,
              private.ph_region('14.6, 121.0', 'PH') as malformed`,
    );
    expect(rows[0]).toEqual({
      manila: 'NCR',
      davao: 'XI',
      abroad: null,
      no_country: null,
      no_loc: null,
      outside: null,
      malformed: null,
    });
  });
});

/**
 * Search and filters on the admins' search-history and visitors lists (issue 31 item 4), as anon, a
 * signed-in user and an admin: public.admin_search_log and public.admin_visitor_log. The rows are
 * written straight into the logs in a year of their own (1999), so the period filter isolates them from
 * whatever else the shared stack logged.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { DENIED, anon, createUser, run, serviceRole, type Actor } from './actors.ts';
import { adminPool, unique } from '../helpers.ts';

let user: Actor;
let admin: Actor;
const token = unique('q')
  .replace(/[^a-z0-9]/gi, '')
  .toLowerCase();
const year = `since => '1999-01-01T00:00:00Z', until => '2000-01-01T00:00:00Z'`;
const day = (d: number) => `1999-03-${String(d).padStart(2, '0')}T12:00:00Z`;

beforeAll(async () => {
  [user, admin] = await Promise.all([createUser('Log user'), createUser('Log admin', { admin: true })]);
  await adminPool().query(
    `insert into public.search_log (search_string, identifier_kind, identifier_canonical, result_count, user_id,
                                    city, region, country, created_at)
     values ('0917 555 0199', 'mobile', '+639175550199', 3, $2, 'Cebu City', 'Central Visayas', 'PH', $3),
            ($1 || '@example.com', 'email', $1 || '@example.com', 0, null, 'Quezon City', 'Metro Manila', 'PH', $4),
            ('shop-' || $1 || '.test', 'website', 'shop-' || $1 || '.test', 0, null, 'Singapore', null, 'SG', $5),
            ('100%_' || $1, null, null, 0, null, null, null, null, $6)`,
    [token, user.id, day(1), day(2), day(3), day(4)],
  );
  await adminPool().query(
    `insert into public.visitor_log (path, city, region, country, user_id, created_at)
     values ('/search?q=' || $1, 'Cebu City', 'Central Visayas', 'PH', $2, $3),
            ('/statistics', 'Iloilo City', 'Western Visayas', 'PH', null, $4),
            ('/about/' || $1, 'Singapore', null, 'SG', null, $5)`,
    [token, user.id, day(1), day(2), day(3)],
  );
});

const searches = (actor: Actor, args: string) =>
  run(actor, `select * from public.admin_search_log(${args})`) as Promise<Record<string, unknown>[]>;
const visitors = (actor: Actor, args: string) =>
  run(actor, `select * from public.admin_visitor_log(${args})`) as Promise<Record<string, unknown>[]>;
const strings = (rows: Record<string, unknown>[]) => rows.map((r) => r.search_string);
const paths = (rows: Record<string, unknown>[]) => rows.map((r) => r.path);

describe('holds on: postgres — the search history', () => {
  it('admins search by part of the text or by the identifier typed any way, and filter', async () => {
    const all = await searches(admin, year);
    expect(strings(all)).toEqual([
      `100%_${token}`,
      `shop-${token}.test`,
      `${token}@example.com`,
      '0917 555 0199',
    ]);
    expect(all[3]).toMatchObject({
      identifier_kind: 'mobile',
      result_count: 3,
      city: 'Cebu City',
      signed_in: true,
    });
    expect(all[2]).toMatchObject({ signed_in: false });
    // Part of the text, case-insensitive; the same identifier typed another way.
    expect(strings(await searches(admin, `search => '${token.toUpperCase()}', ${year}`))).toHaveLength(3);
    expect(strings(await searches(admin, `search => '+63 917 555 0199', ${year}`))).toEqual([
      '0917 555 0199',
    ]);
    expect(strings(await searches(admin, `search => '555 01', ${year}`))).toEqual(['0917 555 0199']);
    // LIKE's wildcards are plain characters.
    expect(strings(await searches(admin, `search => '%_', ${year}`))).toEqual([`100%_${token}`]);
    expect(strings(await searches(admin, `kind => 'email', ${year}`))).toEqual([`${token}@example.com`]);
    expect(strings(await searches(admin, `country_code => 'sg', ${year}`))).toEqual([`shop-${token}.test`]);
    expect(strings(await searches(admin, `no_results => false, ${year}`))).toEqual(['0917 555 0199']);
    expect(await searches(admin, `no_results => true, ${year}`)).toHaveLength(3);
    expect(
      strings(await searches(admin, `since => '${day(2)}', until => '${day(3)}'`)).filter((s) =>
        String(s).includes(token),
      ),
    ).toEqual([`${token}@example.com`]);
    expect(await searches(admin, `search => 'nothing-like-this-${token}', ${year}`)).toEqual([]);
  });

  it('looks a number or an e-mail up by its rarer part and keeps only the rows holding the whole text', async () => {
    // 1998: rows of their own. A number's last characters and an e-mail's part before the @ are what
    // the index looks for; rows sharing only that part must not come back.
    const in1998 = `since => '1998-01-01T00:00:00Z', until => '1999-01-01T00:00:00Z'`;
    await adminPool().query(
      `insert into public.search_log (search_string, identifier_kind, identifier_canonical, result_count, created_at)
       values ('0918 555 0199', 'mobile', '+639185550199', 0, '1998-05-01T00:00:00Z'),
              ('call 0917 555 0199 now', null, null, 0, '1998-05-02T00:00:00Z'),
              ('other' || $1 || '@example.com', 'email', 'other' || $1 || '@example.com', 0, '1998-05-03T00:00:00Z'),
              ($1 || '@example.org', 'email', $1 || '@example.org', 0, '1998-05-04T00:00:00Z')`,
      [token],
    );
    expect(strings(await searches(admin, `search => '0917 555 0199', ${in1998}`))).toEqual([
      'call 0917 555 0199 now',
    ]);
    expect(strings(await searches(admin, `search => '${token}@example.com', ${in1998}`))).toEqual([
      `other${token}@example.com`,
    ]);
    expect(strings(await searches(admin, `search => '555 0199', ${in1998}`))).toEqual([
      'call 0917 555 0199 now',
      '0918 555 0199',
    ]);
  });

  it('finds a zero-padded number by its digits (index of 6-digit runs) and keeps only the rows holding the text', async () => {
    // 1997: rows of their own. Every 6-digit run of '09000000028' is in '09000000029' but one, and
    // '0900 000 0028 x' holds its digits but not the text: neither comes back.
    const in1997 = `since => '1997-01-01T00:00:00Z', until => '1998-01-01T00:00:00Z'`;
    await adminPool().query(
      `insert into public.search_log (search_string, identifier_kind, identifier_canonical, result_count, created_at)
       values ('09000000028', 'mobile', '+639000000028', 0, '1997-05-01T00:00:00Z'),
              ('09000000029', 'mobile', '+639000000029', 0, '1997-05-02T00:00:00Z'),
              ('0900 000 0028 x', null, null, 0, '1997-05-03T00:00:00Z'),
              ('+63 900 000 0028', 'mobile', '+639000000028', 0, '1997-05-04T00:00:00Z'),
              ('090000000280', null, null, 0, '1997-05-05T00:00:00Z')`,
    );
    expect(strings(await searches(admin, `search => '09000000028', ${in1997}`))).toEqual([
      '090000000280',
      '+63 900 000 0028',
      '09000000028',
    ]);
    expect(strings(await searches(admin, `search => '000 0028', ${in1997}`))).toEqual([
      '+63 900 000 0028',
      '0900 000 0028 x',
    ]);
    expect(strings(await searches(admin, `search => '0000000', ${in1997}`))).toEqual([
      '090000000280',
      '09000000029',
      '09000000028',
    ]);
  });

  it('pages by time (keyset): the next page starts right after the last row', async () => {
    const two = await searches(admin, `${year}, max_rows => 2`);
    const next = await searches(
      admin,
      `${year}, before_created_at => '${String(two[1].created_at)}', before_id => '${two[1].id}'`,
    );
    expect(strings(next)).toEqual([`${token}@example.com`, '0917 555 0199']);
  });

  it('refuses bad arguments with a clear error', async () => {
    await expect(searches(admin, `search => repeat('x', 257)`)).rejects.toThrow(/at most 256/);
    await expect(searches(admin, `since => '${day(3)}', until => '${day(2)}'`)).rejects.toThrow(
      /after since/,
    );
    await expect(searches(admin, `before_created_at => now()`)).rejects.toThrow(/go together/);
  });

  it('only admins read it: a signed-in user is refused, anon may not call it', async () => {
    await expect(searches(user, year)).rejects.toThrow(DENIED);
    await expect(searches(anon, year)).rejects.toThrow(/permission denied/);
    // The service role (edge functions) is not an admin either.
    await expect(searches(serviceRole, year)).rejects.toThrow(DENIED);
  });
});

describe('holds on: postgres — the visitors', () => {
  it('admins search by part of the path and filter by place, country and period', async () => {
    const all = await visitors(admin, year);
    expect(paths(all)).toEqual([`/about/${token}`, '/statistics', `/search?q=${token}`]);
    expect(all[2]).toMatchObject({ city: 'Cebu City', region: 'Central Visayas', signed_in: true });
    expect(paths(await visitors(admin, `search => '${token}', ${year}`))).toEqual([
      `/about/${token}`,
      `/search?q=${token}`,
    ]);
    expect(paths(await visitors(admin, `place => 'visayas', ${year}`))).toEqual([
      '/statistics',
      `/search?q=${token}`,
    ]);
    expect(paths(await visitors(admin, `place => 'ILOILO', ${year}`))).toEqual(['/statistics']);
    expect(paths(await visitors(admin, `country_code => 'SG', ${year}`))).toEqual([`/about/${token}`]);
    expect(paths(await visitors(admin, `search => '%', ${year}`))).toEqual([]);
    const one = await visitors(admin, `${year}, max_rows => 1`);
    expect(
      paths(
        await visitors(
          admin,
          `${year}, before_created_at => '${String(one[0].created_at)}', before_id => '${one[0].id}'`,
        ),
      ),
    ).toEqual(['/statistics', `/search?q=${token}`]);
  });

  it('only admins read it', async () => {
    await expect(visitors(user, year)).rejects.toThrow(DENIED);
    await expect(visitors(anon, year)).rejects.toThrow(/permission denied/);
    await expect(visitors(admin, `place => repeat('x', 201)`)).rejects.toThrow(/too long/);
  });
});

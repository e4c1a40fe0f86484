/**
 * The app's searches and page views (issue 19) and where their location comes from (issue 11): the
 * `search` function logs each search with the location the server resolves, the `visitor` function
 * records batches of page views, and neither REST nor a request body can put a location in the logs.
 */
import { describe, expect, it } from 'vitest';
import { adminPool, stackEnv, unique } from '../helpers.ts';
import { anonClient } from '../auth-helpers.ts';
import { api, createUser, reportFields } from './helpers.ts';

const PH_IP = '112.198.0.1';

async function callFunction(name: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${stackEnv('API_URL')}/functions/v1/${name}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${stackEnv('ANON_KEY')}`,
      'content-type': 'application/json',
      ...headers,
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe("the search function (the app's search)", () => {
  it('answers as search_reports does and logs the search with the server-side location, once', async () => {
    const reporter = await createUser('appsrch');
    const number = `0918${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
    // Located by the server from the reporter's address (issue 27), not from the country sent.
    await api('POST', '/reports', {
      token: reporter.token,
      json: reportFields({ reportedAccount: number, country: 'XX' }),
      headers: { 'x-forwarded-for': PH_IP },
    });

    // A location in the body is not read: the address decides.
    const res = await callFunction(
      'search',
      { searchString: number, city: 'Fakeville', country: 'XX', visitor: { city: 'Fakeville' } },
      { 'x-forwarded-for': PH_IP },
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      count: 1,
      summary: { count: 1, last_victim_country: 'PH', risk_label: 'low' },
    });
    const reports = res.body.reports as Record<string, unknown>[];
    expect(Object.keys(reports[0]).sort()).toEqual([
      'incident_date',
      'incident_type',
      'location',
      'reported_account_type',
      'reported_date',
      'status',
    ]);
    const { rows } = await adminPool().query(
      'select city, country, loc, ip_hash, user_id from public.search_log where search_string = $1',
      [number],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ country: 'PH', user_id: null });
    expect(rows[0].city).not.toBe('Fakeville');
    expect(rows[0].loc).toMatch(/^\d+\.\d+,\d+\.\d+$/);
    expect(rows[0].ip_hash).toMatch(/^[0-9a-f]{32}$/);
    expect(JSON.stringify(rows[0])).not.toContain(PH_IP);
  });

  it('a signed-in search through supabase-js is logged with the user; DNT searches carry no location', async () => {
    const user = await createUser('appsrch2');
    const q = `${unique('srch')}@example.com`;
    const signedIn = anonClient({
      authorization: `Bearer ${user.token}`,
      'x-forwarded-for': PH_IP,
      dnt: '1',
    });
    const { data, error } = await signedIn.functions.invoke('search', { body: { searchString: q } });
    expect(error).toBeNull();
    expect(data).toMatchObject({ count: 0, reports: [], points: [] });
    const { rows } = await adminPool().query(
      'select country, ip_hash, user_id from public.search_log where search_string = $1',
      [q],
    );
    expect(rows).toEqual([{ country: null, ip_hash: null, user_id: user.id }]);
  });

  it('holds on: edge function — refuses an empty or over-long search with 400, a forged token with 401 and GET with 405', async () => {
    expect((await callFunction('search', {})).status).toBe(400);
    expect((await callFunction('search', { searchString: '  ' })).status).toBe(400);
    const long = await callFunction('search', { searchString: 'x'.repeat(257) });
    expect(long).toMatchObject({ status: 400, body: { msg: 'searchString must be at most 256 characters' } });
    expect(
      (
        await callFunction(
          'search',
          { searchString: 'x' },
          { authorization: `Bearer ${stackEnv('ANON_KEY').slice(0, -4)}AAAA` },
        )
      ).status,
    ).toBe(401);
    expect((await fetch(`${stackEnv('API_URL')}/functions/v1/search`)).status).toBe(405);
  });
});

describe('holds on: postgres — REST cannot write a location into the logs (issue 11)', () => {
  it("search_reports takes no visitor argument and the located search is the service role's only", async () => {
    const q = unique('rest-srch');
    const client = anonClient();
    const withVisitor = await client.rpc('search_reports', {
      search_string: q,
      visitor: { city: 'Fakeville', country: 'XX' },
    });
    expect(withVisitor.error?.code).toBe('PGRST202');
    const located = await client.rpc('search_reports_located', {
      search_string: q,
      searcher: null,
      visitor: { city: 'Fakeville' },
      client_address: null,
    });
    expect(located.error?.code).toBe('42501');
    const plain = await client.rpc('search_reports', { search_string: q });
    expect(plain.error).toBeNull();
    const { rows } = await adminPool().query(
      'select city, country from public.search_log where search_string = $1',
      [q],
    );
    expect(rows).toEqual([{ city: null, country: null }]);
  });

  it('visitor_log and record_visits refuse anon and signed-in callers', async () => {
    const user = await createUser('restvisit');
    const path = `/${unique('rest-visit')}`;
    for (const client of [anonClient(), anonClient({ authorization: `Bearer ${user.token}` })]) {
      const insert = await client
        .from('visitor_log')
        .insert({ path, city: 'Fakeville', country: 'XX', ip_hash: 'ab12cd34ef56ab78' });
      expect(insert.error?.code).toBe('42501');
      const rpc = await client.rpc('record_visits', {
        paths: [path],
        visitor_id: null,
        visit: { city: 'Fakeville' },
        client_address: null,
      });
      expect(rpc.error?.code).toBe('42501');
    }
    const { rows } = await adminPool().query('select 1 from public.visitor_log where path = $1', [path]);
    expect(rows).toEqual([]);
  });
});

describe('the visitor function records batches of page views', () => {
  it('one row per path, located on the server, with the signed-in user', async () => {
    const user = await createUser('batch');
    const base = `/${unique('batch')}`;
    const paths = [base, `${base}/about`, `${base}/news`];
    const res = await callFunction(
      'visitor',
      { paths, city: 'Fakeville' },
      { authorization: `Bearer ${user.token}`, 'x-forwarded-for': PH_IP },
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ recorded: 3, located: true, location: { country: 'PH' } });
    const { rows } = await adminPool().query(
      'select path, country, user_id, ip_hash from public.visitor_log where path like $1 order by path',
      [`${base}%`],
    );
    expect(rows.map((r) => [r.path, r.country, r.user_id])).toEqual([
      [base, 'PH', user.id],
      [`${base}/about`, 'PH', user.id],
      [`${base}/news`, 'PH', user.id],
    ]);
    expect(new Set(rows.map((r) => r.ip_hash)).size).toBe(1);
  });

  it('paths: [] only answers the location (the report form) and records nothing', async () => {
    const user = await createUser('locate');
    const res = await callFunction(
      'visitor',
      { paths: [] },
      { authorization: `Bearer ${user.token}`, 'x-forwarded-for': PH_IP },
    );
    expect(res).toMatchObject({
      status: 200,
      body: { recorded: 0, located: true, location: { country: 'PH' } },
    });
    const { rows } = await adminPool().query('select 1 from public.visitor_log where user_id = $1', [
      user.id,
    ]);
    expect(rows).toEqual([]);
  });

  it('refuses more than 20 paths, or paths that are not a list, with 400 and records none', async () => {
    const base = `/${unique('flood')}`;
    const many = await callFunction('visitor', {
      paths: Array.from({ length: 21 }, (_, i) => `${base}/${i}`),
    });
    expect(many).toMatchObject({ status: 400, body: { msg: 'Send at most 20 visits at a time' } });
    expect((await callFunction('visitor', { paths: base })).status).toBe(400);
    const { rows } = await adminPool().query('select 1 from public.visitor_log where path like $1', [
      `${base}%`,
    ]);
    expect(rows).toEqual([]);
  });

  it("holds on: edge function + postgres — answers 429 with the limiter's message past 60 views a minute from one address, and records none of the refused batch", async () => {
    const ip = `81.4.${Math.floor(Math.random() * 200) + 10}.${Math.floor(Math.random() * 200) + 10}`;
    const path = `/${unique('flood-visits')}`;
    for (let i = 0; i < 3; i++)
      expect(
        (await callFunction('visitor', { paths: Array(20).fill(path) }, { 'x-forwarded-for': ip })).status,
      ).toBe(201);
    const refused = await callFunction('visitor', { paths: Array(20).fill(path) }, { 'x-forwarded-for': ip });
    expect(refused.status).toBe(429);
    expect(refused.body.msg).toMatch(/^Too many visits recorded from your address: at most 60 per 1 minute/);
    const { rows } = await adminPool().query(
      'select count(*)::int as n from public.visitor_log where path = $1',
      [path],
    );
    expect(rows[0].n).toBe(60);
  });
});

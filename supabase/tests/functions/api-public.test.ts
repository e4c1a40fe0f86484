/** /api/v1 search, visitor, contact, news, notify and admin counters; the `visitor` function. */
import { describe, expect, it } from 'vitest';
import { adminPool, stackEnv, unique } from '../helpers.ts';
import { anonClient } from '../auth-helpers.ts';
import { api, createUser, formOf, objectsIn, reportFields, tinyJpeg } from './helpers.ts';

const PH_IP = '112.198.0.1';

describe('POST /search and GET /search/{searchString}', () => {
  it('finds reports by any written form, limits anonymous columns and logs each search once, located on the server', async () => {
    const reporter = await createUser('srch');
    const number = `0918${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
    // The report's location is the server's, from the reporter's address (issue 27).
    await api('POST', '/reports', {
      token: reporter.token,
      json: reportFields({ reportedAccount: number, country: 'XX', loc: '1.0,1.0' }),
      headers: { 'x-forwarded-for': PH_IP },
    });
    const typed = `+63 ${number.slice(1, 4)} ${number.slice(4, 7)} ${number.slice(7)}`;

    const post = await api<{ searchString: string }>('POST', '/search', { json: { searchString: typed } });
    expect(post.status).toBe(200);
    expect(post.body.searchString).toBe(typed);

    // The legacy client's location query string is ignored: the server locates the caller itself.
    const anon = await api<{
      count: number;
      reports: Record<string, unknown>[];
      summary: Record<string, unknown>;
      points: string[];
    }>('GET', `/search/${encodeURIComponent(typed)}?ip=1.2.3.4&city=Fakeville&country=XX`, {
      headers: { 'x-forwarded-for': PH_IP },
    });
    expect(anon.status).toBe(200);
    expect(anon.body.count).toBe(1);
    const { rows } = await adminPool().query(
      'select city, country, loc, ip_hash from public.search_log where search_string = $1',
      [typed],
    );
    // Recorded once (by the GET), located from the address, without the address.
    expect(rows).toHaveLength(1);
    expect(rows[0].country).toBe('PH');
    expect(rows[0].city).not.toBe('Fakeville');
    expect(rows[0].loc).toMatch(/^\d+\.\d+,\d+\.\d+$/);
    expect(rows[0].ip_hash).toMatch(/^[0-9a-f]{32}$/);
    expect(JSON.stringify(rows[0])).not.toContain(PH_IP);

    expect(Object.keys(anon.body.reports[0]).sort()).toEqual(
      [
        '_id',
        'createdAt',
        'incidentDate',
        'incidentType',
        'location',
        'reportedAccountType',
        'status',
      ].sort(),
    );
    expect(anon.body.reports[0]._id).toBeNull();
    expect(anon.body.summary).toMatchObject({ numberOfReports: 1, lastReportedVictimCountry: 'PH' });
    expect(anon.body.points).toHaveLength(1);
    expect(anon.body.points[0]).toMatch(/^\d+(\.\d+)?,\d+(\.\d+)?$/);
    expect(anon.body.points[0]).not.toBe('1,1');

    // A DNT visitor's search is counted without location or address hash.
    const dnt = await api<{ count: number }>('GET', `/search/${number}`, {
      headers: { dnt: '1', 'x-forwarded-for': PH_IP },
    });
    expect(dnt.body.count).toBe(1);
    const { rows: dntRows } = await adminPool().query(
      'select country, ip_hash from public.search_log where search_string = $1',
      [number],
    );
    expect(dntRows).toEqual([{ country: null, ip_hash: null }]);

    const signedIn = await api<{ reports: Record<string, unknown>[] }>(
      'GET',
      `/search/${encodeURIComponent(number)}`,
      { token: reporter.token },
    );
    expect(signedIn.body.reports[0]).toHaveProperty('incidentDescription');
  });

  it('refuses an empty or over-long search string with 400', async () => {
    expect((await api('POST', '/search', { json: {} })).status).toBe(400);
    expect((await api('POST', '/search', { json: { searchString: '   ' } })).status).toBe(400);
    expect((await api('POST', '/search', { json: { searchString: 'x'.repeat(300) } })).status).toBe(400);
    expect((await api('GET', `/search/${'x'.repeat(300)}`)).status).toBe(400);
  });
});

describe('visits: GET /visitor and the visitor function', () => {
  it('records a visit located from the caller address, never the address itself', async () => {
    const path = `/${unique('page')}`;
    const res = await api<{ located: boolean; location: { country: string } }>(
      'GET',
      `/visitor?path=${encodeURIComponent(path)}`,
      {
        headers: { 'x-forwarded-for': PH_IP },
      },
    );
    expect(res.status).toBe(200);
    expect(res.body.located).toBe(true);
    expect(res.body.location.country).toBe('PH');
    const { rows } = await adminPool().query('select * from public.visitor_log where path = $1', [path]);
    expect(rows).toHaveLength(1);
    expect(rows[0].country).toBe('PH');
    expect(JSON.stringify(rows[0])).not.toContain(PH_IP);
  });

  it('counts DNT and Sec-GPC visitors without locating them; private addresses resolve to nothing', async () => {
    for (const headers of [{ dnt: '1' }, { 'sec-gpc': '1' }, {}] as Record<string, string>[]) {
      const path = `/${unique('dnt')}`;
      const xff = Object.keys(headers).length ? PH_IP : '192.168.1.20';
      const res = await api<{ located: boolean; location: unknown }>('GET', `/visitor?path=${path}`, {
        headers: { ...headers, 'x-forwarded-for': xff },
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ located: false, location: null });
      const { rows } = await adminPool().query(
        'select city, region, country, loc, postal, ip_hash from public.visitor_log where path = $1',
        [path],
      );
      expect(rows).toEqual([
        { city: null, region: null, country: null, loc: null, postal: null, ip_hash: null },
      ]);
    }
  });

  it('holds on: edge function — the visitor function records visits for supabase.functions.invoke and refuses forged tokens', async () => {
    const path = `/${unique('fn')}`;
    const res = await fetch(`${stackEnv('API_URL')}/functions/v1/visitor`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${stackEnv('ANON_KEY')}`,
        'content-type': 'application/json',
        'x-forwarded-for': '2001:4860:4860::8888',
      },
      body: JSON.stringify({ path }),
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ located: true, location: { country: 'US' } });
    const { rows } = await adminPool().query('select country from public.visitor_log where path = $1', [
      path,
    ]);
    expect(rows).toEqual([{ country: 'US' }]);
    const forged = await fetch(`${stackEnv('API_URL')}/functions/v1/visitor`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${stackEnv('ANON_KEY').slice(0, -4)}AAAA`,
        'content-type': 'application/json',
      },
      body: '{}',
    });
    expect(forged.status).toBe(401);
    const badBody = await fetch(`${stackEnv('API_URL')}/functions/v1/visitor`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '[1,2',
    });
    expect(badBody.status).toBe(400);
  });

  it('answers supabase.functions.invoke as the SPA calls it, signed in or not', async () => {
    const path = `/${unique('invoke')}`;
    const { data, error } = await anonClient().functions.invoke('visitor', { body: { path } });
    expect(error).toBeNull();
    expect(data).toHaveProperty('located');
    const user = await createUser('inv');
    const signedIn = anonClient({ authorization: `Bearer ${user.token}` });
    const again = await signedIn.functions.invoke('visitor', { body: { path } });
    expect(again.error).toBeNull();
    const { rows } = await adminPool().query(
      'select user_id from public.visitor_log where path = $1 order by created_at',
      [path],
    );
    expect(rows).toEqual([{ user_id: null }, { user_id: user.id }]);
  });

  it('admins also get the site counters from GET /visitor', async () => {
    const admin = await createUser('adm', { admin: true });
    const res = await api<{ stats: Record<string, number> }>('GET', '/visitor', { token: admin.token });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.stats).sort()).toEqual([
      'contact',
      'reports',
      'search',
      'users',
      'verifiedReports',
      'visitor',
    ]);
  });
});

describe('POST /visitor/contact', () => {
  it('stores the message for the admin inbox', async () => {
    const subject = unique('subj');
    const res = await api('POST', '/visitor/contact', {
      json: { nickname: 'Lito', email: 'lito@example.com', subject, message: 'Is this number a scam?' },
    });
    expect(res.status).toBe(201);
    expect(res.body.msg).toBe("We'll review this ASAP & we'll get back to you");
    const { rows } = await adminPool().query(
      'select nickname, message from public.contact_messages where subject = $1',
      [subject],
    );
    expect(rows).toEqual([{ nickname: 'Lito', message: 'Is this number a scam?' }]);
  });

  it('requires the message and a valid e-mail when one is given', async () => {
    expect((await api('POST', '/visitor/contact', { json: { nickname: 'x' } })).body.msg).toBe(
      'message is required',
    );
    expect((await api('POST', '/visitor/contact', { json: { message: 'hi', email: 'nope' } })).status).toBe(
      400,
    );
    expect((await api('POST', '/visitor/contact', { json: { message: 'x'.repeat(5001) } })).status).toBe(400);
  });
});

describe('news', () => {
  it('admins add news with a banner; everyone reads the front page, the list and the article', async () => {
    const admin = await createUser('news', { admin: true });
    const title = unique('Scam alert ');
    const add = await api<{ msg: string; news: { _id: string; newsBanner: string; tags: string } }>(
      'POST',
      '/news/addnews',
      {
        token: admin.token,
        form: formOf(
          {
            newsTitle: title,
            newsDescription: 'Texts promising prizes.',
            tags: 'sms, prize',
            imgURL: '',
            source: 'https://news.example/a',
            sourceDesc: 'Example News',
          },
          { field: 'newsBanner', bytes: tinyJpeg(), name: 'b.jpg', type: 'image/jpeg' },
        ),
      },
    );
    expect(add.status).toBe(201);
    expect(add.body.msg).toBe('News Added Sucessfully');
    expect(add.body.news.tags).toBe('sms, prize');
    expect(add.body.news.newsBanner).toMatch(/\/news-banners\/banners\/[0-9a-f-]{36}\.jpg$/);
    expect((await fetch(add.body.news.newsBanner)).status).toBe(200);

    const front = await api<{ news: { newsTitle: string }[] }>('GET', '/news/frontpage');
    expect(front.status).toBe(200);
    expect(front.body.news[0].newsTitle).toBe(title);
    expect(front.body.news.length).toBeLessThanOrEqual(6);
    const list = await api<{ news: { _id: string }[] }>('GET', '/news');
    expect(list.body.news.some((n) => n._id === add.body.news._id)).toBe(true);
    const one = await api<{ news: { newsTitle: string; sourceDesc: string } }>(
      'GET',
      `/news/${add.body.news._id}`,
    );
    expect(one.body.news).toMatchObject({ newsTitle: title, sourceDesc: 'Example News' });
    expect((await api('GET', '/news/00000000-0000-4000-a000-000000000000')).status).toBe(404);
    expect((await api('GET', '/news/not-an-id')).status).toBe(404);
  });

  it('holds on: edge function + postgres — refuses news from non-admins (403) and anonymous callers (401), and bad banners (400), storing nothing', async () => {
    const user = await createUser('news');
    const title = unique('Nope ');
    const fields = { newsTitle: title, newsDescription: 'x' };
    expect((await api('POST', '/news/addnews', { token: user.token, json: fields })).status).toBe(403);
    expect((await api('POST', '/news/addnews', { json: fields })).status).toBe(401);
    const admin = await createUser('news', { admin: true });
    const before = (await objectsIn('news-banners', 'banners/')).length;
    const bad = await api('POST', '/news/addnews', {
      token: admin.token,
      form: formOf(fields, {
        field: 'newsBanner',
        bytes: Buffer.from('MZ\x90\x00 not an image'),
        name: 'banner.gif',
        type: 'image/gif',
      }),
    });
    expect(bad.status).toBe(400);
    expect(
      (
        await api('POST', '/news/addnews', {
          token: admin.token,
          json: { ...fields, imgURL: 'javascript:alert(1)' },
        })
      ).status,
    ).toBe(400);
    expect(
      (await api('POST', '/news/addnews', { token: admin.token, json: { newsDescription: 'no title' } })).body
        .msg,
    ).toBe('newsTitle is required');
    expect((await objectsIn('news-banners', 'banners/')).length).toBe(before);
    const { rows } = await adminPool().query(
      'select count(*)::int as n from public.news where news_title = $1',
      [title],
    );
    expect(rows[0].n).toBe(0);
  });
});

describe('POST /notify', () => {
  it('registers each comma-delimited identifier once, in canonical form', async () => {
    const user = await createUser('ntf');
    const res = await api<{ msg: string; assets: string[] }>('POST', '/notify', {
      token: user.token,
      json: {
        assetName: '0917 123 4567, +639171234567\nScam@Example.COM, https://www.bad-site.example/login',
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.msg).toBe('Saved Sucessfully');
    const { rows } = await adminPool().query(
      'select identifier_canonical from public.notify_registrations where user_id = $1 order by 1',
      [user.id],
    );
    expect(rows.map((r) => r.identifier_canonical)).toEqual([
      '+639171234567',
      'bad-site.example',
      'scam@example.com',
    ]);
    const again = await api('POST', '/notify', { token: user.token, json: { assetName: '09171234567' } });
    expect(again.status).toBe(201);
    const list = await api<{ assets: unknown[] }>('GET', '/notify', { token: user.token });
    expect(list.body.assets).toHaveLength(3);
  });

  it('holds on: edge function — requires a login and a non-empty assetName', async () => {
    expect((await api('POST', '/notify', { json: { assetName: 'a@b.co' } })).status).toBe(401);
    const user = await createUser('ntf');
    expect((await api('POST', '/notify', { token: user.token, json: { assetName: ' , ,' } })).status).toBe(
      400,
    );
    expect((await api('POST', '/notify', { token: user.token, json: {} })).body.msg).toBe(
      'assetName is required',
    );
  });
});

describe('holds on: edge function + postgres — GET /users/admin/app-stats', () => {
  it('gives admins the counters and refuses users (403) and visitors (401)', async () => {
    const admin = await createUser('st', { admin: true });
    const res = await api<Record<string, number>>('GET', '/users/admin/app-stats', { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.users).toBeGreaterThan(0);
    expect(Object.keys(res.body).sort()).toEqual([
      'contact',
      'reports',
      'search',
      'users',
      'verifiedReports',
      'visitor',
    ]);
    const user = await createUser('st');
    const denied = await api('GET', '/users/admin/app-stats', { token: user.token });
    expect(denied.status).toBe(403);
    expect(denied.body.msg).toBe('You are not authorized to view this page');
    expect((await api('GET', '/users/admin/app-stats')).status).toBe(401);
  });
});

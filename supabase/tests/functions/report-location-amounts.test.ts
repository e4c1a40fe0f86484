/**
 * Issue 27: "a report's location is whatever the browser writes" and "open data shows one victim's
 * exact loss", replayed. A signed-in user can no longer write loc or country through the Data API; the
 * report form's location comes from the `visitor` function, which resolves the caller's address on the
 * server, and the legacy API ignores the loc and country an old client sends. Amounts above PHP
 * 100,000,000 are refused; the daily export shows an amount only as the sum of 5 or more verified ones.
 */
import { randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { adminPool, stackEnv } from '../helpers.ts';
import { api, createUser, reportFields, type TestUser } from './helpers.ts';

const PH_IP = '112.198.0.1';

function rest(method: string, path: string, user: TestUser, body: unknown) {
  return fetch(`${stackEnv('API_URL')}/rest/v1/${path}`, {
    method,
    headers: {
      apikey: stackEnv('ANON_KEY'),
      authorization: `Bearer ${user.token}`,
      'content-type': 'application/json',
      prefer: 'return=representation',
      'x-forwarded-for': PH_IP,
    },
    body: JSON.stringify(body),
  });
}

const row = () => ({
  incident_date: new Date().toISOString().slice(0, 10),
  incident_type: 'scam',
  reported_account_type: 'mobile',
  reported_account: `0917${String(randomInt(0, 1e7)).padStart(7, '0')}`,
});

async function located(id: string) {
  return (await adminPool().query('select loc, country from public.reports where id = $1', [id])).rows[0];
}

function visitor(user: TestUser, body: unknown, xff = PH_IP) {
  return fetch(`${stackEnv('API_URL')}/functions/v1/visitor`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${user.token}`,
      'content-type': 'application/json',
      'x-forwarded-for': xff,
    },
    body: JSON.stringify(body),
  });
}

describe('a report is located by the server only (issue 27)', () => {
  it('holds on: postgres — the Data API refuses loc and country from a signed-in user, on insert and on update', async () => {
    const user = await createUser('loc');
    const forged = await rest('POST', 'reports', user, { ...row(), loc: '1.0,1.0', country: 'XX' });
    expect(forged.status).toBe(403);
    const filed = await rest('POST', 'reports?select=id', user, row());
    expect(filed.status).toBe(201);
    const [{ id }] = (await filed.json()) as { id: string }[];
    const moved = await rest('PATCH', `reports?id=eq.${id}`, user, { loc: '1.0,1.0', country: 'XX' });
    expect(moved.status).toBe(403);
    expect(await located(id)).toEqual({ loc: null, country: null });
  });

  it('the report form has the visitor function locate the report from the caller address, once, and only its own', async () => {
    const [user, other] = [await createUser('locf'), await createUser('locg')];
    const filed = await rest('POST', 'reports?select=id', user, row());
    const [{ id }] = (await filed.json()) as { id: string }[];
    // Someone else's report is not theirs to locate.
    const stranger = await visitor(other, { paths: [], report: id });
    expect(await stranger.json()).toMatchObject({ reportLocated: false });
    expect(await located(id)).toEqual({ loc: null, country: null });
    const res = await visitor(user, { paths: [], report: id, loc: '1.0,1.0', country: 'XX' });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ reportLocated: true });
    const first = await located(id);
    expect(first.country).toBe('PH');
    expect(first.loc).toMatch(/^\d+\.\d+,\d+\.\d+$/);
    // Located once: a later call from elsewhere changes nothing.
    await visitor(user, { paths: [], report: id }, '8.8.8.8');
    expect(await located(id)).toEqual(first);
  });

  it('the legacy API keeps taking loc and country from old clients, and stores the server-side location instead', async () => {
    const user = await createUser('locl');
    const filed = await api<{ report: { _id: string } }>('POST', '/reports', {
      token: user.token,
      json: reportFields({ loc: '1.0,1.0', country: 'XX' }),
      headers: { 'x-forwarded-for': PH_IP },
    });
    expect(filed.status).toBe(201);
    const stored = await located(filed.body.report._id);
    expect(stored.country).toBe('PH');
    expect(stored.loc).not.toBe('1.0,1.0');
  });
});

describe('small numbers stay private (issue 27)', () => {
  it('an amount above PHP 100,000,000 is refused with a clear message, through REST and the legacy API', async () => {
    const user = await createUser('amt');
    const r = await rest('POST', 'reports', user, { ...row(), amount_lost: 999_999_999_999.99 });
    expect(r.status).toBe(400);
    expect(((await r.json()) as { message: string }).message).toBe(
      'amount_lost must be at most PHP 100,000,000',
    );
    const legacy = await api<{ msg: string }>('POST', '/reports', {
      token: user.token,
      json: reportFields({ amountLost: '100000000.01' }),
    });
    expect(legacy.status).toBe(400);
    expect(legacy.body.msg).toMatch(/amountLost must be at most PHP 100,000,000/);
    const ok = await rest('POST', 'reports', user, { ...row(), amount_lost: 100_000_000 });
    expect(ok.status).toBe(201);
  });

  it('the daily export shows an amount only as the sum of 5 or more verified reports, never a pending one', async () => {
    // A day and kind no other test uses: 300 to 330 days ago, hacked crypto wallets.
    const days = 300 + randomInt(0, 30);
    async function add(status: string, amount: number) {
      await adminPool().query(
        `insert into public.reports (incident_date, incident_type, reported_account_type, reported_account, status, amount_lost, created_at)
         values (current_date - $1::int, 'hacked', 'crypto', $2, $3::public.report_status, $4, now() - make_interval(days => $1::int))`,
        [days, `bc1q${randomInt(0, 1e9)}x`, status, amount],
      );
    }
    const exportRows = async () =>
      (
        await adminPool().query<{ status: string; reports: number; amount_lost_php: string | null }>(
          `select status, reports, amount_lost_php from public.open_data_daily(365)
           where date = (now() at time zone 'UTC')::date - $1::int and incident_type = 'hacked' and reported_account_type = 'crypto'
           order by status`,
          [days],
        )
      ).rows.map((r) => ({
        ...r,
        reports: Number(r.reports),
        amount_lost_php: r.amount_lost_php == null ? null : Number(r.amount_lost_php),
      }));
    await add('verified', 12_345.67);
    await add('pending', 50_000);
    expect(await exportRows()).toEqual([
      { status: 'pending', reports: 1, amount_lost_php: null },
      { status: 'verified', reports: 1, amount_lost_php: null },
    ]);
    for (let i = 0; i < 4; i++) await add('verified', 1000);
    expect(await exportRows()).toEqual([
      { status: 'pending', reports: 1, amount_lost_php: null },
      { status: 'verified', reports: 5, amount_lost_php: 16345.67 },
    ]);
  });
});

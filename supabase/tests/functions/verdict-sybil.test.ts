/**
 * Issue 27, "ten free mailboxes make any number high", replayed as an attacker would: fresh accounts
 * through the real sign-up (codes from the mail sink), each filing one pending report of a
 * never-reported number through the Data API, from client addresses given in X-Forwarded-For behind the
 * trusted proxy. Neither ten accounts from two addresses nor twenty from twenty networks within the hour
 * reach "high" without a verified report; every answer says the risk rests on unreviewed reports; the
 * message check never calls such a number "danger". One verified report is what "high" needs.
 */
import { randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { withRole } from '../helpers.ts';
import { adminPool, stackEnv } from '../helpers.ts';
import { anonClient, codeIn, latestMail, uniqueEmail } from '../auth-helpers.ts';
import { api, createUser } from './helpers.ts';

/** A public IPv4 address in a /24 of its own (81.0.0.0/8 is public unicast). */
function networkAddress(): string {
  return `81.${randomInt(1, 255)}.${randomInt(0, 255)}.${randomInt(1, 254)}`;
}

/** Signs up through Auth from `xff` and confirms with the code the mail sink received; the access token. */
async function signUpFrom(xff: string): Promise<{ id: string; token: string }> {
  const email = uniqueEmail('sybil');
  const client = anonClient({ 'x-forwarded-for': xff });
  const { error } = await client.auth.signUp({ email, password: 'correct horse battery' });
  if (error) throw error;
  const code = codeIn(await latestMail(email, 1));
  const { data, error: verifyError } = await client.auth.verifyOtp({ email, token: code, type: 'signup' });
  if (verifyError) throw verifyError;
  return { id: data.user!.id, token: data.session!.access_token };
}

/** Files a pending report of `mobile` through the Data API, as the app does, from `xff`. */
async function fileFrom(token: string, xff: string, mobile: string): Promise<string> {
  const res = await fetch(`${stackEnv('API_URL')}/rest/v1/reports?select=id`, {
    method: 'POST',
    headers: {
      apikey: stackEnv('ANON_KEY'),
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      prefer: 'return=representation',
      'x-forwarded-for': xff,
    },
    body: JSON.stringify({
      incident_date: new Date().toISOString().slice(0, 10),
      incident_type: 'scam',
      reported_account_type: 'mobile',
      reported_account: mobile,
      incident_description: 'Said I won a raffle and asked for a fee.',
    }),
  });
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(201);
  return body[0].id;
}

interface LegacySearch {
  summary: {
    numberOfReports: number;
    riskPercentage: number;
    riskLevel: string;
    verifiedReports: number;
    pendingReports: number;
    riskNote: string | null;
  };
}

function freshMobile(): string {
  return `0917${String(randomInt(0, 1e7)).padStart(7, '0')}`;
}

/** Runs `n` tasks, `width` at a time (sign-ups wait for their mail). */
async function inBatches<T>(n: number, width: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < n; i += width) {
    out.push(...(await Promise.all(Array.from({ length: Math.min(width, n - i) }, (_, j) => task(i + j)))));
  }
  return out;
}

describe('free mailboxes cannot make a number high (issue 27)', () => {
  it('ten fresh accounts from two addresses: low, "not yet reviewed", never danger in the message check', async () => {
    const mobile = freshMobile();
    const addresses = [networkAddress(), networkAddress()];
    const began = Date.now();
    const accounts = await inBatches(10, 5, (i) => signUpFrom(addresses[i % 2]));
    for (const [i, a] of accounts.entries()) await fileFrom(a.token, addresses[i % 2], mobile);
    expect(Date.now() - began).toBeLessThan(5 * 60_000);

    const search = await api<LegacySearch>('GET', `/search/${mobile}`);
    expect(search.status).toBe(200);
    expect(search.body.summary).toMatchObject({
      numberOfReports: 10,
      verifiedReports: 0,
      pendingReports: 10,
      riskLevel: 'low',
      riskNote: 'Reported 10 times, not yet reviewed',
    });
    // Two networks of young accounts: 2 x 0.05 -> risk 5 (issue's replay: 63 "high").
    expect(search.body.summary.riskPercentage).toBe(5);

    const check = await api<{
      items: { count: number; signals: { code: string; message: string }[] }[];
      verdict: { level: string };
    }>('POST', '/check-message', {
      json: { text: `Congratulations! Claim your prize, text ${mobile} now.` },
    });
    expect(check.status).toBe(200);
    expect(check.body.verdict.level).not.toBe('danger');
    const reported = check.body.items[0].signals.find((s) => s.code === 'reported');
    expect(reported?.message).toMatch(/^Reported 10 times, not yet reviewed; risk low/);
  }, 300_000);

  it('twenty fresh accounts from twenty networks within the hour: medium at most, and high once one report is verified', async () => {
    const mobile = freshMobile();
    const accounts = await inBatches(20, 5, async () => {
      const xff = networkAddress();
      const a = await signUpFrom(xff);
      return { ...a, xff };
    });
    const ids: string[] = [];
    for (const a of accounts) ids.push(await fileFrom(a.token, a.xff, mobile));

    const { rows } = await adminPool().query<{ r: { summary: Record<string, unknown> } }>(
      'select public.search_reports($1) as r',
      [mobile],
    );
    // Twenty young accounts, twenty networks: 20 x 0.05 = 1.0 -> 39, medium; never high without review.
    expect(rows[0].r.summary).toMatchObject({
      count: 20,
      risk_level: 39,
      risk_label: 'medium',
      risk_basis: 'unverified_only',
      risk_note: 'Reported 20 times, not yet reviewed',
    });

    // A moderator verifies one of them: now there is evidence, and the same reports make it high.
    await adminPool().query(`update public.reports set status = 'verified' where id = $1`, [ids[0]]);
    const after = await api<LegacySearch>('GET', `/search/${mobile}`);
    expect(after.body.summary).toMatchObject({
      verifiedReports: 1,
      pendingReports: 19,
      riskLevel: 'high',
      riskNote: null,
    });
  }, 300_000);

  it('the admins see the signal: young accounts and the other reporters on the same network', async () => {
    const mobile = freshMobile();
    const xff = networkAddress();
    const neighbour = xff.replace(/\.\d+$/, `.${randomInt(1, 254)}`);
    const [a, b] = await Promise.all([signUpFrom(xff), signUpFrom(neighbour)]);
    const first = await fileFrom(a.token, xff, mobile);
    await fileFrom(b.token, neighbour, mobile);
    const admin = await createUser('signals', { admin: true });
    const rows = await withRole(
      adminPool(),
      { role: 'authenticated', sub: admin.id },
      async (c) =>
        (await c.query('select to_jsonb(s) as signal from public.report_signals(array[$1::uuid]) s', [first]))
          .rows,
    );
    expect(rows[0].signal).toEqual({
      report_id: first,
      young_account: true,
      shared_network_reporters: 1,
      network_known: true,
    });
  }, 120_000);
});

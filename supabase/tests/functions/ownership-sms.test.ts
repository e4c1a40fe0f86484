/**
 * Proof of a mobile number by SMS (issue 32), through the local Auth's phone change as GoTrue does it
 * (PUT /user { phone } sends a code, POST /verify { phone, token, type: phone_change } confirms it), the
 * code read from the SMS sink's API beside the mail sink; then the owner's statement, watch and removal.
 */
import { describe, expect, it } from 'vitest';
import { stackEnv } from '../helpers.ts';
import { anonClient, confirmedUser, smsCode as codeOf, smsTo, type SentSms as Sms } from '../auth-helpers.ts';
import { address, api } from './helpers.ts';

function newNumber() {
  const local = `0917${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
  return { local, e164: `+63${local.slice(1)}`, digits: `63${local.slice(1)}` };
}

describe('holds on: platform — local Auth: phone change by SMS code (GoTrue conformance)', () => {
  it('updateUser({ phone }) texts a 6-digit code; verifyOtp phone_change confirms the number', async () => {
    const { client } = await confirmedUser();
    const n = newNumber();
    const { data, error } = await client.auth.updateUser({ phone: n.e164 });
    expect(error).toBeNull();
    expect(data.user).toMatchObject({ phone: '', new_phone: n.digits });
    const sms = await smsTo(n.e164);
    expect(sms.To).toBe(n.e164);
    expect(sms.Body).toMatch(/^Your ScamCheck code is \d{6}\./);
    const one = (await (
      await fetch(`${stackEnv('MAILPIT_URL')}/api/v1/sms/message/${sms.ID}`)
    ).json()) as Sms;
    expect(one.Body).toBe(sms.Body);

    // Another code within max_frequency (60 s) is refused, as GoTrue does.
    const again = await client.auth.updateUser({ phone: n.e164 });
    expect(again.error).toMatchObject({ status: 429, code: 'over_sms_send_rate_limit' });

    const code = codeOf(sms);
    const wrong = await client.auth.verifyOtp({
      phone: n.e164,
      token: code === '000000' ? '111111' : '000000',
      type: 'phone_change',
    });
    expect(wrong.error).toMatchObject({ status: 403, code: 'otp_expired' });
    const ok = await client.auth.verifyOtp({ phone: n.e164, token: code, type: 'phone_change' });
    expect(ok.error).toBeNull();
    expect(ok.data.session).toBeTruthy();
    expect(ok.data.user).toMatchObject({ phone: n.digits });
    expect(ok.data.user?.phone_confirmed_at).toBeTruthy();
    expect(ok.data.user?.identities?.map((i) => i.provider).sort()).toEqual(['email', 'phone']);

    // The number is taken now.
    const other = await confirmedUser();
    const taken = await other.client.auth.updateUser({ phone: n.e164 });
    expect(taken.error).toMatchObject({ status: 422, code: 'phone_exists' });
  });

  it('refuses malformed numbers and phone sign-in codes', async () => {
    const { client } = await confirmedUser();
    const bad = await client.auth.updateUser({ phone: '0917-abc' });
    expect(bad.error).toMatchObject({ status: 400, code: 'validation_failed' });
    expect(bad.error?.message).toBe('Invalid phone number format (E.164 required)');
    const signIn = await anonClient().auth.verifyOtp({
      phone: '+639170000000',
      token: '123456',
      type: 'sms',
    });
    expect(signIn.error).toMatchObject({ status: 403, code: 'otp_expired' });
  });
});

describe('ownership: mobile number and e-wallet by SMS', () => {
  it('an owner proves a number, writes a statement and watches it', async () => {
    const owner = await confirmedUser();
    const n = newNumber();
    // Not before the number is confirmed.
    const early = await owner.client.rpc('claim_phone_ownership', { kind: 'mobile', value: n.local });
    expect(early.error?.message).toMatch(/confirm this number by SMS code first/);
    await owner.client.auth.updateUser({ phone: n.e164 });
    await owner.client.auth.verifyOtp({
      phone: n.e164,
      token: codeOf(await smsTo(n.e164)),
      type: 'phone_change',
    });
    const proof = await owner.client.rpc('claim_phone_ownership', { kind: 'ewallet', value: n.local });
    expect(proof.error).toBeNull();
    expect(proof.data).toMatchObject({ method: 'sms', identifier: n.e164, live: true });

    const statement = await owner.client.rpc('set_owner_statement', {
      identifier: n.e164,
      body: 'This number belongs to our sari-sari store. We never sell online.',
    });
    expect(statement.error).toBeNull();
    const shown = await anonClient().rpc('owner_statements_for', { canonicals: [n.e164] });
    expect(shown.data).toEqual([
      expect.objectContaining({
        identifier: n.e164,
        verified_by: 'sms',
        statement: expect.stringMatching(/sari-sari/),
      }),
    ]);

    // The legacy API's search answer carries it as an added field; the app's search function too.
    const legacy = await api<{ ownerStatements: unknown[]; summary: Record<string, unknown> }>(
      'GET',
      `/search/${encodeURIComponent(n.local)}`,
      { headers: { 'x-forwarded-for': address() } },
    );
    expect(legacy.status).toBe(200);
    expect(legacy.body.ownerStatements).toEqual([
      {
        statement: expect.stringMatching(/sari-sari/),
        updatedAt: expect.any(String),
        verifiedBy: 'sms',
        verifiedAt: expect.any(String),
      },
    ]);
    const app = await anonClient({ 'x-forwarded-for': address() }).functions.invoke('search', {
      body: { searchString: n.e164 },
    });
    expect(app.data.owner_statements).toEqual([expect.objectContaining({ verified_by: 'sms' })]);

    expect((await owner.client.rpc('watch_owned_identifier', { identifier: n.e164 })).error).toBeNull();
    const reporter = await confirmedUser();
    const filed = await reporter.client
      .from('reports')
      .insert({
        incident_date: '2026-11-01',
        incident_type: 'scam',
        reported_account_type: 'mobile',
        reported_account: n.local,
        incident_description: 'Asked for a GCash deposit and vanished.',
      })
      .select('id')
      .single();
    expect(filed.error).toBeNull();
    const notes = await owner.client.from('notifications').select('*').eq('report_id', filed.data!.id);
    expect(notes.data).toHaveLength(1);
    expect(JSON.stringify(notes.data)).not.toContain(reporter.user.id);
    expect(JSON.stringify(notes.data)).not.toContain(reporter.email);
  });
});

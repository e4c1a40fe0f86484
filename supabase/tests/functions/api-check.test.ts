/** POST /api/v1/check-message (issue 13): a whole message checked at once, through the api function. */
import { beforeAll, describe, expect, it } from 'vitest';
import { adminPool, stackEnv } from '../helpers.ts';
import { api, createUser, reportFields, type TestUser } from './helpers.ts';

interface CheckAnswer {
  items: {
    type: string;
    value: string;
    canonical: string;
    forms: string[];
    count: number;
    riskLevel: string;
    riskPercentage: number;
    valid: boolean;
    signals: { code: string; message: string; [k: string]: unknown }[];
    ownerStatements: { statement: string; updatedAt: string; verifiedBy: string; verifiedAt: string }[];
  }[];
  verdict: { level: string; summary: string; reasons: { code: string; value: string; message: string }[] };
}

let reporter: TestUser;
const mobile = `0926${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
const written = `${mobile.slice(0, 4)}-${mobile.slice(4, 7)}-${mobile.slice(7)}`;

beforeAll(async () => {
  reporter = await createUser('checker');
  const r = await api<{ id?: string }>('POST', '/reports', {
    token: reporter.token,
    json: reportFields({ reportedAccount: mobile }),
  });
  expect(r.status).toBe(201);
});

describe('POST /api/v1/check-message', () => {
  const text = `BDO: Your account is on hold. Verify at hxxps://bdo-secure-login[.]top/verify or text our officer at ${written} (${mobile}). Ref No. 9171234567, OTP 123456. Official site: www.bdo.com.ph`;

  it('answers every identifier with its reports, signals and the verdict, and logs only anonymous searches', async () => {
    const r = await api<CheckAnswer>('POST', '/check-message', { json: { text } });
    expect(r.status).toBe(200);
    expect(r.body.items.map((i) => [i.type, i.value, i.canonical, i.count])).toEqual([
      ['website', 'hxxps://bdo-secure-login[.]top/verify', 'bdo-secure-login.top', 0],
      ['mobile', written, `+63${mobile.slice(1)}`, 1],
      ['website', 'www.bdo.com.ph', 'bdo.com.ph', 0],
    ]);
    const [site, phone, official] = r.body.items;
    expect(site.signals.map((s) => s.code)).toEqual(['lookalike-brand', 'new-tld']);
    expect(site.signals[0]).toMatchObject({
      brand: 'BDO',
      matched: 'bdo',
      officialDomains: ['bdo.com.ph'],
      message: expect.any(String),
    });
    expect(phone.forms).toEqual([written, mobile]);
    expect(phone).toMatchObject({ riskLevel: 'low', riskPercentage: expect.any(Number) });
    expect(phone.signals.map((s) => s.code)).toEqual(['reported', 'personal-number-as-business']);
    expect(official.signals).toEqual([]);
    expect(r.body.verdict.level).toBe('danger');
    expect(r.body.verdict.reasons).toEqual([
      {
        code: 'lookalike-brand',
        value: 'hxxps://bdo-secure-login[.]top/verify',
        message: site.signals[0].message,
      },
    ]);
    const { rows } = await adminPool().query(
      `select search_string, identifier_kind, result_count, user_id from public.search_log where identifier_canonical = $1`,
      [`+63${mobile.slice(1)}`],
    );
    expect(rows).toEqual([
      { search_string: `+63${mobile.slice(1)}`, identifier_kind: 'mobile', result_count: 1, user_id: null },
    ]);
  });

  it("carries the verified owner's answer on each identifier as an added field (issue 32)", async () => {
    const canonical = `+63${mobile.slice(1)}`;
    // A live SMS proof and its statement, as claim_phone_ownership and set_owner_statement leave them.
    await adminPool().query(
      `with p as (
         insert into public.ownership_proofs (user_id, identifier_kind, identifier_canonical, method, verified_at, expires_at)
         values ($1, 'mobile', $2, 'sms', now(), now() + interval '1 day') returning user_id)
       insert into public.owner_statements (user_id, identifier_canonical, body)
       select user_id, $2, 'Our shop line; the report is a mix-up.' from p`,
      [reporter.id, canonical],
    );
    const r = await api<CheckAnswer>('POST', '/check-message', { json: { text } });
    expect(r.status).toBe(200);
    const [site, phone, official] = r.body.items;
    expect(phone.ownerStatements).toEqual([
      {
        statement: 'Our shop line; the report is a mix-up.',
        updatedAt: expect.any(String),
        verifiedBy: 'sms',
        verifiedAt: expect.any(String),
      },
    ]);
    expect(site.ownerStatements).toEqual([]);
    expect(official.ownerStatements).toEqual([]);
    // The older fields are unchanged.
    expect(phone).toMatchObject({ type: 'mobile', canonical, count: 1, riskLevel: 'low' });
    await adminPool().query('delete from public.owner_statements where identifier_canonical = $1', [
      canonical,
    ]);
  });

  it('is also served through the app address form /functions/v1/api/v1/check-message and needs no login', async () => {
    const res = await fetch(`${stackEnv('API_URL')}/functions/v1/api/v1/check-message`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'send to 1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3 now' }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as CheckAnswer;
    expect(body.items).toEqual([
      expect.objectContaining({
        type: 'crypto',
        valid: false,
        signals: [expect.objectContaining({ code: 'invalid-checksum' })],
      }),
    ]);
    expect(body.verdict.level).toBe('suspicious');
  });

  it('holds on: edge function — refuses a text over 5,000 characters with 413 and a clear message, and a missing text with 400', async () => {
    const long = await api<{ msg: string }>('POST', '/check-message', { json: { text: 'a'.repeat(5001) } });
    expect(long.status).toBe(413);
    expect(long.body.msg).toBe(
      'The message is too long to check: at most 5,000 characters (this one has 5,001). Paste the part with the numbers and links.',
    );
    expect((await api('POST', '/check-message', { json: { text: 'b'.repeat(5000) } })).status).toBe(200);
    for (const json of [{}, { text: '' }, { text: 5 }, { text: ['x'] }]) {
      const r = await api<{ msg: string }>('POST', '/check-message', { json });
      expect(r.status).toBe(400);
      expect(r.body.msg).toBe('text is required: the message to check, as a string');
    }
  });

  it('says when nothing was found', async () => {
    const r = await api<CheckAnswer>('POST', '/check-message', {
      json: { text: 'Kita tayo mamaya, 7:30 PM sa SM North.' },
    });
    expect(r.body).toEqual({
      items: [],
      textSignals: [],
      verdict: expect.objectContaining({ level: 'nothing-found', reasons: [] }),
    });
  });

  it('holds on: edge function + postgres — answers 429 with Retry-After once an address has used up check.ip', async () => {
    const headers = {
      'x-forwarded-for': `198.51.100.${Math.floor(Math.random() * 250) + 1}, 9.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
    };
    const [{ max_calls }] = (
      await adminPool().query(`select max_calls from private.rate_limits where name = 'check.ip'`)
    ).rows;
    // a burst of max_calls passes; the bucket refills one call a second meanwhile, then 429
    let allowed = 0;
    let r = await api<{ msg: string }>('POST', '/check-message', { json: { text: 'hi' }, headers });
    const began = Date.now();
    while (r.status === 200 && allowed < 3 * max_calls) {
      allowed++;
      r = await api<{ msg: string }>('POST', '/check-message', { json: { text: 'hi' }, headers });
    }
    expect(allowed).toBeGreaterThanOrEqual(max_calls);
    expect(allowed).toBeLessThanOrEqual(max_calls + Math.ceil((Date.now() - began) / 1000) + 1);
    expect(r.status).toBe(429);
    expect(r.body.msg).toMatch(/Too many message checks from your address: at most 60 per 1 minute/);
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

/**
 * Issue 11, "No limits outside Auth": floods of each write path through the Data API (as the app
 * calls it) and through the legacy API and the visitor function, from one client address. Past each
 * limit the answer is 429 with Retry-After and a readable message, and both ways share one count.
 */
import { describe, expect, it } from 'vitest';
import { stackEnv } from '../helpers.ts';
import { api, createUser, reportFields } from './helpers.ts';

/** A public address of its own per flood (the local gateway's own hop is loopback and never counts). */
function address(): string {
  const hex = () => Math.floor(Math.random() * 0xffff).toString(16);
  return `2a01:${hex()}:${hex()}::9`;
}

function rest(path: string, xff: string, body: unknown, token?: string) {
  return fetch(`${stackEnv('API_URL')}/rest/v1/${path}`, {
    method: 'POST',
    headers: {
      apikey: stackEnv('ANON_KEY'),
      authorization: `Bearer ${token ?? stackEnv('ANON_KEY')}`,
      'content-type': 'application/json',
      'x-forwarded-for': xff,
    },
    body: JSON.stringify(body),
  });
}

/** Sends until the first 429 (at most `tries`); returns how many went through and the refusal. */
async function until429(
  tries: number,
  send: (i: number) => Promise<{ status: number; headers: Headers; body: unknown }>,
) {
  const began = Date.now();
  for (let i = 0; i < tries; i++) {
    const r = await send(i);
    if (r.status === 429) return { accepted: i, refusal: r, seconds: (Date.now() - began) / 1000 };
    expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
  }
  return { accepted: tries, refusal: undefined, seconds: (Date.now() - began) / 1000 };
}

/** A per-minute limit of 60 gives one call back each second the flood lasts. */
function expectMinuteLimit(r: { accepted: number; seconds: number }) {
  expect(r.accepted).toBeGreaterThanOrEqual(60);
  expect(r.accepted).toBeLessThanOrEqual(60 + Math.ceil(r.seconds) + 1);
}

async function answer(res: Response) {
  return { status: res.status, headers: res.headers, body: await res.json().catch(() => null) };
}

describe('floods through the Data API', () => {
  it('holds on: postgres — anonymous contact messages: the 6th in an hour from one address gets 429 with Retry-After', async () => {
    const xff = address();
    const { accepted, refusal } = await until429(8, async (i) =>
      answer(await rest('contact_messages', xff, { message: `flood ${i}` })),
    );
    expect(accepted).toBe(5);
    expect(Number(refusal!.headers.get('retry-after'))).toBeGreaterThan(600);
    expect(refusal!.body).toMatchObject({
      code: 'PT429',
      message: expect.stringMatching(/^Too many contact messages from your address: at most 5 per 1 hour\./),
    });
  });

  it('searches through rpc/search_reports: 60 a minute from one address', async () => {
    const xff = address();
    const r = await until429(90, async (i) =>
      answer(await rest('rpc/search_reports', xff, { search_string: `flood${i}@example.com` })),
    );
    expectMinuteLimit(r);
    const refusal = r.refusal;
    expect(refusal!.body).toMatchObject({
      code: 'PT429',
      message: expect.stringMatching(/^Too many searches from your address/),
    });
  });

  it('an IPv6 caller rotating addresses within its /64 shares one count', async () => {
    // Every search from another address of the same /64, as a subscriber may use any of them.
    const home = address().replace(/::9$/, '');
    const r = await until429(90, async (i) =>
      answer(
        await rest('rpc/search_reports', `${home}:0:${(i + 1).toString(16)}::9`, {
          search_string: `rotate${i}@example.com`,
        }),
      ),
    );
    expectMinuteLimit(r);
  });
});

describe('floods through the legacy API and the visitor function', () => {
  it('holds on: edge function + postgres — contact form: counted together with the Data API, then 429 with Retry-After and msg', async () => {
    const xff = address();
    for (let i = 0; i < 3; i++)
      expect((await rest('contact_messages', xff, { message: `rest ${i}` })).status).toBe(201);
    const { accepted, refusal } = await until429(5, (i) =>
      api('POST', '/visitor/contact', {
        json: { message: `legacy ${i}`, email: 'a@example.com' },
        headers: { 'x-forwarded-for': xff },
      }),
    );
    expect(accepted).toBe(2);
    expect(Number(refusal!.headers.get('retry-after'))).toBeGreaterThan(600);
    expect(refusal!.body).toMatchObject({
      msg: expect.stringMatching(/^Too many contact messages from your address/),
      retryAfter: expect.any(Number),
    });
  });

  it('searches: 60 a minute from one address', async () => {
    const xff = address();
    const r = await until429(90, (i) =>
      api('GET', `/search/legacy-flood-${i}@example.com`, { headers: { 'x-forwarded-for': xff } }),
    );
    expectMinuteLimit(r);
    const refusal = r.refusal;
    expect(refusal!.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(refusal!.body).toMatchObject({
      msg: expect.stringMatching(/^Too many searches from your address/),
    });
  });

  it('visits through the visitor function: 60 a minute from one address', async () => {
    const xff = address();
    const r = await until429(90, async () =>
      answer(
        await fetch(`${stackEnv('API_URL')}/functions/v1/visitor`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${stackEnv('ANON_KEY')}`,
            'content-type': 'application/json',
            'x-forwarded-for': xff,
          },
          body: JSON.stringify({ path: '/' }),
        }),
      ),
    );
    expectMinuteLimit(r);
    const refusal = r.refusal;
    expect(refusal!.body).toMatchObject({
      msg: expect.stringMatching(/^Too many visits recorded from your address/),
    });
  });

  it('holds on: edge function + postgres — report filing: 20 an hour from one account, the 21st gets 429', async () => {
    const user = await createUser('flood');
    const { accepted, refusal } = await until429(22, () =>
      api('POST', '/reports', {
        token: user.token,
        json: reportFields(),
        headers: { 'x-forwarded-for': address() },
      }),
    );
    expect(accepted).toBe(20);
    expect(refusal!.body).toMatchObject({
      msg: expect.stringMatching(/^Too many reports filed from your account: at most 20 per 1 hour/),
    });
  });

  it('holds on: edge function + postgres — report filing: 30 an hour from one address across accounts, the 31st gets 429 with Retry-After', async () => {
    // The API files reports over its own database connection (_shared/as-caller.ts): the caller's
    // X-Forwarded-For must reach the database's per-address limit there as it did through the Data API.
    const [first, second] = await Promise.all([createUser('flood-ip-a'), createUser('flood-ip-b')]);
    const xff = address();
    const { accepted, refusal } = await until429(32, (i) =>
      api('POST', '/reports', {
        token: (i < 15 ? first : second).token,
        json: reportFields(),
        headers: { 'x-forwarded-for': xff },
      }),
    );
    expect(accepted).toBe(30);
    expect(refusal!.body).toMatchObject({
      msg: expect.stringMatching(/^Too many reports filed from your address: at most 30 per 1 hour/),
    });
    expect(Number(refusal!.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('a second report on the same identifier gets 409 naming the report to edit instead', async () => {
    const user = await createUser('dup');
    const fields = reportFields();
    const first = await api<{ report: { _id: string } }>('POST', '/reports', {
      token: user.token,
      json: fields,
    });
    expect(first.status).toBe(201);
    const again = await api('POST', '/reports', {
      token: user.token,
      json: { ...fields, reportedAccount: `+63 ${fields.reportedAccount.slice(1)}` },
    });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      msg: expect.stringMatching(
        /^You already reported 0917 \d{7} on \w+ \d+, \d{4}\. Edit that report to add what happened instead of filing a new one\.$/,
      ),
      existingReportId: first.body.report._id,
    });
  });
});

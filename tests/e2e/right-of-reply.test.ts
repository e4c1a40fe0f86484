/**
 * Issue 32 end to end, as its "Done when" says: a test owner proves a mobile number by the SMS code read
 * from the local SMS sink, an e-mail address by the code read from the mail sink and a website by a
 * `.well-known` file served by a server this test starts; writes a statement on the number, watches it
 * and is notified (never told who) when someone reports it; the statement shows in the API (legacy search
 * and POST /api/v1/check-message) and on the results page in a browser, in English and, after the header
 * switch, in Filipino. The proofs go through the same calls the owner screens make (their parts are
 * tested one by one in supabase/tests/functions/ownership*.test.ts, with the SSRF refusals).
 *
 * CI loads one page (light) and keeps two screenshots; `SCREENSHOTS=1` also takes the results page at
 * 375 and 1280 px, light and dark, English and Filipino into tests/artifacts/right-of-reply-*.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { stackEnv, unique } from '../../supabase/tests/helpers.ts';
import { codeIn, confirmedUser, mailsTo, smsCode, smsTo } from '../../supabase/tests/auth-helpers.ts';
import { startOwnershipSite } from '../../supabase/tests/ownership-site.ts';
import { address, api } from '../../supabase/tests/functions/helpers.ts';
import { appUrl, launchBrowser, newTrackedPage, screenshot } from './helpers.ts';

const local = `0918${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
const e164 = `+63${local.slice(1)}`;
const STATEMENT =
  'This number belongs to Aling Nena Sari-Sari Store in Marikina. We sell only in the shop and never ask for GCash deposits.';

const WORDS = {
  en: { verified: 'Ownership verified by SMS code', headline: 'not yet reviewed' },
  fil: { verified: 'Napatunayang may-ari sa pamamagitan ng SMS code', headline: 'hindi pa nasusuri' },
};

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

interface OwnershipAnswer {
  proof: { id: string; challenge: string; live: boolean; method: string };
  ok?: boolean;
  detail?: string;
}

/** Seconds of slack for a loaded CI machine: the sinks are polled until the message is there. */
const SINK_WAIT_MS = 20_000;

/** The results page's owner card and headline say what they should in `lang`, and nothing sticks out. */
async function expectAnswerShown(page: Page, lang: 'en' | 'fil', width: number) {
  await page.setViewportSize({ width, height: 900 });
  const answer = page.getByTestId('owner-answer');
  await expect.poll(() => answer.textContent(), { timeout: 45_000 }).toContain(WORDS[lang].verified);
  expect(await answer.textContent()).toContain(STATEMENT);
  await expect
    .poll(() => page.locator('#search-headline').textContent(), { timeout: 10_000 })
    .toContain(WORDS[lang].headline);
  await expect.poll(() => page.evaluate(() => document.documentElement.lang), { timeout: 10_000 }).toBe(lang);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

describe('right of reply, end to end', () => {
  it('proofs by SMS, e-mail and .well-known; statement in the API and on the results page; owner notified', async () => {
    const owner = await confirmedUser({ full_name: 'Aling Nena' });
    const token = owner.session.access_token;
    const ownership = async (body: Record<string, unknown>) => {
      const res = await fetch(`${stackEnv('API_URL')}/functions/v1/ownership`, {
        method: 'POST',
        headers: {
          apikey: stackEnv('ANON_KEY'),
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as OwnershipAnswer };
    };

    // 1. The mobile number: Auth's phone change texts a code to the SMS sink; the owner types it back.
    expect((await owner.client.auth.updateUser({ phone: e164 })).error).toBeNull();
    const sms = await smsTo(e164, 1, SINK_WAIT_MS);
    const verified = await owner.client.auth.verifyOtp({
      phone: e164,
      token: smsCode(sms),
      type: 'phone_change',
    });
    expect(verified.error).toBeNull();
    const phoneProof = await owner.client.rpc('claim_phone_ownership', { kind: 'mobile', value: local });
    expect(phoneProof.error).toBeNull();
    expect(phoneProof.data).toMatchObject({ method: 'sms', identifier: e164, live: true });

    // 2. The e-mail address: the ownership function mails a code to it.
    const mailbox = `${unique('shop')}@example.com`;
    const mailed = await ownership({ action: 'email', email: mailbox });
    expect(mailed.status).toBe(201);
    const code = codeIn((await mailsTo(mailbox, 1, SINK_WAIT_MS))[0]);
    const mailProof = await owner.client.rpc('verify_ownership_code', {
      proof_id: mailed.body.proof.id,
      code,
    });
    expect(mailProof.error).toBeNull();
    expect(mailProof.data).toMatchObject({ method: 'email', identifier: mailbox, live: true });

    // 3. The website: the challenge served at /.well-known/scamcheck-verification.txt by a test server.
    const host = `${unique('nena-store')}.test`;
    const started = await ownership({ action: 'website', website: host, method: 'wellknown' });
    expect(started.status).toBe(201);
    const site = await startOwnershipSite();
    try {
      site.sites.set(host, (res) =>
        res.writeHead(200, { 'content-type': 'text/plain' }).end(`${started.body.proof.challenge}\n`),
      );
      const checked = await ownership({ action: 'check', proof: started.body.proof.id });
      expect(checked.body).toMatchObject({ ok: true, proof: { live: true, method: 'wellknown' } });
    } finally {
      await site.close();
    }
    const proofs = await owner.client
      .from('ownership_proofs')
      .select('method, verified_at')
      .order('verified_at');
    expect(proofs.error).toBeNull();
    expect(proofs.data).toEqual(
      ['sms', 'email', 'wellknown'].map((method) => ({ method, verified_at: expect.any(String) })),
    );

    // 4. The statement on the number, and a watch on it.
    const statement = await owner.client.rpc('set_owner_statement', { identifier: e164, body: STATEMENT });
    expect(statement.error).toBeNull();
    expect((await owner.client.rpc('watch_owned_identifier', { identifier: e164 })).error).toBeNull();

    // 5. Someone reports the number: the owner is told at once, never who reported it.
    const reporter = await confirmedUser({ full_name: 'Reporter' });
    const filed = await reporter.client
      .from('reports')
      .insert({
        incident_date: new Date().toISOString().slice(0, 10),
        incident_type: 'scam',
        reported_account_type: 'mobile',
        reported_account: local,
        incident_description: 'Asked for a GCash deposit for a parcel and stopped answering.',
      })
      .select('id')
      .single();
    expect(filed.error).toBeNull();
    const notes = await owner.client.from('notifications').select('*').eq('report_id', filed.data!.id);
    expect(notes.error).toBeNull();
    expect(notes.data).toHaveLength(1);
    expect(JSON.stringify(notes.data)).not.toContain(reporter.user.id);
    expect(JSON.stringify(notes.data)).not.toContain(reporter.email);

    // 6. The API: the legacy search and the message check carry the statement, with how it was proved.
    const xff = { 'x-forwarded-for': address() };
    const search = await api<{ ownerStatements: Record<string, unknown>[] }>(
      'GET',
      `/search/${encodeURIComponent(local)}`,
      { headers: xff },
    );
    expect(search.status).toBe(200);
    expect(search.body.ownerStatements).toEqual([
      expect.objectContaining({ statement: STATEMENT, verifiedBy: 'sms' }),
    ]);
    const checked = await api<{ items: { canonical: string; ownerStatements: Record<string, unknown>[] }[] }>(
      'POST',
      '/check-message',
      { json: { text: `Sir, send the deposit by GCash to ${local} today.` }, headers: xff },
    );
    expect(checked.status).toBe(200);
    expect(checked.body.items.find((i) => i.canonical === e164)?.ownerStatements).toEqual([
      expect.objectContaining({ statement: STATEMENT, verifiedBy: 'sms' }),
    ]);

    // 7. The results page, one page: English at 375 and 1280 px, then the header switch to Filipino.
    const { page, context, errors } = await newTrackedPage(browser, { width: 375, height: 900 });
    await page.goto(appUrl(`/search/${local}`), { timeout: 90_000 });
    for (const width of [375, 1280]) {
      await expectAnswerShown(page, 'en', width);
      await screenshot(page, `right-of-reply-en-${width}-light`);
    }
    await page.getByRole('button', { name: 'Switch to Filipino' }).click();
    await expectAnswerShown(page, 'fil', 1280);
    expect(errors).toEqual([]);
    await context.close();

    // SCREENSHOTS=1: every width, theme and language, to look at.
    if (process.env.SCREENSHOTS) {
      for (const lang of ['en', 'fil'] as const) {
        for (const dark of [false, true]) {
          const shot = await newTrackedPage(browser, { width: 375, height: 900, dark });
          await shot.context.addInitScript((l) => localStorage.setItem('language', l), lang);
          await shot.page.goto(appUrl(`/search/${local}`), { timeout: 90_000 });
          for (const width of [375, 1280]) {
            await expectAnswerShown(shot.page, lang, width);
            await screenshot(shot.page, `right-of-reply-${lang}-${width}-${dark ? 'dark' : 'light'}`);
          }
          expect(shot.errors).toEqual([]);
          await shot.context.close();
        }
      }
      // The owner's screen with the three proofs, the statement and the watch, on a phone.
      for (const [lang, dark] of [
        ['en', false],
        ['fil', false],
        ['fil', true],
      ] as const) {
        const shot = await newTrackedPage(browser, { width: 375, height: 900, dark });
        await shot.page.goto(appUrl('/login'));
        await shot.page.locator('input[type="email"]').fill(owner.email);
        await shot.page.locator('input[type="password"]').fill(owner.password);
        await shot.page.locator('form button[type="submit"]').click();
        await shot.page.waitForURL(/\/dashboard/, { timeout: 20_000 });
        await shot.page.goto(appUrl('/dashboard/ownership'));
        // A signed-in user's language is their profile's: the header's switch changes it.
        if (lang === 'fil' && (await shot.page.evaluate(() => document.documentElement.lang)) !== 'fil')
          await shot.page.getByRole('button', { name: 'Switch to Filipino' }).click();
        await expect.poll(() => shot.page.evaluate(() => document.documentElement.lang)).toBe(lang);
        await expect.poll(() => shot.page.getByTestId('proof-card').count(), { timeout: 30_000 }).toBe(3);
        await shot.page.getByTestId('watching').waitFor({ timeout: 30_000 });
        expect(await shot.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
        await screenshot(shot.page, `right-of-reply-owner-${lang}-375-${dark ? 'dark' : 'light'}`);
        expect(shot.errors).toEqual([]);
        await shot.context.close();
      }
    }
  }, 240_000);
});

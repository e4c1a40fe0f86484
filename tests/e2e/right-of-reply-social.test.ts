/**
 * Issue 32 for social and chat accounts, end to end: an owner proves a Telegram account by a code in
 * its bio, on a page served by a server this test starts (the test stack's ownership function fetches
 * t.me pages from it, docs/right-of-reply.md), and a Facebook page by evidence (link, a screenshot
 * through the upload-image function, a note) that an admin first rejects with a reason and then
 * approves. The answers say "bio" and "review" in the API, and the owner's screen shows the waiting
 * proof's code, evidence form and the admin's reason. CI takes one screenshot; `SCREENSHOTS=1` takes
 * the owner's screen at 375 and 1280 px, light and dark, English and Filipino.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { adminPool, stackEnv, unique } from '../../supabase/tests/helpers.ts';
import { confirmedUser } from '../../supabase/tests/auth-helpers.ts';
import { startOwnershipSite } from '../../supabase/tests/ownership-site.ts';
import { address, api } from '../../supabase/tests/functions/helpers.ts';
import { appUrl, launchBrowser, newTrackedPage, screenshot } from './helpers.ts';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

interface Started {
  proof: { id: string; identifier: string; challenge: string; live: boolean; method: string };
  code: string;
  automatic: boolean;
}

describe('right of reply for social accounts, end to end', () => {
  it('a Telegram account by its bio code, a Facebook page by admin review; API and owner screen', async () => {
    const owner = await confirmedUser({ full_name: 'Aling Nena' });
    const admin = await confirmedUser({ full_name: 'Admin' });
    await adminPool().query('select private.grant_admin($1)', [admin.user.id]);
    const ownership = async <T>(body: Record<string, unknown>) => {
      const res = await fetch(`${stackEnv('API_URL')}/functions/v1/ownership`, {
        method: 'POST',
        headers: {
          apikey: stackEnv('ANON_KEY'),
          authorization: `Bearer ${owner.session.access_token}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as T };
    };

    // 1. Telegram: the code in the bio of the account's public page, served by this test's server.
    const tg = unique('nenastore').replace(/-/g, '_');
    const started = await ownership<Started>({ action: 'social', account: `https://t.me/${tg}` });
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({
      automatic: true,
      proof: { identifier: `t.me/${tg}`, method: 'bio' },
    });
    const site = await startOwnershipSite();
    try {
      site.pages.set(`telegram/${tg}`, (res) =>
        res.writeHead(200, { 'content-type': 'text/html' }).end(
          `<html><head><meta property="og:description" content="Sari-sari store. ${started.body.code}"></head>
           <body><div class="tgme_page_description" dir="auto">Sari-sari store.<br/>${started.body.code}</div></body></html>`,
        ),
      );
      const checked = await ownership<{ ok: boolean; proof: Started['proof'] }>({
        action: 'check',
        proof: started.body.proof.id,
      });
      expect(checked.body).toMatchObject({ ok: true, proof: { live: true, method: 'bio' } });
    } finally {
      await site.close();
    }

    // 2. Facebook: no public bio to read; evidence with a screenshot, rejected with a reason, then approved.
    const fb = unique('nenastore');
    const fbStarted = await ownership<Started>({ action: 'social', account: `https://m.facebook.com/${fb}` });
    expect(fbStarted.body).toMatchObject({ automatic: false, proof: { identifier: `facebook.com/${fb}` } });
    const notChecked = await ownership<{ error: string }>({
      action: 'check',
      proof: fbStarted.body.proof.id,
    });
    expect(notChecked.status).toBe(400);
    const { page, context, errors } = await newTrackedPage(browser, { width: 375, height: 900 });
    const shot = new FormData();
    shot.append('bucket', 'evidence');
    shot.append(
      'file',
      new Blob([new Uint8Array(await page.screenshot({ type: 'png' }))], { type: 'image/png' }),
      'shot.png',
    );
    const uploaded = await owner.client.functions.invoke<{ path: string }>('upload-image', { body: shot });
    expect(uploaded.error).toBeNull();
    const evidence = (args: Record<string, unknown>) =>
      owner.client.rpc('submit_ownership_evidence', {
        proof_id: fbStarted.body.proof.id,
        profile_url: `https://www.facebook.com/${fb}`,
        ...args,
      });
    const first = await evidence({ image_path: uploaded.data!.path, note: 'The code is in the Intro.' });
    expect(first.error).toBeNull();
    const decide = (id: string, approve: boolean, reason?: string) =>
      admin.client.rpc('decide_ownership_evidence', { evidence_id: id, approve, reason });
    // The owner cannot decide on it; the admin rejects with a reason the owner reads.
    expect(
      (
        await owner.client.rpc('decide_ownership_evidence', {
          evidence_id: (first.data as { id: string }).id,
          approve: true,
        })
      ).error,
    ).not.toBeNull();
    expect(
      (await decide((first.data as { id: string }).id, false, 'The screenshot does not show the code.'))
        .error,
    ).toBeNull();

    // 3. The owner's screen: the Telegram proof verified, the Facebook one waiting with the reason and the form.
    await page.goto(appUrl('/login'));
    await page.locator('input[type="email"]').fill(owner.email);
    await page.locator('input[type="password"]').fill(owner.password);
    await page.locator('form button[type="submit"]').click();
    await page.waitForURL(/\/dashboard/, { timeout: 20_000 });
    await page.goto(appUrl('/dashboard/ownership'));
    await page.getByTestId('evidence-rejected').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('evidence-rejected').textContent()).toContain(
      'The screenshot does not show the code.',
    );
    expect(await page.getByTestId('social-proof').textContent()).toContain(fbStarted.body.code);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await screenshot(page, 'right-of-reply-social-owner-en-375-light');
    if (process.env.SCREENSHOTS) {
      for (const dark of [false, true]) {
        const s = await newTrackedPage(browser, { width: 375, height: 900, dark });
        await s.context.addCookies(await context.cookies());
        await s.context.addInitScript(
          (entries) => entries.forEach(([k, v]) => localStorage.setItem(k, v)),
          await page.evaluate(() => Object.entries(localStorage)),
        );
        await s.page.goto(appUrl('/dashboard/ownership'));
        for (const lang of ['en', 'fil'] as const) {
          if ((await s.page.evaluate(() => document.documentElement.lang)) !== lang)
            await s.page
              .getByRole('button', { name: lang === 'fil' ? 'Switch to Filipino' : 'Lumipat sa English' })
              .click();
          await expect.poll(() => s.page.evaluate(() => document.documentElement.lang)).toBe(lang);
          for (const width of [375, 1280]) {
            await s.page.setViewportSize({ width, height: 900 });
            await s.page.getByTestId('evidence-rejected').waitFor({ timeout: 30_000 });
            expect(await s.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
              width,
            );
            await screenshot(
              s.page,
              `right-of-reply-social-owner-${lang}-${width}-${dark ? 'dark' : 'light'}`,
            );
          }
        }
        expect(s.errors).toEqual([]);
        await s.context.close();
      }
    }

    // 4. Sent again and approved: verified by review.
    const second = await evidence({ note: 'Now the code is in the Intro, see again.' });
    expect(second.error).toBeNull();
    const approved = await decide((second.data as { id: string }).id, true);
    expect(approved.error).toBeNull();
    expect(approved.data).toMatchObject({ decision: 'approved', proof: { live: true, method: 'review' } });

    // 5. Statements on both; the legacy search says how each was proved.
    for (const [identifier, verifiedBy] of [
      [`t.me/${tg}`, 'bio'],
      [`facebook.com/${fb}`, 'review'],
    ]) {
      const set = await owner.client.rpc('set_owner_statement', {
        identifier,
        body: 'This is the account of Aling Nena Sari-Sari Store; we never ask for deposits.',
      });
      expect(set.error).toBeNull();
      const search = await api<{ ownerStatements: Record<string, unknown>[] }>(
        'GET',
        `/search/${encodeURIComponent(`https://${identifier}`)}`,
        { headers: { 'x-forwarded-for': address() } },
      );
      expect(search.status).toBe(200);
      expect(search.body.ownerStatements).toEqual([expect.objectContaining({ verifiedBy })]);
    }
    expect(errors).toEqual([]);
    await context.close();
  }, 180_000);
});

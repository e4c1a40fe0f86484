/**
 * The results page of an identifier whose owner answered (issue 32): reported once, not yet reviewed,
 * and the owner's statement (ownership verified by SMS) in a card of the same weight as the summary.
 * Screenshots at 375 and 1280 px, light and dark, English and Filipino (tests/artifacts/owner-answer-*).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { adminPool } from '../../supabase/tests/helpers.ts';
import { createUser, fileReport, run } from '../../supabase/tests/db/actors.ts';
import { launchBrowser, newTrackedPage, screenshot } from './helpers.ts';

let browser: Browser;
const local = `0917${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
const e164 = `+63${local.slice(1)}`;
const STATEMENT =
  'This number belongs to Aling Nena Sari-Sari Store in Marikina. We sell only in the shop and never ask for GCash deposits.';

beforeAll(async () => {
  browser = await launchBrowser();
  // The owner confirmed the number through Auth's phone change minutes ago (tested in ownership-sms.test.ts).
  const owner = await createUser('Store owner');
  await adminPool().query(`update auth.users set phone = $2, phone_confirmed_at = now() where id = $1`, [
    owner.id,
    e164.slice(1),
  ]);
  await run(owner, `select public.claim_phone_ownership('mobile', $1)`, [local]);
  await run(owner, 'select public.set_owner_statement($1, $2)', [e164, STATEMENT]);
  await fileReport(await createUser('Reporter'), { reported_account: local });
});

afterAll(async () => {
  await browser?.close();
});

describe("results page with an owner's answer", () => {
  for (const language of ['en', 'fil'] as const) {
    for (const dark of [false, true]) {
      it(`${language} ${dark ? 'dark' : 'light'}, 375 and 1280 px`, async () => {
        const { page, context, errors } = await newTrackedPage(browser, { width: 375, height: 900, dark });
        if (language === 'fil') await context.addInitScript(() => localStorage.setItem('language', 'fil'));
        // One page load per language and theme (the first one waits for Vite to bundle the page).
        await page.goto(`/search/${local}`, { timeout: 90_000 });
        for (const width of [375, 1280]) {
          await page.setViewportSize({ width, height: 900 });
          const answer = page.getByTestId('owner-answer');
          await answer.waitFor({ timeout: 30_000 });
          expect(await answer.textContent()).toContain(STATEMENT);
          expect(await answer.textContent()).toContain(
            language === 'fil'
              ? 'Napatunayang may-ari sa pamamagitan ng SMS code'
              : 'Ownership verified by SMS code',
          );
          expect(await page.locator('#search-headline').textContent()).toContain(
            language === 'fil' ? 'hindi pa nasusuri' : 'not yet reviewed',
          );
          // Nothing sticks out sideways on a phone.
          expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
          await screenshot(page, `owner-answer-${language}-${width}-${dark ? 'dark' : 'light'}`);
        }
        expect(errors).toEqual([]);
        await context.close();
      }, 120_000);
    }
  }
});

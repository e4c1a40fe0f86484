/// <reference lib="dom" />
/**
 * Issue 30's screens in a browser: /check with a scam message (text rules, a look-alike link, a
 * reported Facebook page) and the results page of that reported Facebook page, in English and
 * Filipino, at 375 and 1280 px, light and dark. Each screen must fit its width and speak the page's
 * language. CI takes two of the sixteen (English light at 375 px, Filipino dark at 1280 px) to stay
 * fast; `SCREENSHOTS=1` takes all sixteen into tests/artifacts/ to look at.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { adminPool } from '../../supabase/tests/helpers.ts';
import { appUrl, launchBrowser, newTrackedPage, screenshot } from './helpers.ts';

const page_ = `GCashPromoOfficial${String(Date.now()).slice(-6)}`;
const canonical = `facebook.com/${page_.toLowerCase()}`;
const MESSAGE = [
  'Congratulations! Nanalo ka ng P15,000 sa GCash anniversary raffle.',
  `Para ma-claim, i-message ang aming page https://www.facebook.com/${page_} within 24 hours`,
  'at ibigay ang 6-digit code na matatanggap mo. Huwag sabihin kahit kanino!',
  'Or claim at gcash-rewards-ph.top/claim',
].join(' ');

type Lang = 'en' | 'fil';
const ALL: [Lang, number, boolean][] = (['en', 'fil'] as const).flatMap((lang) =>
  [375, 1280].flatMap((width) => [false, true].map((dark): [Lang, number, boolean] => [lang, width, dark])),
);
const CASES: [Lang, number, boolean][] = process.env.SCREENSHOTS
  ? ALL
  : [
      ['en', 375, false],
      ['fil', 1280, true],
    ];

/** The words that tell which language a screen is in. */
const WORDS = {
  en: { checkVerdict: 'Likely a scam', results: /^Reported 2 times/ },
  fil: { checkVerdict: 'Malamang na scam', results: /^Naiulat nang 2 beses/ },
};

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
  await adminPool().query(
    `insert into public.reports (incident_date, incident_type, reported_account_type, reported_account, status, created_at)
     values (current_date - 3, 'scam', 'social', $1, 'verified', now() - interval '2 days'),
            (current_date - 2, 'scam', 'social', $1, 'verified', now() - interval '1 day')`,
    [`https://www.facebook.com/${page_}`],
  );
});

afterAll(async () => {
  await browser?.close();
});

async function fits(page: Page, width: number): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

describe('issue 30 screens', () => {
  it.each(CASES)('/check and a Facebook page results, %s at %i px (dark: %s)', async (lang, width, dark) => {
    const { page, context, errors } = await newTrackedPage(browser, { width, height: 900, dark });
    await context.addInitScript((l) => localStorage.setItem('language', l), lang);
    const name = `issue30-${lang}-${width}-${dark ? 'dark' : 'light'}`;

    await page.goto(appUrl(`/check?text=${encodeURIComponent(MESSAGE)}`), { timeout: 90_000 });
    await page.getByText(WORDS[lang].checkVerdict).first().waitFor({ timeout: 45_000 });
    await page.locator(`[aria-label$="${canonical}"]`).getByText(/2/).first().waitFor({ timeout: 45_000 });
    expect(await page.evaluate(() => document.documentElement.lang)).toBe(lang);
    await fits(page, width);
    await screenshot(page, `${name}-check`);

    await page.goto(appUrl(`/search/${encodeURIComponent(`https://www.facebook.com/${page_}`)}`), {
      timeout: 90_000,
    });
    const headline = page.locator('main [data-headline] h2');
    await expect.poll(() => headline.textContent(), { timeout: 45_000 }).toMatch(WORDS[lang].results);
    // the page names the account searched (as written or canonical, whatever its case)
    await expect
      .poll(async () => (await page.locator('main').textContent())?.toLowerCase())
      .toContain(canonical);
    await fits(page, width);
    await screenshot(page, `${name}-results`);
    expect(errors).toEqual([]);
    await context.close();
  });
});

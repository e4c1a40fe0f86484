/**
 * The public /developers page in a real browser (issue 14): it renders the served OpenAPI document's
 * operations, links the document, the API keys page and the open-data files, and reads well at 375
 * and 1280 px, light and dark, with no console errors and no serious axe violations.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { adminPool } from '../../supabase/tests/helpers.ts';
import { appUrl, launchBrowser, newTrackedPage, screenshot } from './helpers.ts';

let browser: Browser;
const digits = String(Math.floor(Math.random() * 1e7)).padStart(7, '0');

beforeAll(async () => {
  browser = await launchBrowser();
  // Two reports of one number, which the page's range-lookup demo then finds.
  await adminPool().query(
    `insert into public.reports (incident_date, incident_type, reported_account_type, reported_account, status)
     select current_date, 'scam', 'mobile', $1, 'verified' from generate_series(1, 2)`,
    [`0998${digits}`],
  );
});

afterAll(async () => {
  await browser?.close();
});

async function openDevelopers(page: Page) {
  await page.goto(appUrl('/developers'));
  await page.locator('main h1', { hasText: 'ScamCheck for developers' }).waitFor({ timeout: 45_000 });
  // The list of calls comes from the served OpenAPI document.
  await page.getByRole('heading', { name: 'Reports', exact: true }).waitFor({ timeout: 30_000 });
}

describe('/developers', () => {
  it('lists every call of the served document and links the document, keys and open data', async () => {
    const { page, context, errors } = await newTrackedPage(browser);
    try {
      await openDevelopers(page);
      const served = (await (
        await fetch((await page.getByRole('link', { name: 'openapi.json' }).getAttribute('href')) ?? '')
      ).json()) as {
        paths: Record<string, Record<string, unknown>>;
      };
      const count = Object.values(served.paths).reduce((n, ops) => n + Object.keys(ops).length, 0);
      const main = page.locator('main');
      for (const p of Object.keys(served.paths)) await main.getByText(p, { exact: true }).first().waitFor();
      expect(await main.locator('li code.w-16').count()).toBe(count);
      expect(await page.getByRole('link', { name: 'API keys' }).getAttribute('href')).toBe(
        '/dashboard/api-keys',
      );
      expect(await page.getByRole('link', { name: 'reports-daily.csv' }).getAttribute('href')).toMatch(
        /\/storage\/v1\/object\/public\/open-data\/reports-daily\.csv$/,
      );
      // The feeds (issue 34): each file is linked, and the TAXII discovery answers.
      expect(await page.getByRole('link', { name: 'list.txt' }).getAttribute('href')).toMatch(
        /\/storage\/v1\/object\/public\/feeds\/clear\/list\.txt$/,
      );
      const discovery = await fetch(
        (await page.getByRole('link', { name: 'taxii2/' }).getAttribute('href')) ?? '',
        {
          headers: { accept: 'application/taxii+json;version=2.1' },
        },
      );
      expect(discovery.headers.get('content-type')).toBe('application/taxii+json;version=2.1');
      // The demo sends only the hash's first 5 characters and finds the number's 2 reports.
      const sent: string[] = [];
      page.on('request', (r) => sent.push(r.url()));
      await page.getByLabel('Try it: an identifier').fill(`0998 ${digits.slice(0, 3)} ${digits.slice(3)}`);
      await page.getByRole('button', { name: 'Check privately' }).click();
      await expect
        .poll(() => page.getByTestId('range-result').textContent(), { timeout: 15_000 })
        .toMatch(
          /Sent only [0-9a-f]{5} \(of the hash of \+63998\d{7}\)\. 2 reports, risk \d+ \((low|medium|high)\)\./,
        );
      expect(sent.filter((u) => u.includes('/range/'))).toEqual([
        expect.stringMatching(/\/range\/[0-9a-f]{5}$/),
      ]);
      expect(sent.join(' ')).not.toContain(digits);
      const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
      expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('looks right at 375 and 1280 px, light and dark', async () => {
    for (const dark of [false, true]) {
      for (const width of [375, 1280]) {
        const { page, context, errors } = await newTrackedPage(browser, { width, dark });
        try {
          await openDevelopers(page);
          await screenshot(page, `developers-${width}-${dark ? 'dark' : 'light'}`);
          expect(errors).toEqual([]);
        } finally {
          await context.close();
        }
      }
    }
  });
});

/**
 * The public /developers page in a real browser (issue 14): it renders the served OpenAPI document's
 * operations, links the document, the API keys page and the open-data files, and reads well at 375
 * and 1280 px, light and dark, with no console errors and no serious axe violations.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { appUrl, launchBrowser, newTrackedPage, screenshot } from './helpers.ts';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
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

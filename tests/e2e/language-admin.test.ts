/**
 * Issue 15 in a browser, for the public data and admin pages: /statistics and the admin's pending
 * reports in Filipino at 375 and 1280 px, light and dark, screenshotted and checked for text that
 * runs wider than the screen (Filipino runs longer than English).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { adminPool } from '../../supabase/tests/helpers.ts';
import { createUser, type TestUser } from '../../supabase/tests/functions/helpers.ts';
import { appUrl, launchBrowser, newTrackedPage, screenshot } from './helpers.ts';

let browser: Browser;
let admin: TestUser;
/** The admin's stored session after the first login, so the other sizes open the admin page directly. */
let session: { name: string; value: string }[] | null = null;

beforeAll(async () => {
  browser = await launchBrowser();
  // An admin of its own who reads Filipino (their profile decides the language once signed in).
  admin = await createUser('fil-admin', { admin: true, name: 'Liza' });
  await adminPool().query(`update public.profiles set language = 'fil' where id = $1`, [admin.id]);
});
afterAll(async () => {
  await browser?.close();
});

async function overflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

/** The innermost elements that stick out to the right, to name the culprit when overflow fails. */
async function sticksOut(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll('body *'))
      .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
      .filter(
        (e) => !Array.from(e.children).some((c) => c.getBoundingClientRect().right > window.innerWidth + 1),
      )
      .slice(0, 5)
      .map(
        (e) =>
          `${e.tagName.toLowerCase()}.${String(e.className).slice(0, 80)}: ${e.textContent?.slice(0, 40)}`,
      ),
  );
}

describe('Filipino public data and admin pages', () => {
  for (const width of [375, 1280]) {
    for (const dark of [false, true]) {
      const look = `${width}-${dark ? 'dark' : 'light'}`;
      it(`/statistics and the admin's pending reports at ${width}px ${dark ? 'dark' : 'light'}`, async () => {
        const { page, context, errors } = await newTrackedPage(browser, { width, dark });
        try {
          await context.addInitScript(() => localStorage.setItem('language', 'fil'));
          if (session)
            await context.addInitScript((items) => {
              for (const { name, value } of items) localStorage.setItem(name, value);
            }, session);
          await page.goto(appUrl('/statistics'));
          await page.locator('main h1', { hasText: 'Estadistika ng scam' }).waitFor({ timeout: 45_000 });
          await page.getByTestId('stats-totals').waitFor({ timeout: 30_000 });
          await page.locator('.recharts-surface').first().waitFor({ timeout: 30_000 });
          await page.waitForLoadState('networkidle');
          await screenshot(page, `fil-statistics-${look}`);
          expect(await overflow(page)).toBeLessThanOrEqual(0);

          if (!session) {
            await page.goto(appUrl('/login'));
            await page.getByLabel('Email').fill(admin.email);
            await page.getByLabel('Password').fill(admin.password);
            await page.getByRole('button', { name: 'Mag-login' }).click();
            await page.waitForURL(/\/dashboard/, { timeout: 20_000 });
            const origin = new URL(appUrl('/')).origin;
            session =
              (await context.storageState()).origins.find((o) => o.origin === origin)?.localStorage ?? null;
          }
          await page.goto(appUrl('/dashboard/admin/pending-reports'));
          await page.getByRole('heading', { name: 'Mga report na naghihintay' }).waitFor({ timeout: 30_000 });
          // The review workspace (issue 31): the backlog line once the queue has loaded.
          await page.getByTestId('backlog').waitFor({ timeout: 30_000 });
          await page.waitForLoadState('networkidle');
          await screenshot(page, `fil-admin-pending-${look}`);
          expect(await overflow(page), (await sticksOut(page)).join('\n')).toBeLessThanOrEqual(0);
          expect(errors.filter((e) => e.startsWith('uncaught'))).toEqual([]);
        } finally {
          await context.close();
        }
      }, 180_000);
    }
  }
});

/// <reference lib="dom" />
/**
 * Visits and search locations in a real browser (issue 19): every page view counts one visit, and a
 * search made in the app is logged with the country the server resolves from the caller's address.
 * The browser's calls reach the stack from 127.0.0.1, which locates nowhere; the test routes them
 * through a Philippine address the way a proxy in front of Supabase would, by adding X-Forwarded-For
 * (the functions take the right-most public entry, the one the edge saw).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { adminPool, stackEnv, unique } from '../../supabase/tests/helpers.ts';
import { appUrl, launchBrowser, newTrackedPage } from './helpers.ts';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

/** Polls `read` until it returns a value `done` accepts (the views go out in batches a few seconds apart). */
async function eventually<T>(
  read: () => Promise<T>,
  done: (v: T) => boolean,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 250));
    value = await read();
  }
  return value;
}

describe('visits and search locations', () => {
  it('three pages visited add three visits; an app search records the country', async () => {
    // A Philippine address of this test's own (Globe's 112.198.0.0/16 is PH in GeoLite2).
    const ip = `112.198.${Math.floor(Math.random() * 250) + 1}.${Math.floor(Math.random() * 250) + 1}`;
    // The keyed hash the server stores for that address, learned the way any client could cause it.
    const marker = `/${unique('visits-marker')}`;
    const mark = await fetch(
      `${stackEnv('API_URL')}/functions/v1/api/v1/visitor?path=${encodeURIComponent(marker)}`,
      {
        headers: { 'x-forwarded-for': ip },
      },
    );
    expect(mark.status).toBe(200);
    const { rows: markRows } = await adminPool().query<{ ip_hash: string; country: string }>(
      'select ip_hash, country from public.visitor_log where path = $1',
      [marker],
    );
    expect(markRows).toEqual([{ ip_hash: expect.stringMatching(/^[0-9a-f]{32}$/), country: 'PH' }]);
    const ipHash = markRows[0].ip_hash;
    const visits = async () =>
      (
        await adminPool().query<{ path: string; country: string }>(
          'select path, country from public.visitor_log where ip_hash = $1 and path <> $2 order by created_at, path',
          [ipHash, marker],
        )
      ).rows;

    const { page, context, errors } = await newTrackedPage(browser);
    try {
      await context.route('**/functions/v1/**', (route) =>
        route.continue({ headers: { ...route.request().headers(), 'x-forwarded-for': ip } }),
      );
      await page.goto(appUrl('/'));
      await page.locator('main h1').filter({ hasText: 'Is it a Scam?' }).waitFor({ timeout: 45_000 });
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'About' }).click();
      await page.locator('main h1').filter({ hasText: 'About ScamCheck' }).waitFor({ timeout: 45_000 });
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'News' }).click();
      await page.locator('main h1').filter({ hasText: 'Scam news' }).waitFor({ timeout: 45_000 });

      const three = await eventually(visits, (v) => v.length >= 3);
      expect(three).toEqual([
        { path: '/', country: 'PH' },
        { path: '/about', country: 'PH' },
        { path: '/news', country: 'PH' },
      ]);

      // A search from the home page: one more view for each page, and the search carries the country.
      const searched = `0917${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
      await page.getByRole('link', { name: 'ScamCheck' }).first().click();
      await page.getByRole('textbox', { name: /Number, e-mail/ }).fill(searched);
      await page.getByRole('button', { name: 'Search' }).click();
      await page.waitForURL(/\/search\//);
      await page.locator('main h1').filter({ hasText: 'Search results' }).waitFor({ timeout: 45_000 });
      const logged = await eventually(
        async () =>
          (
            await adminPool().query(
              'select country, ip_hash from public.search_log where search_string = $1',
              [searched],
            )
          ).rows,
        (rows) => rows.length > 0,
      );
      expect(logged).toEqual([{ country: 'PH', ip_hash: ipHash }]);
      const five = await eventually(visits, (v) => v.length >= 5);
      expect(five.map((v) => v.path)).toEqual(['/', '/about', '/news', '/', `/search/${searched}`]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 180_000);
});

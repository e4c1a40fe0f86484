/**
 * Issue 15 in a browser: the header switch turns the site to Filipino without changing the URL, the
 * choice survives a reload, a visitor who registers in Filipino receives the Filipino confirmation
 * e-mail, and screenshots of home and results in Filipino at 375 and 1280 px, light and dark.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { unique } from '../../supabase/tests/helpers.ts';
import { appUrl, latestMailTo, launchBrowser, newTrackedPage, screenshot } from './helpers.ts';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('Filipino', () => {
  it('switch, reload, register, and a Filipino e-mail arrives', async () => {
    const { page, context, errors } = await newTrackedPage(browser);
    await page.goto(appUrl('/'));
    await page.getByRole('heading', { name: 'Is it a Scam?' }).waitFor();
    await page.getByRole('button', { name: 'Switch to Filipino' }).click();
    await page.getByRole('heading', { name: 'Scam ba ito?' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('fil');

    await page.reload();
    await page.getByRole('heading', { name: 'Scam ba ito?' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('fil');

    const email = `${unique('fil')}@example.com`;
    await page.goto(appUrl('/register'));
    await page.getByLabel('Pangalan').fill('Juan dela Cruz');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('correct horse battery');
    const sentAt = new Date(Date.now() - 1000);
    await page.getByRole('button', { name: 'isumite' }).click();
    await page.waitForURL(/\/two-factor-authentication\//);
    const mail = await latestMailTo(email, { after: sentAt });
    expect(mail.subject).toBe('Ang iyong ScamCheck confirmation code');
    expect(mail.html).toContain('Maligayang pagdating sa ScamCheck, Juan dela Cruz!');
    expect(errors).toEqual([]);
    await context.close();
  });

  for (const width of [375, 1280]) {
    for (const dark of [false, true]) {
      it(`home and results in Filipino at ${width}px ${dark ? 'dark' : 'light'}`, async () => {
        const { page, context } = await newTrackedPage(browser, { width, dark });
        await context.addInitScript(() => localStorage.setItem('language', 'fil'));
        await page.goto(appUrl('/'));
        await page.getByRole('heading', { name: 'Scam ba ito?' }).waitFor();
        await page.waitForLoadState('networkidle');
        await screenshot(page, `fil-home-${width}-${dark ? 'dark' : 'light'}`);
        await page.goto(appUrl('/search/09171234567'));
        await page.getByRole('heading', { name: 'Resulta ng paghahanap' }).waitFor();
        await page.waitForLoadState('networkidle');
        await screenshot(page, `fil-results-${width}-${dark ? 'dark' : 'light'}`);
        // Nothing wider than the viewport (Filipino runs longer than English).
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow).toBeLessThanOrEqual(0);
        await context.close();
      });
    }
  }
});

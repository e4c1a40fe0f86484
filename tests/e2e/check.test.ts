/// <reference lib="dom" />
/**
 * Checking a whole message in a real browser (issue 13): a scam text pasted into the home page's
 * search box opens /check with every identifier, its reports and signals; a signed-out visitor who
 * reports from a row logs in, comes back to the same check and files the report from the prefilled
 * form; the identifiers are looked up privately (only 5 hex characters of each hash leave the page);
 * the Web Share Target's URL opens the check; screenshots at 375 and 1280 px, light and dark.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { adminPool } from '../../supabase/tests/helpers.ts';
import { appUrl, launchBrowser, newTrackedPage, screenshot } from './helpers.ts';

const USER = { email: 'user@scamcheck.local', password: 'scamcheck-user' };
const digits = String(Date.now()).slice(-7);
const reported = `0918 ${digits.slice(0, 3)} ${digits.slice(3)}`;
const reportedCanonical = `+63918${digits}`;
const MESSAGE = [
  'BDO: Your account is on hold due to suspicious activity.',
  'Verify now at hxxps://bdo-secure-login[.]top/verify or contact our officer at ' + reported + '.',
  'OTP 482910. Official site: www.bdo.com.ph',
].join('\n');

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
  await adminPool().query(
    `insert into public.reports (incident_date, incident_type, reported_account_type, reported_account, status, created_at)
     values (current_date - 3, 'scam', 'mobile', $1, 'verified', now() - interval '2 days'),
            (current_date - 2, 'scam', 'mobile', $1, 'verified', now() - interval '1 day')`,
    [reported.replace(/\s/g, '')],
  );
});

afterAll(async () => {
  await browser?.close();
});

/** The rows of the check, as "kind canonical" (their accessible names). */
async function rows(page: Page): Promise<string[]> {
  const list = page.getByRole('listitem').filter({ has: page.getByRole('button', { name: 'Report this' }) });
  await list.first().waitFor({ timeout: 45_000 });
  return list.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''));
}

describe('check a message', () => {
  it('paste -> results -> report from a row, through logging in and back', async () => {
    const { page, errors } = await newTrackedPage(browser);
    const sent: string[] = [];
    page.on('request', (r) => sent.push(`${r.method()} ${r.url()} ${r.postData() ?? ''}`));
    await page.goto(appUrl('/'));
    const box = page.getByRole('textbox', { name: /whole message/ });
    await box.fill(MESSAGE);
    await box.press('Enter');
    await page.waitForURL((u) => u.pathname === '/check');
    expect(await rows(page)).toEqual([
      `Website bdo-secure-login.top`,
      `Mobile No. ${reportedCanonical}`,
      'Website bdo.com.ph',
    ]);
    // the message stays out of the address bar
    expect(new URL(page.url()).search).toBe('');

    const site = page.getByRole('listitem', { name: 'Website bdo-secure-login.top' });
    await expect(site.getByText(/not one of BDO's own websites/).isVisible()).resolves.toBe(true);
    const phone = page.getByRole('listitem', { name: `Mobile No. ${reportedCanonical}` });
    await expect(phone.getByText(/Reported 2 times/).isVisible()).resolves.toBe(true);
    expect(
      await page.getByRole('listitem', { name: 'Website bdo.com.ph' }).locator('[data-signal]').count(),
    ).toBe(0);
    await expect(page.getByText('Likely a scam').isVisible()).resolves.toBe(true);

    // Looked up privately: one range request per identifier (5 hex characters each), no identifier
    // and no part of the message in any request, and the page says so.
    const ranges = sent.filter((r) => r.includes('/api/v1/range/'));
    expect(ranges).toHaveLength(3);
    expect(ranges.every((r) => /^GET \S+\/api\/v1\/range\/[0-9a-f]{5} $/.test(r))).toBe(true);
    expect(sent.filter((r) => r.includes('check_identifiers'))).toEqual([]);
    for (const secret of ['bdo-secure-login', digits, 'bdo.com.ph', 'on hold'])
      expect(sent.filter((r) => r.includes(secret))).toEqual([]);
    expect(await phone.getByTestId('sent-prefix').textContent()).toMatch(/^only [0-9a-f]{5}, the start/);
    await expect(page.getByText(/Your message stayed on this device\./).isVisible()).resolves.toBe(true);

    // signed out: log in, then back to the same check
    await phone.getByRole('button', { name: 'Report this' }).click();
    await page.waitForURL(/\/login\?redirectTo=/);
    await page.getByLabel('Email').fill(USER.email);
    await page.getByLabel('Password').fill(USER.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL((u) => u.pathname === '/check', { timeout: 30_000 });
    expect(await rows(page)).toEqual([
      `Website bdo-secure-login.top`,
      `Mobile No. ${reportedCanonical}`,
      'Website bdo.com.ph',
    ]);

    await page
      .getByRole('listitem', { name: `Mobile No. ${reportedCanonical}` })
      .getByRole('button', { name: 'Report this' })
      .click();
    await page.waitForURL((u) => u.pathname === '/dashboard/add-report', { timeout: 30_000 });
    const account = page.getByLabel('Reported account', { exact: true });
    await account.waitFor({ timeout: 30_000 });
    expect(await account.inputValue()).toBe(reportedCanonical);
    const description = page.getByLabel('Incident description');
    expect(await description.inputValue()).toBe(MESSAGE);
    await screenshot(page, 'check-report-prefilled-1280-light');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('opens from the Web Share Target URL the manifest declares', async () => {
    const { page, errors } = await newTrackedPage(browser, { width: 375, height: 800 });
    const manifest = await (await fetch(appUrl('/manifest.webmanifest'))).json();
    // A POST with files since screenshots can be shared (issue 35): the service worker turns the text
    // fields into this same /check?title=&text=&url= (tests/e2e/check-image.test.ts shares an image).
    expect(manifest.share_target).toMatchObject({
      action: '/check',
      method: 'POST',
      enctype: 'multipart/form-data',
      params: { title: 'title', text: 'text', url: 'url' },
    });
    expect(manifest.icons.map((i: { sizes: string }) => i.sizes)).toEqual(
      expect.arrayContaining(['192x192', '512x512']),
    );
    const shared = new URL(manifest.share_target.action, appUrl('/'));
    shared.searchParams.set('title', 'Globe Rewards');
    shared.searchParams.set('text', 'Your 5,000 points expire today! Redeem now');
    shared.searchParams.set('url', 'https://globe-rewards.com.ph-redeem.icu/claim');
    await page.goto(shared.toString());
    expect(await rows(page)).toEqual(['Website globe-rewards.com.ph-redeem.icu']);
    await expect(
      page
        .getByText(/uses the name "globe"|contains "globe"/)
        .first()
        .isVisible(),
    ).resolves.toBe(true);
    expect(await page.getByRole('textbox', { name: 'Message' }).inputValue()).toBe(
      'Globe Rewards\nYour 5,000 points expire today! Redeem now\nhttps://globe-rewards.com.ph-redeem.icu/claim',
    );
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it.each([
    [375, false],
    [375, true],
    [1280, false],
    [1280, true],
  ])('screenshots /check at %i px (dark: %s)', async (width, dark) => {
    const { page, errors } = await newTrackedPage(browser, { width, height: 900, dark });
    await page.goto(appUrl(`/check?text=${encodeURIComponent(MESSAGE)}`));
    await rows(page);
    const file = await screenshot(page, `check-${width}-${dark ? 'dark' : 'light'}`);
    expect(file).toMatch(/\.png$/);
    // nothing wider than the screen
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});

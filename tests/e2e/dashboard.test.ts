/**
 * The dashboard in a real browser against the local test stack (issue 7): a new user signs up with the
 * e-mailed code, files, edits and deletes a report with evidence, sees it in My Reports, in search and
 * in stats, and is notified when someone else reports an identifier they watch; the seeded admin
 * verifies the report, adds, edits and deletes news (the public news page follows at once) and reads a
 * contact message; a plain user is kept out of the admin pages and sees their unread notifications
 * counted on the sidebar. Screenshots at 375, 992 and 1280 px, light and dark, go to tests/artifacts/.
 *
 * The tests share one browser and run in order: each builds on what the previous one left behind.
 */
import { createClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appUrl,
  latestMailTo,
  latestOtpCode,
  launchBrowser,
  newTrackedPage,
  screenshot,
  type TrackedPage,
} from './helpers';

const ADMIN = { email: 'admin@scamcheck.local', password: 'scamcheck-admin' };
const OTHER_USER = { email: 'user@scamcheck.local', password: 'scamcheck-user' };

const run = Date.now().toString(36);
const digits = String(Date.now()).slice(-7);
const newUser = {
  name: `Maria Santos ${run}`,
  email: `dash-${run}@example.com`,
  password: `Pw-${run}-secret`,
};
/** The number the new user reports, typed the way people write it. */
const reportedNumber = `0917 ${digits.slice(0, 3)} ${digits.slice(3)}`;
const reportedCanonical = `+63917${digits}`;
/** The site the new user watches in Notify Me and the seeded user then reports. */
const watchedSite = `gcash-promo-${run}.example.ph`;

/** Waits for a condition the way a user would: the machine running the tests may be busy. */
function eventually<T>(read: () => T | Promise<T>, timeout = 15_000) {
  return expect.poll(read, { timeout, interval: 200 });
}

let browser: Browser;
let userTab: TrackedPage;
let evidencePng: Buffer;

/** Chromium's own rendering as a real, small PNG for the evidence and banner uploads. */
async function makePng(page: Page): Promise<Buffer> {
  await page.setContent(
    '<body style="margin:0"><div style="width:64px;height:48px;background:linear-gradient(90deg,#c00,#fc0)"></div>',
  );
  return page.screenshot({ clip: { x: 0, y: 0, width: 64, height: 48 } });
}

async function login(page: Page, { email, password }: { email: string; password: string }) {
  await page.goto(appUrl('/login'));
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL(/\/dashboard/, { timeout: 20_000 });
}

/**
 * Records every request the page sends to Supabase (to show that refused forms send nothing); the
 * page views the app counts in the background (POST /functions/v1/visitor) are not a form's.
 */
function recordApiRequests(page: Page): string[] {
  const sent: string[] = [];
  const api = process.env.STACK_API_URL!;
  page.on('request', (req) => {
    const pageView = new URL(req.url()).pathname === '/functions/v1/visitor';
    if (
      req.url().startsWith(api) &&
      !pageView &&
      req.method() !== 'GET' &&
      req.method() !== 'OPTIONS' &&
      req.method() !== 'HEAD'
    ) {
      sent.push(`${req.method()} ${new URL(req.url()).pathname}`);
    }
  });
  return sent;
}

/**
 * Moves within the single-page app as its links do (history + popstate), without reloading, so the
 * query cache survives: a page then shows what the app kept unless a change invalidated it.
 */
async function navigateInApp(page: Page, path: string) {
  await page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await page.waitForURL((url) => url.pathname === path);
}

/** A supabase-js client signed in as `who`, as the app holds it (for arranging data through the API). */
async function apiClientAs(who: { email: string; password: string }) {
  const client = createClient(process.env.STACK_API_URL!, process.env.STACK_ANON_KEY!, {
    auth: { persistSession: false, autoRefreshToken: false },
    // Node 20 has no global WebSocket, which supabase-js needs to construct its (unused) realtime client.
    realtime: { transport: WebSocket as never },
  });
  const { error } = await client.auth.signInWithPassword(who);
  expect(error).toBeNull();
  return client;
}

/**
 * Other people report the watched site again (each report notifies its watchers). One account filing
 * the same identifier again is refused as a duplicate (issue 11), so the service role files these as
 * reports of accounts that no longer exist.
 */
async function reportWatchedSiteAgain(times: number) {
  const other = createClient(process.env.STACK_API_URL!, process.env.STACK_SERVICE_ROLE_KEY!, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: WebSocket as never },
  });
  const rows = Array.from({ length: times }, (_, i) => ({
    incident_date: new Date().toISOString().slice(0, 10),
    incident_type: 'spam',
    reported_account_type: 'website',
    reported_account: `https://${watchedSite}/offer-${Date.now().toString(36)}-${i}`,
    incident_description: 'The same fake promo page under a new link.',
  }));
  const { error } = await other.from('reports').insert(rows);
  expect(error).toBeNull();
}

/** Sets the page's theme with the top bar's toggle (the choice is kept in localStorage darkTheme). */
async function setTheme(page: Page, dark: boolean) {
  if ((await page.evaluate(() => document.documentElement.classList.contains('dark'))) !== dark) {
    await page.getByRole('button', { name: /Switch to (dark|light) theme/ }).click();
  }
}

/** Records window.open instead of leaving for the internet (the complaint site is outside the test). */
async function stubWindowOpen(tab: TrackedPage) {
  await tab.context.addInitScript(() => {
    const opened: string[] = [];
    (window as unknown as { __opened: string[] }).__opened = opened;
    window.open = ((url?: string | URL) => {
      opened.push(String(url));
      return null;
    }) as typeof window.open;
  });
}

beforeAll(async () => {
  browser = await launchBrowser();
  userTab = await newTrackedPage(browser, { width: 1280, height: 900 });
  await stubWindowOpen(userTab);
  evidencePng = await makePng(userTab.page);
});

afterAll(async () => {
  await browser?.close();
});

describe('dashboard', () => {
  it('sends signed-out visitors to /login, and a new user in after signing up with the e-mailed code', async () => {
    const { page } = userTab;
    await page.goto(appUrl('/dashboard/all-reports'));
    await page.waitForURL(/\/login\?redirectTo=%2Fdashboard%2Fall-reports/);

    await page.goto(appUrl('/register'));
    await page.getByLabel('Name').fill(newUser.name);
    await page.getByLabel('Email').fill(newUser.email);
    await page.getByLabel('Password').fill(newUser.password);
    const sentAt = new Date(Date.now() - 1000);
    await page.getByRole('button', { name: 'submit' }).click();
    await page.waitForURL(/\/two-factor-authentication\//);
    const code = await latestOtpCode(newUser.email, { after: sentAt });
    await page.getByLabel('One-time password').fill(code);
    await page.getByRole('button', { name: 'submit' }).click();
    await eventually(() => page.getByText('Email Confirmed').count()).toBeGreaterThan(0);
    // Confirming the code may already sign the user in (Supabase returns a session); otherwise log in.
    await page.goto(appUrl('/dashboard'));
    await page.waitForURL(/\/(login|dashboard)/);
    await page.waitForLoadState('networkidle');
    if (new URL(page.url()).pathname === '/login') await login(page, newUser);
    await eventually(() => page.getByTestId('greeting').innerText()).toBe(`Hello, ${newUser.name}`);
    // No avatar yet: the default icon, and no admin entries for a plain user.
    await eventually(() => page.getByRole('link', { name: 'My Reports', exact: true }).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Admin', exact: true }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Add News' }).count()).toBe(0);
  });

  it('refuses a file that is no image and sends nothing; shrinks an image over 500,000 bytes on the device; files the report with both', async () => {
    const { page } = userTab;
    const sent = recordApiRequests(page);
    await page.goto(appUrl('/dashboard'));
    await page.getByLabel('Reported account', { exact: true }).fill(reportedNumber);
    await page.waitForLoadState('networkidle');
    // From here on only the form's own requests count (the page load records a visit).
    sent.length = 0;
    await page
      .getByLabel('Incident description')
      .fill('Texted me that my parcel was held and asked for a fee through GCash.');
    await page.getByLabel('Location').fill('Quezon City');
    await page.getByLabel('Amount lost in pesos (optional)').fill('1500');

    const evidence = page.getByLabel('Evidence (up to 5 screenshots)');
    await evidence.setInputFiles({
      name: 'fake.png',
      mimeType: 'image/png',
      buffer: Buffer.from('#!/bin/sh\necho not an image\n'),
    });
    await eventually(() => page.getByText('This image could not be read', { exact: false }).count()).toBe(1);
    expect(await page.getByTestId('image-size').count()).toBe(0);

    // Issue 33: an image over the server's 500,000 bytes is made smaller on the device, not refused.
    const oversize = Buffer.concat([evidencePng, Buffer.alloc(500_001 - evidencePng.length)]);
    await evidence.setInputFiles([
      { name: 'evidence.png', mimeType: 'image/png', buffer: evidencePng },
      { name: 'big.png', mimeType: 'image/png', buffer: oversize },
    ]);
    await eventually(() => page.getByTestId('image-size').count()).toBe(2);
    expect(await page.getByText('This image could not be read', { exact: false }).count()).toBe(0);
    const sizes = await page.getByTestId('image-size').allTextContents();
    expect(sizes[0]).toMatch(/^[\d.,]+ K?B64 × 48$/);
    expect(sizes[1]).toMatch(/^[\d.,]+ K?B \(was 500 KB\)64 × 48$/);
    await page.waitForTimeout(300);
    expect(sent, 'images are read and shrunk on the device: nothing is sent before submit').toEqual([]);
    await page.getByRole('button', { name: 'submit' }).click();
    await eventually(() => page.getByText('Reported Sucessfully').count(), 15_000).toBeGreaterThan(0);
    expect(sent.filter((s) => s.startsWith('POST /functions/v1/upload-image'))).toHaveLength(2);
    expect(sent).toContain('POST /rest/v1/reports');

    // 'No' to "Have you Notified authorities yet?": the complaint site opens after 5 seconds.
    await eventually(() => page.getByTestId('complaint-countdown').textContent()).toMatch(
      /in [1-5] seconds?/,
    );
    const opened = () => page.evaluate(() => (window as unknown as { __opened: string[] }).__opened);
    expect(await opened()).toEqual([]);
    await eventually(opened, 8_000).toEqual(['https://cybercrime.gov.ph/']);
  });

  it('shows the report in My Reports with the real case count, and in public search', async () => {
    const { page } = userTab;
    await page.goto(appUrl('/dashboard/all-reports'));
    const card = page.getByTestId('report-card');
    await eventually(() => card.count()).toBe(1);
    await eventually(() => card.textContent()).toContain(reportedNumber);
    const text = (await card.textContent()) ?? '';
    expect(text).toContain('Mobile No.');
    expect(text).toContain('Quezon City');
    expect(text).toContain('1 reported case');
    expect(text).toContain('not yet reviewed');
    expect(text).toContain('Scam');

    await page.goto(appUrl(`/search/${encodeURIComponent('+63 917 ' + digits)}`));
    await eventually(
      () => page.getByRole('heading', { name: 'Reported 1 time, not yet reviewed' }).count(),
      15_000,
    ).toBeGreaterThan(0);
    await eventually(() => page.getByRole('cell', { name: 'Quezon City' }).count()).toBe(1);
  });

  it('edits the report, and stats follow; the full report shows the evidence to its reporter', async () => {
    const { page } = userTab;
    await page.goto(appUrl('/dashboard/stats'));
    await eventually(() => page.getByTestId('stat-scam').textContent()).toBe('1');
    expect(await page.getByTestId('stat-hacked').textContent()).toBe('0');

    await page.goto(appUrl('/dashboard/all-reports'));
    await page.getByRole('link', { name: `Edit report about ${reportedNumber}` }).click();
    await page.waitForURL(/\/dashboard\/edit-report\//);
    await eventually(() => page.getByLabel('Reported account', { exact: true }).inputValue()).toBe(
      reportedNumber,
    );
    // The evidence filed with the report is shown to its reporter through signed links, in order.
    const current = page.getByRole('img', { name: 'Stored evidence image 1' });
    await eventually(() => current.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(
      64,
    );
    await page.getByRole('radio', { name: 'Hacked' }).click();
    await page.getByLabel('Incident description').fill('They took over my GCash after I gave them the OTP.');
    await page.getByRole('button', { name: 'submit' }).click();
    await eventually(() => page.getByText('Report updated successfully').count(), 15_000).toBeGreaterThan(0);
    await page.waitForURL(/\/dashboard\/all-reports$/);
    await eventually(() => page.getByTestId('report-card').textContent()).toContain('Hacked');

    await page.getByRole('link', { name: 'Stats' }).click();
    await eventually(() => page.getByTestId('stat-hacked').textContent()).toBe('1');
    expect(await page.getByTestId('stat-scam').textContent()).toBe('0');
    // One month of data: the chart waits for a second month.
    expect(
      await page.getByText('The monthly chart appears once your reports span more than one month.').count(),
    ).toBe(1);

    await page.goto(appUrl('/dashboard/search'));
    await page.getByRole('search').getByRole('textbox').fill(reportedCanonical);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/\/dashboard\/search\//);
    await page.getByRole('button', { name: 'View full report' }).click();
    const dialog = page.getByRole('dialog');
    await eventually(() => dialog.textContent()).toContain(
      'They took over my GCash after I gave them the OTP.',
    );
    expect(await dialog.textContent()).toContain('₱1,500.00');
    const img = dialog.getByRole('img', { name: 'Evidence image 1 of 2' });
    await eventually(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(64);
    const second = dialog.getByRole('img', { name: 'Evidence image 2 of 2' });
    await eventually(() => second.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(
      64,
    );
    await screenshot(page, 'dashboard-full-report-1280');
    await page.keyboard.press('Escape');
  });

  it('Notify Me saves watched identifiers and tells the user when someone else reports one', async () => {
    const { page } = userTab;
    await page.goto(appUrl('/dashboard/notify-me'));
    const field = page.getByLabel('Your e-mails, mobile numbers, websites or crypto wallets');
    await field.fill(`${newUser.email}, no such thing`);
    await page.getByRole('button', { name: 'submit' }).click();
    await eventually(() =>
      page
        .getByText(
          '"no such thing" is not an e-mail, mobile number, website, social media account link or crypto wallet address',
        )
        .count(),
    ).toBe(1);

    await field.fill(`https://www.${watchedSite}/promo,\n${newUser.email}`);
    await page.getByRole('button', { name: 'submit' }).click();
    await eventually(() => page.getByText('Saved Sucessfully').count(), 15_000).toBeGreaterThan(0);
    expect(new URL(page.url()).pathname).toBe('/dashboard/notify-me');
    const watching = page.getByRole('list', { name: 'Registered identifiers' });
    await eventually(() => watching.textContent()).toContain(watchedSite);
    expect(await watching.textContent()).toContain(newUser.email);
    expect(await page.getByTestId('unread-count').textContent()).toBe('No unread notifications');

    // The seeded user reports the watched site through the form (website type).
    const other = await newTrackedPage(browser, { width: 1280, height: 900 });
    try {
      await stubWindowOpen(other);
      await login(other.page, OTHER_USER);
      await other.page.goto(appUrl('/dashboard/add-report'));
      await other.page.getByRole('radio', { name: 'Spam' }).click();
      await other.page.getByRole('combobox', { name: 'Reported account type' }).click();
      await other.page.getByRole('option', { name: 'Website' }).click();
      await other.page.getByLabel('Reported account', { exact: true }).fill(`${watchedSite}/claim`);
      await other.page.getByLabel('Incident description').fill('Fake GCash promo page asking for the MPIN.');
      await other.page.getByRole('radio', { name: 'yes' }).click();
      await other.page.getByRole('button', { name: 'submit' }).click();
      await eventually(() => other.page.getByText('Reported Sucessfully').count(), 15_000).toBeGreaterThan(0);
      // They said yes to the authorities question: no countdown.
      expect(await other.page.getByTestId('complaint-countdown').count()).toBe(0);

      // The seeded user has reports over many months: the chart shows, 300 high with 75-wide bars.
      await other.page.getByRole('link', { name: 'Stats' }).click();
      const chart = other.page.getByTestId('chart-bar');
      await chart.locator('.recharts-bar-rectangle path').first().waitFor();
      // barSize 75 is the width a bar gets when its month has room; twelve months at this width leave each
      // a little less, and recharts never lets bars overlap.
      const barWidth = Number(
        await chart.locator('.recharts-bar-rectangle path').first().getAttribute('width'),
      );
      expect(barWidth).toBeGreaterThan(50);
      expect(barWidth).toBeLessThanOrEqual(75);
      expect((await chart.locator('.recharts-responsive-container').boundingBox())?.height).toBe(300);
      await other.page.getByRole('button', { name: 'Area Chart' }).click();
      await other.page.getByTestId('chart-area').locator('.recharts-area').waitFor();
      await other.page.getByRole('button', { name: 'Bar Chart' }).waitFor();
    } finally {
      await other.context.close();
    }

    await page.reload();
    await eventually(() => page.getByTestId('unread-count').textContent(), 15_000).toBe('1 unread');
    const notifications = page.getByRole('list', { name: 'Notifications' });
    expect(await notifications.textContent()).toContain(`Someone reported ${watchedSite}`);
    await page.getByRole('button', { name: 'Mark as read' }).click();
    await eventually(() => page.getByTestId('unread-count').textContent()).toBe('No unread notifications');

    await page.getByRole('button', { name: `Remove ${newUser.email}` }).click();
    await eventually(() => watching.textContent()).not.toContain(newUser.email);
    expect(await watching.textContent()).toContain(watchedSite);
  });

  it("counts the unread notifications on the sidebar's Notify Me and the count drops once they are marked read", async () => {
    const { page } = userTab;
    await reportWatchedSiteAgain(3);
    await page.goto(appUrl('/dashboard/stats'));
    const sidebar = page.locator('aside[aria-label="Sidebar"]');
    const notifyMe = sidebar.getByRole('link', { name: /^Notify Me/ });
    const badge = notifyMe.getByTestId('unread-notifications-badge');
    // Screen readers hear the count with the link's name.
    await eventually(
      () => sidebar.getByRole('link', { name: 'Notify Me 3 unread notifications', exact: true }).count(),
      15_000,
    ).toBe(1);
    // What sighted users see is the number alone.
    expect(await badge.locator('[aria-hidden="true"]').textContent()).toBe('3');
    expect(await badge.isVisible()).toBe(true);

    for (const dark of [false, true]) {
      await setTheme(page, dark);
      const theme = dark ? 'dark' : 'light';
      await page.setViewportSize({ width: 1280, height: 900 });
      await screenshot(page, `dashboard-badge-1280-${theme}`);
      await page.setViewportSize({ width: 375, height: 900 });
      await page.getByRole('button', { name: 'Open menu' }).click();
      const overlay = page.getByRole('dialog');
      await eventually(() =>
        overlay.getByRole('link', { name: 'Notify Me 3 unread notifications', exact: true }).count(),
      ).toBe(1);
      await page.waitForTimeout(300);
      await screenshot(page, `dashboard-badge-375-${theme}`);
      await overlay.getByRole('button', { name: 'Close' }).click();
      await eventually(() => overlay.count()).toBe(0);
    }
    await setTheme(page, false);
    await page.setViewportSize({ width: 1280, height: 900 });

    await notifyMe.click();
    await page.waitForURL(/\/dashboard\/notify-me$/);
    await eventually(() => page.getByTestId('unread-count').textContent()).toBe('3 unread');
    await page.getByRole('button', { name: 'Mark all as read' }).click();
    // At once, not at the next minute's refetch.
    await eventually(() => badge.count(), 10_000).toBe(0);
    expect(await sidebar.getByRole('link', { name: 'Notify Me', exact: true }).count()).toBe(1);

    // A new notification shows when the user comes back to the tab.
    await reportWatchedSiteAgain(1);
    await page.evaluate(() => window.dispatchEvent(new Event('visibilitychange')));
    await eventually(
      () => sidebar.getByRole('link', { name: 'Notify Me 1 unread notification', exact: true }).count(),
      10_000,
    ).toBe(1);
    await page.getByRole('button', { name: 'Mark all as read' }).click();
    await eventually(() => badge.count(), 10_000).toBe(0);
    expect(userTab.errors.filter((e) => e.startsWith('uncaught'))).toEqual([]);
  });

  it('keeps a plain user out of the admin pages', async () => {
    const { page } = userTab;
    for (const path of ['/dashboard/admin', '/dashboard/admin/users', '/dashboard/add-news']) {
      await page.goto(appUrl(path));
      await page.waitForURL(/\/dashboard$/);
      await eventually(() =>
        page.getByText('You are not authorized to view this page').count(),
      ).toBeGreaterThan(0);
    }
  });

  it('lets the admin verify the pending report, add news that the home page shows, and read a contact message', async () => {
    // A visitor writes to the team, as the contact page does (anon key, RLS allows inserts only).
    const anon = createClient(process.env.STACK_API_URL!, process.env.STACK_ANON_KEY!, {
      auth: { persistSession: false },
      // Node 20 has no global WebSocket, which supabase-js needs to construct its (unused) realtime client.
      realtime: { transport: WebSocket as never },
    });
    const subject = `Question ${run}`;
    const { error } = await anon
      .from('contact_messages')
      .insert({ nickname: 'Lito', email: 'lito@example.com', subject, message: `Is ${watchedSite} legit?` });
    expect(error).toBeNull();

    const admin = await newTrackedPage(browser, { width: 1280, height: 900 });
    try {
      const { page } = admin;
      await login(page, ADMIN);
      await page.getByRole('link', { name: 'Admin', exact: true }).click();
      await page.waitForURL(/\/dashboard\/admin$/);
      await eventually(() => page.getByTestId('admin-stat-users').textContent()).toMatch(/^\d[\d,]*$/);
      // Seeded pending reports plus the two filed above.
      expect(
        Number((await page.getByTestId('admin-stat-pendingReports').textContent())?.replace(/,/g, '')),
      ).toBeGreaterThanOrEqual(2);
      await screenshot(page, 'dashboard-admin-1280');

      await page.getByRole('link', { name: 'Pending Reports' }).click();
      await page.waitForURL(/\/dashboard\/admin\/pending-reports$/);
      // The review workspace (issue 31) lists the oldest first: the admin looks the new report up.
      await page.getByLabel('Search identifier').fill(reportedCanonical);
      const verify = page.getByRole('button', { name: `Verify report about ${reportedNumber}` });
      await eventually(() => verify.count(), 15_000).toBe(1);
      await verify.click();
      await eventually(() => page.getByText('Report verified').count()).toBeGreaterThan(0);
      await eventually(() => verify.count()).toBe(0);

      // The users list (issue 31) is searched on the server: by e-mail, one account is left.
      await page.goto(appUrl('/dashboard/admin/users'));
      await eventually(() => page.getByTestId('admin-user').count(), 15_000).toBeGreaterThan(1);
      await page.getByLabel('Search name, e-mail or user id').fill(ADMIN.email);
      await eventually(() => page.getByTestId('admin-user').count(), 15_000).toBe(1);
      expect(await page.getByTestId('admin-user').textContent()).toContain(ADMIN.email);

      await page.goto(appUrl('/dashboard/admin/messages'));
      const row = page.getByRole('row').filter({ hasText: subject });
      await eventually(() => row.count(), 15_000).toBe(1);
      expect(await row.textContent()).toContain(`Is ${watchedSite} legit?`);
      await row.getByRole('button', { name: 'Mark handled' }).click();
      await eventually(() => row.getByRole('button', { name: 'Back to inbox' }).count()).toBe(1);

      const title = `Scam alert ${run}`;
      await page.getByRole('link', { name: 'Add News' }).click();
      await page.getByLabel('Title').fill(title);
      await page.getByLabel('Tags').fill('gcash, phishing');
      await page.getByLabel('Source link').fill('https://www.pna.gov.ph/');
      await page.getByLabel('Source name').fill('Philippine News Agency');
      await page
        .getByLabel('Banner (optional)')
        .setInputFiles({ name: 'banner.png', mimeType: 'image/png', buffer: evidencePng });
      await page
        .getByLabel('Article')
        .fill('Fake GCash promo pages are asking for MPINs. Never share yours.');
      await page.getByRole('button', { name: 'submit' }).click();
      await eventually(() => page.getByText('News Added Sucessfully').count(), 15_000).toBeGreaterThan(0);
      expect(new URL(page.url()).pathname).toBe('/dashboard/add-news');

      await page.goto(appUrl('/'));
      await eventually(() => page.getByText(title).count(), 15_000).toBeGreaterThan(0);
      expect(admin.errors.filter((e) => e.startsWith('uncaught'))).toEqual([]);
    } finally {
      await admin.context.close();
    }

    // The reporter sees the admin's decision.
    const { page } = userTab;
    await page.goto(appUrl('/dashboard/all-reports'));
    await eventually(() => page.getByTestId('report-card').textContent()).toContain('verified');
    expect(await page.getByTestId('report-card').textContent()).not.toContain('not yet reviewed');
  });

  it('lets the admin edit and delete that news; the public news page follows at once', async () => {
    const title = `Scam alert ${run}`;
    const newTitle = `Edited alert ${run}`;
    const admin = await newTrackedPage(browser, { width: 1280, height: 900 });
    try {
      const { page } = admin;
      const sent = recordApiRequests(page);
      await login(page, ADMIN);
      // The public news list is read first: the edit has to replace what the app keeps in its cache.
      await page.goto(appUrl('/news'));
      await eventually(() => page.getByText(title).count(), 15_000).toBeGreaterThan(0);

      // 'Load more' needs more than one page (10): older articles fill up a short list.
      const api = await apiClientAs(ADMIN);
      const { count } = await api.from('news').select('id', { count: 'exact', head: true });
      for (let i = 0; i < 11 - (count ?? 0); i++) {
        const { error } = await api.from('news').insert({
          news_title: `Archived advisory ${run}-${i}`,
          news_description: 'An older advisory, kept for the record.',
          author_id: (await api.auth.getUser()).data.user!.id,
          created_at: `2020-01-${String(i + 1).padStart(2, '0')}T00:00:00Z`,
        });
        expect(error).toBeNull();
      }
      // Only this helper's session: a global sign-out would also end the admin's session in the browser,
      // whose next call to a function (the banner upload) would then rightly be refused.
      await api.auth.signOut({ scope: 'local' });

      await navigateInApp(page, '/dashboard/add-news');
      const rows = page.getByTestId('news-row');
      // Newest first: the article added by the previous test heads the list.
      await eventually(() => rows.first().getByRole('link').textContent(), 15_000).toBe(title);
      expect(await rows.count()).toBe(10);
      expect(await page.getByTestId('news-count').textContent()).toMatch(/^Showing 10 of \d+$/);
      await page.getByRole('button', { name: 'Load more' }).click();
      await eventually(() => rows.count()).toBeGreaterThan(10);

      for (const dark of [false, true]) {
        await setTheme(page, dark);
        for (const width of [375, 1280]) {
          await page.setViewportSize({ width, height: 900 });
          // From the top: a full-page shot of a scrolled page draws the sticky top bar mid-page.
          await page.evaluate(() => window.scrollTo(0, 0));
          await page.waitForTimeout(250);
          await screenshot(page, `dashboard-news-list-${width}-${dark ? 'dark' : 'light'}`);
          expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        }
      }
      await setTheme(page, false);
      await page.setViewportSize({ width: 1280, height: 900 });

      await page.getByRole('button', { name: `Edit ${title}` }).click();
      const form = page.getByRole('form', { name: 'Edit News form' });
      await eventually(() => form.getByLabel('Title').inputValue()).toBe(title);
      expect(await form.getByLabel('Title').evaluate((el) => el === document.activeElement)).toBe(true);
      expect(await form.getByLabel('Tags').inputValue()).toBe('gcash, phishing');
      expect(await form.getByLabel('Source link').inputValue()).toBe('https://www.pna.gov.ph/');
      expect(await form.getByLabel('Source name').inputValue()).toBe('Philippine News Agency');
      expect(await form.getByLabel('Article').inputValue()).toBe(
        'Fake GCash promo pages are asking for MPINs. Never share yours.',
      );

      sent.length = 0;
      const oversize = Buffer.concat([evidencePng, Buffer.alloc(500_001 - evidencePng.length)]);
      await form
        .getByLabel('New banner (optional)')
        .setInputFiles({ name: 'big.png', mimeType: 'image/png', buffer: oversize });
      // Made smaller on the device (issue 33), shown with its new size; nothing sent yet.
      await eventually(() => form.getByTestId('image-size').textContent()).toMatch(/\(was 500 KB\)/);
      expect(sent, 'the banner is shrunk on the device').toEqual([]);

      await form
        .getByLabel('New banner (optional)')
        .setInputFiles({ name: 'banner-2.png', mimeType: 'image/png', buffer: evidencePng });
      await form.getByLabel('Title').fill(newTitle);
      await screenshot(page, 'dashboard-news-edit-1280-light');
      await form.getByRole('button', { name: 'submit' }).click();
      await eventually(() => page.getByText('News Updated Sucessfully').count(), 15_000).toBeGreaterThan(0);
      // New banner first, then the row, then the old banner goes.
      expect(sent.filter((r) => r.startsWith('POST /functions/v1/upload-image'))).toHaveLength(1);
      expect(sent).toContain('PATCH /rest/v1/news');
      expect(sent).toContain('DELETE /storage/v1/object/news-banners');
      // The form goes back to adding, and the list shows the new title.
      await page.getByRole('form', { name: 'Add News form' }).waitFor();
      await eventually(() => rows.first().getByRole('link').textContent()).toBe(newTitle);

      await navigateInApp(page, '/news');
      // The news page itself, not the dashboard still on screen while the route loads.
      await page.getByRole('heading', { name: 'Scam news', level: 1 }).waitFor();
      await eventually(() => page.getByText(newTitle).count(), 15_000).toBeGreaterThan(0);
      expect(await page.getByText(title).count()).toBe(0);
      // The article shows the new banner.
      await page.getByRole('link', { name: `Read full Article: ${newTitle}` }).click();
      const banner = page.getByRole('img', { name: newTitle });
      await eventually(() => banner.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(
        64,
      );
      const articlePath = new URL(page.url()).pathname;
      const bannerUrl = (await banner.getAttribute('src'))!;
      expect(bannerUrl).toContain('/storage/v1/object/public/news-banners/');

      await navigateInApp(page, '/dashboard/add-news');
      sent.length = 0;
      await page.getByRole('button', { name: `Delete ${newTitle}` }).click();
      const dialog = page.getByRole('dialog', { name: 'Delete this article?' });
      await dialog.waitFor();
      await page.setViewportSize({ width: 375, height: 900 });
      await page.evaluate(() => window.scrollTo(0, 0));
      await screenshot(page, 'dashboard-news-delete-375-light');
      await page.setViewportSize({ width: 1280, height: 900 });
      await dialog.getByRole('button', { name: 'Delete article' }).click();
      await eventually(() => page.getByText('News deleted successfully').count(), 15_000).toBeGreaterThan(0);
      await eventually(() => page.getByRole('button', { name: `Delete ${newTitle}` }).count()).toBe(0);
      expect(sent).toContain('DELETE /rest/v1/news');
      expect(sent).toContain('DELETE /storage/v1/object/news-banners');

      await navigateInApp(page, '/news');
      // Wait for the news page and its list, so 'gone' is not just 'not loaded yet'.
      await page.getByRole('heading', { name: 'Scam news', level: 1 }).waitFor();
      await eventually(
        () => page.getByText('Calls from fake bank officers', { exact: false }).count(),
        15_000,
      ).toBeGreaterThan(0);
      await eventually(() => page.getByText(newTitle).count()).toBe(0);
      await navigateInApp(page, articlePath);
      await eventually(() => page.getByRole('heading', { name: 'Article not found' }).count(), 15_000).toBe(
        1,
      );
      // The banner went with it.
      expect((await fetch(bannerUrl)).ok).toBe(false);
      expect(admin.errors.filter((e) => e.startsWith('uncaught'))).toEqual([]);
    } finally {
      await admin.context.close();
    }
  });

  it('updates the profile: the top bar shows the new name and avatar at once; a new e-mail waits for confirmation', async () => {
    const { page } = userTab;
    await page.goto(appUrl('/dashboard/profile'));
    await page
      .getByLabel('Avatar')
      .setInputFiles({ name: 'big.png', mimeType: 'image/png', buffer: Buffer.alloc(500_001) });
    await eventually(() => page.getByText('This image could not be read', { exact: false }).count()).toBe(1);
    await page
      .getByLabel('Avatar')
      .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: evidencePng });
    newUser.name = `Maria S. Santos ${run}`;
    await page.getByLabel('Name').fill(newUser.name);
    const newEmail = `dash-new-${run}@example.com`;
    await page.getByLabel('Email').fill(newEmail);
    const sentAt = new Date(Date.now() - 1000);
    await page.getByRole('button', { name: 'submit' }).click();
    await eventually(() => page.getByText('Profile updated successfully').count()).toBeGreaterThan(0);
    await eventually(() =>
      page.getByText(`we sent a confirmation link to ${newEmail}`, { exact: false }).count(),
    ).toBeGreaterThan(0);
    await eventually(() => page.getByTestId('greeting').innerText()).toBe(`Hello, ${newUser.name}`);
    const avatar = page.getByRole('button', { name: 'User menu' }).locator('img');
    await eventually(() => avatar.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(
      64,
    );
    expect(await avatar.getAttribute('src')).toContain('/storage/v1/object/public/avatars/');
    // Supabase Auth mails the new address; until it is confirmed the account keeps the old one.
    const mail = await latestMailTo(newEmail, { after: sentAt });
    expect(mail.subject).toMatch(/e-?mail/i);
    await page.reload();
    await eventually(() => page.getByLabel('Email').inputValue()).toBe(newUser.email);
  });

  it('takes screenshots at 375, 992 and 1280 px, light and dark; the narrow sidebar is an overlay', async () => {
    const { page } = userTab;
    const pages = [
      '/dashboard',
      '/dashboard/all-reports',
      '/dashboard/stats',
      '/dashboard/notify-me',
      '/dashboard/profile',
    ];
    await page.goto(appUrl(pages[0]));
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    // By selector, not role: a hidden sidebar has no role to find.
    const sidebar = page.locator('aside[aria-label="Sidebar"]');
    for (const dark of [false, true]) {
      if ((await page.evaluate(() => document.documentElement.classList.contains('dark'))) !== dark) {
        await page.getByRole('button', { name: /Switch to (dark|light) theme/ }).click();
      }
      // The choice is kept where docs/behaviour.md says: localStorage darkTheme.
      expect(await page.evaluate(() => localStorage.getItem('darkTheme'))).toBe(String(dark));
      const theme = dark ? 'dark' : 'light';
      for (const width of [375, 992, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        for (const path of pages) {
          // In-app navigation (as the sidebar does), so the screenshots cost no reloads.
          await page.evaluate((to) => {
            window.history.pushState({}, '', to);
            window.dispatchEvent(new PopStateEvent('popstate'));
          }, path);
          await page.waitForURL((url) => url.pathname === path);
          await page.getByRole('heading', { level: 1 }).first().waitFor();
          await page.waitForTimeout(250);
          await screenshot(page, `dashboard-${path.split('/').pop()}-${width}-${theme}`);
        }
        if (width < 992) {
          expect(await sidebar.evaluate((el) => getComputedStyle(el).display)).toBe('none');
          await page.getByRole('button', { name: 'Open menu' }).click();
          const overlay = page.getByRole('dialog');
          await overlay.getByRole('link', { name: 'Notify Me' }).waitFor();
          await eventually(async () => (await overlay.boundingBox())?.width).toBe(width);
          await screenshot(page, `dashboard-menu-${width}-${theme}`);
          await overlay.getByRole('button', { name: 'Close' }).click();
          await eventually(() => overlay.count()).toBe(0);
        } else {
          const sidebarWidth = await sidebar.evaluate((el) =>
            getComputedStyle(el).display === 'none' ? 0 : el.getBoundingClientRect().width,
          );
          expect(sidebarWidth, 'the fixed sidebar is 250px wide').toBe(250);
        }
        if (width !== 992) {
          // The Change Password dialog asks for the current password (secure_password_change).
          await page.getByRole('button', { name: 'User menu' }).click();
          await page.getByRole('menuitem', { name: 'Change Password' }).click();
          await page.getByRole('dialog').getByLabel('Current password').waitFor();
          await screenshot(page, `dashboard-change-password-${width}-${theme}`);
          await page.keyboard.press('Escape');
          await eventually(() => page.getByRole('dialog').count()).toBe(0);
        }
        // Nothing may be wider than the screen.
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      }
    }
    await page.getByRole('button', { name: 'Switch to light theme' }).click();
    expect(userTab.errors.filter((e) => e.startsWith('uncaught'))).toEqual([]);
  }, 120_000);

  it('changes the password, logs out, and logs in with the new one; then deletes the report', async () => {
    const { page } = userTab;
    await page.goto(appUrl('/dashboard/all-reports'));
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'Change Password' }).click();
    const newPassword = `${newUser.password}-2`;
    // secure_password_change: a wrong current password is named under its field and changes nothing.
    await page.getByLabel('Current password').fill('not my password');
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm new password').fill(newPassword);
    await page.getByRole('dialog').getByRole('button', { name: 'submit' }).click();
    await eventually(
      () => page.getByText('Your current password is not correct').count(),
      15_000,
    ).toBeGreaterThan(0);
    await page.getByLabel('Current password').fill(newUser.password);
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm new password').fill(newPassword);
    await page.getByRole('dialog').getByRole('button', { name: 'submit' }).click();
    await eventually(() => page.getByText('Password changed successfully').count(), 15_000).toBeGreaterThan(
      0,
    );

    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'Logout', exact: true }).click();
    await eventually(() => page.getByText('Logout Sucessfully').count()).toBeGreaterThan(0);
    // Logout lands on the home page, not on the dashboard's login prompt (issue 19).
    expect(new URL(page.url()).pathname).toBe('/');
    await page.waitForTimeout(300);
    expect(new URL(page.url()).pathname).toBe('/');
    await page.goto(appUrl('/dashboard/stats'));
    await page.waitForURL(/\/login/);
    await login(page, { email: newUser.email, password: newPassword });

    // A report that cannot be loaded sends the user back to My Reports with the reason.
    await page.goto(appUrl('/dashboard/edit-report/00000000-0000-4000-8000-000000000000'));
    await page.waitForURL(/\/dashboard\/all-reports$/);
    await eventually(() => page.getByText('Report not found').count()).toBeGreaterThan(0);

    await page.getByRole('button', { name: `Delete report about ${reportedNumber}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete report' }).click();
    await eventually(() => page.getByText('Report deleted successfully').count(), 15_000).toBeGreaterThan(0);
    await eventually(() => page.getByRole('heading', { name: 'No Reports Found' }).count()).toBe(1);
    expect(new URL(page.url()).pathname).toBe('/dashboard/all-reports');
    await screenshot(page, 'dashboard-no-reports-1280');
    expect(userTab.errors.filter((e) => e.startsWith('uncaught'))).toEqual([]);
  });
});

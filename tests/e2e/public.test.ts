/// <reference lib="dom" />
/**
 * The public site in a real browser against the test stack (issue 6): every public route as a
 * visitor, console-error free and without serious or critical axe violations; the search with its
 * heatmap; the contact form; sign-up with the e-mailed code (typed, and by the e-mail's link)
 * through to the dashboard; screenshots at 375, 768 and 1280 px in light and dark.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { adminPool, unique } from '../../supabase/tests/helpers.ts';
import {
  appUrl,
  latestMailTo,
  latestOtpCode,
  launchBrowser,
  newTrackedPage,
  screenshot,
  type TrackedPage,
} from './helpers.ts';

let browser: Browser;
/** A mobile number reported three times, typed here in a different format than in the reports. */
const reportedDigits = `0917${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
const reportedSearch = `+63 ${reportedDigits.slice(1, 4)} ${reportedDigits.slice(4, 7)} ${reportedDigits.slice(7)}`;
let newsId: string;

beforeAll(async () => {
  browser = await launchBrowser();
  const pool = adminPool();
  // Three reports of one number, from Manila, Cebu and Davao, two verified; inserted as the
  // database owner like an admin would, so they are visible to search at once.
  await pool.query(
    `insert into public.reports (incident_date, incident_type, reported_account_type, reported_account, location, loc, country, status, amount_lost, created_at)
     values
       (current_date - 20, 'scam', 'mobile', $1, 'Manila', '14.5995,120.9842', 'PH', 'verified', 15000, now() - interval '10 days'),
       (current_date - 12, 'scam', 'mobile', $1, 'Cebu City', '10.3157,123.8854', 'PH', 'verified', 5000, now() - interval '5 days'),
       (current_date - 3, 'hacked', 'mobile', $1, 'Davao City', '7.1907,125.4553', 'PH', 'pending', null, now() - interval '1 day')`,
    [reportedDigits],
  );
  const news = await pool.query<{ id: string }>(
    `insert into public.news (news_title, news_description, tags, source, source_desc)
     values ('Fake delivery riders ask for cash-on-delivery fees for parcels nobody ordered', $1, array['delivery', 'sms'], 'https://www.pna.gov.ph/', 'Philippine News Agency')
     returning id`,
    [
      'Riders arrive with parcels the household never ordered and ask for the cash-on-delivery fee. '.repeat(
        4,
      ),
    ],
  );
  newsId = news.rows[0].id;
});

afterAll(async () => {
  await browser?.close();
});

async function axeViolations(page: Page) {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** Waits until the page's main heading reads `expected` (lazy pages load their code first). */
async function expectHeading(page: Page, expected: string | RegExp) {
  const text =
    typeof expected === 'string'
      ? new RegExp(`^\\s*${expected.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`)
      : expected;
  await page
    .locator('main h1')
    .filter({ hasText: text })
    .first()
    .waitFor({ state: 'visible', timeout: 45_000 });
}

/**
 * Moves to `path` inside the running app, as a click on a link would (the router follows
 * popstate), instead of reloading every module from the dev server.
 */
async function navigate(page: Page, path: string) {
  await page.evaluate((to) => {
    // The router's history keeps its position in history.state; follow its shape.
    const idx = ((window.history.state as { idx?: number } | null)?.idx ?? 0) + 1;
    window.history.pushState({ usr: null, key: Math.random().toString(36).slice(2, 10), idx }, '', to);
    window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
  }, path);
}

describe('public site as a visitor', () => {
  // One visitor page for the whole block: the dev server's modules load once and stay cached, and
  // later pages are reached by in-app navigation, as a visitor clicking around would.
  let visitor: TrackedPage;
  beforeAll(async () => {
    visitor = await newTrackedPage(browser);
    await visitor.page.goto(appUrl('/'));
    await expectHeading(visitor.page, 'Is it a Scam?');
  });
  afterAll(async () => {
    await visitor?.context.close();
  });

  const routes = (): [path: string, h1: string][] => [
    ['/', 'Is it a Scam?'],
    [`/search/${encodeURIComponent(reportedSearch)}`, 'Search results'],
    ['/news', 'Scam news'],
    ['/news-article', 'Scam news'],
    [
      `/news-article/${newsId}`,
      'Fake delivery riders ask for cash-on-delivery fees for parcels nobody ordered',
    ],
    ['/about', 'About ScamCheck'],
    ['/donate', 'Support ScamCheck'],
    ['/guide', 'Scam-check guide'],
    ['/privacy', 'Privacy Policy'],
    ['/tos', 'Terms of Service'],
    ['/faq', 'Frequently asked questions'],
    ['/contact', 'Contact us'],
    ['/coming-soon', 'Coming soon'],
    ['/thankyou', 'Thank you!'],
    ['/register', 'Register'],
    ['/login', 'Login'],
    ['/two-factor-authentication', 'Confirm your e-mail'],
    ['/forgot-password', 'Forgot your password?'],
    ['/no/such/page', 'Page Not Found'],
  ];

  it('every route renders its page without console errors or serious accessibility violations', async () => {
    const { page, errors } = visitor;
    const problems: string[] = [];
    for (const [path, h1] of routes()) {
      await navigate(page, path);
      await expectHeading(page, h1);
      // Let data requests settle (news, search) before judging contrast and landmarks.
      await page.waitForLoadState('networkidle');
      for (const v of await axeViolations(page)) problems.push(`${path}: ${v}`);
    }
    expect(problems).toEqual([]);
    expect(errors).toEqual([]);
  }, 300_000);

  it('the dark theme passes the same accessibility checks on the main pages', async () => {
    const { page, context, errors } = await newTrackedPage(browser, { dark: true });
    try {
      await page.goto(appUrl('/'));
      await expectHeading(page, 'Is it a Scam?');
      expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
      const problems: string[] = [];
      for (const [path, h1] of routes().filter(
        ([p]) =>
          ['/', '/news', '/login', '/register', '/contact', '/guide', '/no/such/page'].includes(p) ||
          p.startsWith('/search/'),
      )) {
        await navigate(page, path);
        await expectHeading(page, h1);
        await page.waitForLoadState('networkidle');
        for (const v of await axeViolations(page)) problems.push(`${path} (dark): ${v}`);
      }
      expect(problems).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 180_000);

  it('an unknown route, opened directly, shows the 404 page with a link home', async () => {
    const { page, errors } = visitor;
    await page.goto(appUrl('/this-page-does-not-exist'));
    await expectHeading(page, 'Page Not Found');
    expect(await page.locator('main').textContent()).toContain('404');
    await page.getByRole('link', { name: 'Back to home' }).click();
    await expectHeading(page, 'Is it a Scam?');
    expect(new URL(page.url()).pathname).toBe('/');
    expect(errors).toEqual([]);
  });

  it('searching from home shows the count, summary, heatmap and the latest incidents with limited columns', async () => {
    const { page, errors } = visitor;
    await navigate(page, '/');
    await expectHeading(page, 'Is it a Scam?');
    await page.getByRole('textbox', { name: /Number, e-mail/ }).fill(reportedSearch);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/\/search\//);
    expect(decodeURIComponent(new URL(page.url()).pathname)).toBe(`/search/${reportedSearch}`);

    const main = page.locator('main');
    // The one-line answer first (issue 37), from the answer's own verified count.
    const headline = main.locator('[data-headline]');
    await expect
      .poll(() => headline.locator('h2').textContent(), { timeout: 45_000 })
      .toBe('Reported 3 times, 2 verified: do not send money or share codes');
    expect(await headline.getAttribute('data-headline')).toBe('verified');
    const summary = await main.locator('dl').first().textContent();
    expect(summary).toContain('Reports3');
    expect(summary).toContain('Philippines');
    // Two verified amounts (15000 + 5000): a sum of fewer than 5 verified reports is not shown (issue 27).
    expect(summary).not.toContain('₱20,000.00');
    expect(summary).toContain('Shown once 5 verified reports give an amount');
    expect(summary).toMatch(/Risk level\d+% \((low|medium|high)\)/);

    const headers = await page.locator('thead th').allTextContents();
    expect(headers).toEqual([
      'Reported on',
      'What happened',
      'Kind of account',
      'Location',
      'Status',
      'Happened on',
      'Action',
    ]);
    const rows = page.locator('tbody tr');
    expect(await rows.count()).toBe(3);
    // Newest first; the pending report reads "not yet reviewed" (the API's not-verified).
    expect(await rows.first().textContent()).toContain('Davao City');
    expect(await rows.first().textContent()).toContain('not yet reviewed');
    // At 375 px the incidents are cards: every status is in view, nothing scrolls sideways (issue 37).
    await page.setViewportSize({ width: 375, height: 740 });
    const cards = main.getByRole('list', { name: 'Latest reports, newest first' }).getByRole('listitem');
    expect(await cards.count()).toBe(3);
    for (const card of await cards.all()) {
      const status = (await card.getByText(/^(verified|not yet reviewed)$/).boundingBox())!;
      expect(status.x + status.width).toBeLessThanOrEqual(375);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.setViewportSize({ width: 1280, height: 800 });
    const action = rows.first().getByRole('link', { name: 'View full report' });
    const href = new URL((await action.getAttribute('href'))!, appUrl());
    expect(href.pathname).toBe('/login');
    expect(href.searchParams.get('redirectTo')).toBe(
      `/dashboard/search/${encodeURIComponent(reportedSearch)}`,
    );

    // The heatmap: deck.gl's WebGL canvas draws the offline basemap and heat over the Philippines.
    const map = page.getByTestId('incident-heatmap');
    // First the light SVG preview (no WebGL), then deck.gl's interactive map when asked for.
    await map.getByTestId('incident-map-preview').waitFor({ state: 'visible', timeout: 45_000 });
    expect(await map.locator('circle').count()).toBeGreaterThan(0);
    await screenshot(page, 'search-results-map-preview-1280-light');
    await map.getByRole('button', { name: 'Zoom and pan the map' }).click();
    await map.locator('canvas').first().waitFor({ state: 'visible', timeout: 90_000 });
    const box = (await map.boundingBox())!;
    expect(box.width).toBeGreaterThan(0.69 * 1280 - 2);
    expect(box.height).toBeGreaterThan(0.59 * 800 - 2);
    await expect
      .poll(async () => countMapPixels(page, (await map.screenshot()).toString('base64')), {
        timeout: 60_000,
        interval: 1000,
      })
      .toSatisfy((c: { land: number; heat: number }) => c.land > 1000 && c.heat > 10);
    await screenshot(page, 'search-results-heatmap-1280-light');
    expect(errors).toEqual([]);
  }, 240_000);

  it("a search nobody reported says 'No Results Found' and links the checklist", async () => {
    const { page, errors } = visitor;
    await navigate(page, `/search/${encodeURIComponent(`${unique('clean')}@example.com`)}`);
    await expect
      .poll(() => page.locator('main').textContent(), { timeout: 45_000 })
      .toContain('No Results Found');
    expect(await page.locator('main').textContent()).toContain('proceed with caution');
    await page.getByRole('link', { name: 'scam-check checklist' }).click();
    await expectHeading(page, 'Scam-check guide');
    expect(await page.locator('main ol > li h2').count()).toBe(8);
    expect(errors).toEqual([]);
  });

  it('a search the server rejects returns home at once (no retry of a 4xx) with the error as a toast at the bottom right', async () => {
    const { page } = visitor;
    await navigate(page, '/about');
    await expectHeading(page, 'About ScamCheck');
    const started = Date.now();
    await navigate(page, `/search/${'x'.repeat(300)}`);
    await page.waitForURL((url) => url.pathname === '/', { timeout: 15_000 });
    // Two retries with their back-off took about 3 s before; one refused request is well under that.
    expect(Date.now() - started).toBeLessThan(2500);
    const toast = page.locator(
      '[data-sonner-toaster][data-y-position="bottom"][data-x-position="right"] [data-sonner-toast]',
    );
    await toast.first().waitFor({ timeout: 10_000 });
    expect(await toast.first().textContent()).toContain('searchString must be at most 256 characters');
    // The failed request itself is logged by the browser; nothing else may be.
    visitor.errors.splice(
      0,
      visitor.errors.length,
      ...visitor.errors.filter((e) => !/status of 400/.test(e)),
    );
    expect(visitor.errors).toEqual([]);
  });

  it('the contact form saves the message, thanks the visitor and returns home', async () => {
    const { page, errors } = visitor;
    const subject = unique('subject');
    await navigate(page, '/contact');
    await expectHeading(page, 'Contact us');
    await page.getByRole('button', { name: 'submit' }).click();
    await page.getByText('Message is required').waitFor();
    await page.getByLabel('Nickname').fill('Tita Baby');
    await page.getByLabel('Email').fill('tita.baby@example.com');
    await page.getByLabel('Subject').fill(subject);
    await page.getByLabel('Message').fill('Please remove my old number, it was reported by mistake.');
    await page.getByRole('button', { name: 'submit' }).click();
    await page.getByText("We'll review this ASAP & we'll get back to you").waitFor();
    await page.waitForURL((url) => url.pathname === '/');
    const saved = await adminPool().query(
      'select nickname, email, message, user_id from public.contact_messages where subject = $1',
      [subject],
    );
    expect(saved.rows).toEqual([
      {
        nickname: 'Tita Baby',
        email: 'tita.baby@example.com',
        message: 'Please remove my old number, it was reported by mistake.',
        user_id: null,
      },
    ]);
    expect(errors).toEqual([]);
  });

  it('the hamburger menu holds the navigation under 768px and the dark theme survives a reload', async () => {
    const { page, errors } = visitor;
    // The contact test before this one ends on a toast at the top right, where the menu button sits at 375 px;
    // sonner keeps a hovered toast, so move the pointer away and let it go before using the header.
    await page.mouse.move(10, 600);
    await page.locator('[data-sonner-toast]').first().waitFor({ state: 'detached', timeout: 15_000 });
    await page.setViewportSize({ width: 375, height: 740 });
    try {
      await navigate(page, '/');
      await expectHeading(page, 'Is it a Scam?');
      expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(false);
      await page.getByRole('button', { name: 'Open menu' }).click();
      const menu = page.getByRole('navigation', { name: 'Mobile' });
      expect(await menu.getByRole('link').allTextContents()).toEqual([
        'Report a Scam',
        'Notify Me',
        'Check a message',
        'News',
        'About',
        'Donate',
        'Login',
        'Register',
      ]);
      expect(await menu.getByRole('link', { name: 'Report a Scam' }).getAttribute('href')).toBe('/register');
      expect(await menu.getByRole('link', { name: 'Notify Me' }).getAttribute('href')).toBe('/register');
      expect(await menu.getByRole('link', { name: 'Check a message' }).getAttribute('href')).toBe('/check');
      await menu.getByRole('link', { name: 'About' }).click();
      await expectHeading(page, 'About ScamCheck');
      expect(await page.getByRole('navigation', { name: 'Mobile' }).count()).toBe(0);

      await page.getByRole('button', { name: 'Switch to dark theme' }).click();
      expect(
        await page.evaluate(() => [
          document.documentElement.classList.contains('dark'),
          localStorage.getItem('darkTheme'),
        ]),
      ).toEqual([true, 'true']);
      await page.reload();
      await expectHeading(page, 'About ScamCheck');
      expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
      await page.getByRole('button', { name: 'Switch to light theme' }).click();
      expect(await page.evaluate(() => localStorage.getItem('darkTheme'))).toBe('false');
      expect(errors).toEqual([]);
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });
});

describe('sign-up with the e-mailed one-time password', () => {
  // One browser context for the block (modules stay cached); storage is cleared between users.
  let tab: TrackedPage;
  beforeAll(async () => {
    tab = await newTrackedPage(browser);
  });
  afterAll(async () => {
    await tab?.context.close();
  });

  /** Forgets any session (storage) and opens `path` with a fresh page load, as a new visitor. */
  async function freshVisit(path: string) {
    // Leave the app first (a static file of the same origin runs no app code): a live page whose
    // storage vanished would still send requests, now without a session.
    await tab.page.goto(appUrl('/favicon.svg'));
    await tab.page.evaluate(() => {
      localStorage.clear();
      sessionStorage.clear();
    });
    await tab.page.goto(appUrl(path));
  }

  async function register(email: string, password: string) {
    const { page } = tab;
    await freshVisit('/register');
    await expectHeading(page, 'Register');
    await page.getByLabel('Name').fill('Maria Clara');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'submit' }).click();
    await page.getByText('Please Confirm your email!').waitFor();
  }

  it('registers, types the code from the mail sink, is confirmed and lands on the dashboard; then logs in again', async () => {
    const { page, errors } = tab;
    const email = `${unique('signup')}@example.com`;
    const password = 'correct-horse-battery';
    const before = new Date(Date.now() - 1000);
    await register(email, password);
    await page.waitForURL(/\/two-factor-authentication\/[0-9a-f]{64}$/);
    await expectHeading(page, 'Confirm your e-mail');
    expect(await page.getByLabel('Email').inputValue()).toBe(email);

    await page.getByRole('button', { name: 'submit' }).click();
    await page.getByText('The one-time password is required').waitFor();
    const code = await latestOtpCode(email, { after: before });
    await page.getByLabel('One-time password').fill(code);
    await page.getByRole('button', { name: 'submit' }).click();
    await page.getByText('Email Confirmed').waitFor();
    await page.waitForURL((url) => url.pathname === '/dashboard', { timeout: 15_000 });
    // The dashboard's routes load on this first visit; the public 404 must not answer instead.
    await page.waitForLoadState('networkidle');
    expect(await page.getByText('Page Not Found').count()).toBe(0);
    const confirmed = await adminPool().query(
      'select email_confirmed_at is not null as ok from auth.users where email = $1',
      [email],
    );
    expect(confirmed.rows[0].ok).toBe(true);

    // Signed out (storage forgotten): the login form (Supabase Auth UI) signs the user in again.
    await freshVisit('/login');
    await expectHeading(page, 'Login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Login' }).click();
    await page
      .getByText(/invalid login credentials/i)
      .first()
      .waitFor();
    // docs/behaviour.md §8: the server's answer to a login also shows as a toast at the bottom right.
    await page
      .locator(
        '[data-sonner-toaster][data-y-position="bottom"][data-x-position="right"] [data-sonner-toast]',
        { hasText: /invalid login credentials/i },
      )
      .waitFor();
    errors.splice(0, errors.length, ...errors.filter((e) => !/status of 400/.test(e)));
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard', { timeout: 15_000 });
    expect(errors).toEqual([]);
  }, 180_000);

  it('the forgotten-password flow e-mails a code, verifies it and sets a new password', async () => {
    const { page, errors } = tab;
    const email = `${unique('forgot')}@example.com`;
    const before = new Date(Date.now() - 1000);
    // An account confirmed through the code, as above, then signed out.
    await register(email, 'first-password-123');
    await page.getByLabel('One-time password').fill(await latestOtpCode(email, { after: before }));
    await page.getByRole('button', { name: 'submit' }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard', { timeout: 15_000 });

    await freshVisit('/login');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await expectHeading(page, 'Forgot your password?');
    const resetRequested = new Date(Date.now() - 1000);
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send me a reset code' }).click();
    await page.getByText('a 10-digit reset code is on its way').waitFor();
    const mail = await latestMailTo(email, { after: resetRequested });
    expect(mail.subject).toMatch(/reset/i);
    const code =
      mail.text.match(/\b(\d{6,10})\b/)?.[1] ??
      mail.html.replace(/<[^>]+>/g, ' ').match(/\b(\d{6,10})\b/)?.[1];
    expect(code).toBeTruthy();

    await page.getByRole('button', { name: 'I already have a code' }).click();
    await expectHeading(page, 'Enter your reset code');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('10-digit code from the e-mail').fill(code!);
    await page.getByRole('button', { name: 'Verify code' }).click();
    await expectHeading(page, 'Choose a new password');
    await page.getByLabel('New password').fill('second-password-456');
    await page.getByRole('button', { name: 'Save new password' }).click();
    await page.getByText('Your password has been updated').first().waitFor();
    await page.waitForURL((url) => url.pathname === '/dashboard', { timeout: 15_000 });

    // The new password works.
    await freshVisit('/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('second-password-456');
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard', { timeout: 15_000 });
    expect(errors).toEqual([]);
  }, 180_000);

  it("the confirmation e-mail's link confirms the address without typing the code", async () => {
    const { page, errors } = tab;
    const email = `${unique('link')}@example.com`;
    const before = new Date(Date.now() - 1000);
    await register(email, 'another-long-password');
    const mail = await latestMailTo(email, { after: before });
    const link = mail.html.match(/href="([^"]*\/two-factor-authentication\/[^"]+)"/)?.[1];
    expect(link, 'the e-mail links to the code page').toBeTruthy();
    // The template uses the configured site URL; open the same path on the app under test, in a
    // visit that has not remembered the e-mail (as another browser would).
    const { pathname } = new URL(link!.replace(/&amp;/g, '&'));
    expect(pathname).toMatch(/^\/two-factor-authentication\/[0-9a-f]+$/);
    await freshVisit(pathname);
    await page.getByText('Email Confirmed').waitFor({ timeout: 15_000 });
    await page.waitForURL((url) => url.pathname === '/dashboard', { timeout: 15_000 });
    const confirmed = await adminPool().query(
      'select email_confirmed_at is not null as ok from auth.users where email = $1',
      [email],
    );
    expect(confirmed.rows[0].ok).toBe(true);
    expect(errors).toEqual([]);
  }, 120_000);
});

describe('screenshots', () => {
  it('captures the main public pages at 375, 768 and 1280 px, light and dark, none overflowing sideways', async () => {
    const pages: [name: string, path: string, h1: string][] = [
      ['home', '/', 'Is it a Scam?'],
      ['search', `/search/${encodeURIComponent(reportedSearch)}`, 'Search results'],
      ['news', '/news', 'Scam news'],
      ['register', '/register', 'Register'],
      ['donate', '/donate', 'Support ScamCheck'],
    ];
    for (const dark of [false, true]) {
      const { page, context, errors } = await newTrackedPage(browser, { width: 1280, height: 900, dark });
      try {
        await page.goto(appUrl('/'));
        await expectHeading(page, 'Is it a Scam?');
        for (const width of [375, 768, 1280]) {
          await page.setViewportSize({ width, height: 900 });
          for (const [name, path, h1] of pages) {
            await navigate(page, path);
            await expectHeading(page, h1);
            await page.waitForLoadState('networkidle');
            if (name === 'search')
              await page.getByTestId('incident-map-preview').waitFor({ timeout: 90_000 });
            await screenshot(page, `${name}-${width}-${dark ? 'dark' : 'light'}`);
            const overflow = await page.evaluate(
              () => document.documentElement.scrollWidth - window.innerWidth,
            );
            expect(overflow, `${name} at ${width}px`).toBeLessThanOrEqual(0);
            if (name === 'donate') {
              // Every amount's label fits inside its button.
              const spilled = await page.evaluate(() =>
                Array.from(document.querySelectorAll('main a'))
                  .filter((a) => /^\$/.test(a.textContent ?? '') && a.scrollWidth > a.clientWidth + 1)
                  .map((a) => a.textContent),
              );
              expect(spilled, `donate at ${width}px`).toEqual([]);
            }
          }
        }
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }
  }, 400_000);
});

/**
 * Counts, in a PNG of the map, the pixels of the basemap's land colour and the heat colours, by
 * drawing the PNG into a 2D canvas in the page (no image library needed in Node).
 */
async function countMapPixels(page: Page, base64Png: string): Promise<{ land: number; heat: number }> {
  return page.evaluate(async (data) => {
    const img = new Image();
    img.src = `data:image/png;base64,${data}`;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = img.width;
    canvas.height = img.height;
    const ctx = canvas.getContext('2d')!;
    ctx.drawImage(img, 0, 0);
    const { data: px } = ctx.getImageData(0, 0, img.width, img.height);
    let land = 0;
    let heat = 0;
    for (let i = 0; i < px.length; i += 4) {
      const [r, g, b] = [px[i], px[i + 1], px[i + 2]];
      if (Math.abs(r - 38) < 6 && Math.abs(g - 46) < 6 && Math.abs(b - 61) < 6) land++;
      // The heat ramp runs teal to red: far brighter and more saturated than land or sea.
      else if (Math.max(r, g, b) > 110 && Math.max(r, g, b) - Math.min(r, g, b) > 60) heat++;
    }
    return { land, heat };
  }, base64Png);
}

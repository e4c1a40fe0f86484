/**
 * Shared helpers for browser tests (tests/e2e): a headless Chromium, pages that record console
 * errors, screenshots into tests/artifacts/ (git-ignored) and the one-time code from the mail sink.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type ConsoleMessage, type Page } from 'playwright-core';
import { ROOT_DIR } from '../../supabase/project/index.ts';

export const ARTIFACTS_DIR = path.join(ROOT_DIR, 'tests', 'artifacts');

/** Debian's chromium (installed by .ci/run); CHROMIUM_PATH overrides it elsewhere. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/** The app under test (global-setup starts Vite against the test stack). */
export function appUrl(pathname = '/'): string {
  const base = process.env.STACK_APP_URL;
  if (!base)
    throw new Error(
      'STACK_APP_URL is not set: run the browser tests through vitest (global-setup starts the stack)',
    );
  return new URL(pathname, base).toString();
}

export interface TrackedPage {
  page: Page;
  context: BrowserContext;
  /** Console errors and uncaught exceptions seen so far, as text. */
  errors: string[];
}

export interface PageOptions {
  width?: number;
  height?: number;
  dark?: boolean;
}

/**
 * A fresh context (own storage, so no session leaks between tests) and page that records every
 * console error and uncaught exception. `dark` stores the theme choice before the app loads.
 */
export async function newTrackedPage(
  browser: Browser,
  { width = 1280, height = 800, dark = false }: PageOptions = {},
): Promise<TrackedPage> {
  const context = await browser.newContext({
    viewport: { width, height },
    baseURL: process.env.STACK_APP_URL,
  });
  if (dark) await context.addInitScript(() => localStorage.setItem('darkTheme', 'true'));
  // Every page of the context, this one and any a test opens later, waits for the app after a visit.
  context.on('page', waitForAppAfterVisits);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (msg: ConsoleMessage) => {
    // Chromium asks for /favicon.ico by itself on documents without an icon link (not the app).
    if (msg.type() === 'error' && !msg.location().url.endsWith('/favicon.ico'))
      errors.push(`${msg.text()} (${msg.location().url})`);
  });
  page.on('pageerror', (err) => errors.push(`uncaught: ${err.message}`));
  return { page, context, errors };
}

/**
 * Waits until React has taken the page over from the page shell (src/boot/page-shell.ts): the shell is
 * static HTML painted before the app's code runs, so a key pressed or a button clicked on it is lost
 * (Enter in its search box only adds a line). Pages without the app's root (JSON, files) pass at once.
 */
export async function waitForApp(page: Page, timeout = 45_000): Promise<void> {
  await page.waitForFunction(
    () => {
      const root = document.getElementById('root');
      const first = root?.firstElementChild;
      return !root || (!!first && Object.keys(first).some((key) => key.startsWith('__reactFiber')));
    },
    undefined,
    { timeout },
  );
}

/** Makes the page's goto and reload wait for the app as well (waitForApp). */
function waitForAppAfterVisits(page: Page): void {
  const goto = page.goto.bind(page);
  const reload = page.reload.bind(page);
  page.goto = async (url, options) => {
    const response = await goto(url, options);
    if (options?.waitUntil !== 'commit') await waitForApp(page);
    return response;
  };
  page.reload = async (options) => {
    const response = await reload(options);
    if (options?.waitUntil !== 'commit') await waitForApp(page);
    return response;
  };
}

/**
 * Saves a full-page screenshot as tests/artifacts/<name>.png and returns its path; `viewport` shoots
 * what the window shows instead (a dialog over a long, scrolled page: a full-page shot draws the
 * fixed header and overlay where the scroll left them).
 */
export async function screenshot(page: Page, name: string, { viewport = false } = {}): Promise<string> {
  await fs.mkdir(ARTIFACTS_DIR, { recursive: true });
  const file = path.join(ARTIFACTS_DIR, `${name.replace(/[^a-z0-9-_]+/gi, '-')}.png`);
  await page.screenshot({ path: file, fullPage: !viewport });
  return file;
}

interface MailSummary {
  ID: string;
  Created: string;
  Subject: string;
}

/**
 * Waits for the newest message to `email` in the mail sink (Mailpit's API) and returns its text and
 * HTML bodies.
 */
export async function latestMailTo(
  email: string,
  { timeoutMs = 15_000, after }: { timeoutMs?: number; after?: Date } = {},
) {
  const base = process.env.STACK_MAILPIT_URL;
  if (!base) throw new Error('STACK_MAILPIT_URL is not set');
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const res = await fetch(`${base}/api/v1/search?query=${encodeURIComponent(`to:${email}`)}`);
    if (res.ok) {
      const { messages = [] } = (await res.json()) as { messages?: MailSummary[] };
      const fresh = messages
        .filter((m) => !after || new Date(m.Created) >= after)
        .sort((a, b) => Date.parse(b.Created) - Date.parse(a.Created));
      if (fresh[0]) {
        const full = (await (await fetch(`${base}/api/v1/message/${fresh[0].ID}`)).json()) as {
          Subject: string;
          Text?: string;
          HTML?: string;
        };
        return { subject: full.Subject, text: full.Text ?? '', html: full.HTML ?? '' };
      }
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no e-mail to ${email} arrived within ${timeoutMs} ms`);
}

/** The one-time code (supabase/config.toml otp_length: 10 digits) in the newest e-mail to `email`. */
export async function latestOtpCode(
  email: string,
  options?: { timeoutMs?: number; after?: Date },
): Promise<string> {
  const mail = await latestMailTo(email, options);
  const match = `${mail.text}\n${mail.html.replace(/<[^>]+>/g, ' ')}`.match(/\b(\d{6,10})\b/);
  if (!match) throw new Error(`no one-time code in the e-mail "${mail.subject}" to ${email}`);
  return match[1];
}

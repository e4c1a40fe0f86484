/**
 * The home page's shell in index.html (src/boot/page-shell.ts, issue 12): a production build shows the
 * page before the app's JavaScript has run, and React's page then takes over without a visible change.
 * For each language and theme, at a phone's and a desktop's width, the shell (the app's code held back)
 * and the page React renders must agree in the heading, <html class> and <html lang>, and look the same
 * pixel for pixel. Text typed into the shell's search box before the app takes over is kept.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, preview, type PreviewServer } from 'vite';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ROOT_DIR } from '../supabase/project/index.ts';
import { launchBrowser } from './e2e/helpers.ts';

let outDir: string | undefined;
let server: PreviewServer | undefined;
let browser: Browser;
let baseUrl: string;

beforeAll(async () => {
  browser = await launchBrowser();
  // The test stack already serves a production build (global setup, STACK_APP_BUILD_DIR); only a
  // stack that runs Vite's dev server (STACK_APP_MODE=dev), which has no shell, needs a build of our own.
  if (process.env.STACK_APP_BUILD_DIR && process.env.STACK_APP_URL) {
    baseUrl = process.env.STACK_APP_URL.replace(/\/$/, '');
    return;
  }
  outDir = await fs.mkdtemp(path.join(os.tmpdir(), 'scamcheck-shell-'));
  // As `npm run build` does: vitest's NODE_ENV=test would bundle React's development build.
  const previousNodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({
      root: ROOT_DIR,
      configFile: path.join(ROOT_DIR, 'vite.config.ts'),
      mode: 'production',
      logLevel: 'silent',
      build: { outDir, emptyOutDir: true },
    });
  } finally {
    process.env.NODE_ENV = previousNodeEnv;
  }
  server = await preview({
    root: ROOT_DIR,
    configFile: path.join(ROOT_DIR, 'vite.config.ts'),
    logLevel: 'silent',
    build: { outDir },
    preview: { port: 0, host: '127.0.0.1' },
  });
  baseUrl = server.resolvedUrls!.local[0].replace(/\/$/, '');
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (outDir) await fs.rm(outDir, { recursive: true, force: true });
});

/** A visitor with these stored choices; the news stays loading, as it is when React first renders. */
async function visitor(
  { language, dark, width, locale }: { language?: string; dark: boolean; width: number; locale?: string },
  holdAppCode: Promise<void> | 'block' | null,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: { width, height: 800 },
    locale: locale ?? 'en-US',
    serviceWorkers: 'block',
  });
  await context.addInitScript(
    ([language, dark]) => {
      if (language) localStorage.setItem('language', language as string);
      localStorage.setItem('darkTheme', String(dark));
    },
    [language ?? null, dark] as const,
  );
  const page = await context.newPage();
  await page.route('**/rest/v1/**', () => undefined);
  if (holdAppCode === 'block') await page.route('**/assets/*.js', (route) => route.abort());
  else if (holdAppCode) {
    const gate = holdAppCode;
    await page.route('**/assets/*.js', async (route) => {
      await gate;
      await route.continue();
    });
  }
  return { context, page };
}

const reactMounted = (page: Page) =>
  page.waitForFunction(() =>
    Object.keys(document.getElementById('root')!).some((k) => k.startsWith('__reactContainer')),
  );

async function state(page: Page) {
  return {
    heading: await page.locator('h1').textContent(),
    htmlClass: await page.evaluate(() => document.documentElement.className),
    lang: await page.evaluate(() => document.documentElement.lang),
    // What the shell showed (src/boot/globals.ts).
    shell: await page.evaluate(() =>
      Boolean((window as { __scamcheck?: { shell?: object } }).__scamcheck?.shell),
    ),
    screenshot: await page.screenshot({ animations: 'disabled' }),
  };
}

describe('the home page shell', () => {
  const cases = [
    { language: 'en', dark: false, heading: 'Is it a Scam?' },
    { language: 'en', dark: true, heading: 'Is it a Scam?' },
    { language: 'fil', dark: false, heading: 'Scam ba ito?' },
    { language: 'fil', dark: true, heading: 'Scam ba ito?' },
  ];
  for (const width of [375, 1280]) {
    for (const c of cases) {
      it(`reads and looks as the app's page: ${c.language}, ${c.dark ? 'dark' : 'light'}, ${width} px`, async () => {
        const shell = await visitor({ ...c, width }, 'block');
        await shell.page.goto(`${baseUrl}/`);
        const before = await state(shell.page);
        await shell.context.close();
        expect(before).toMatchObject({
          heading: c.heading,
          htmlClass: c.dark ? 'dark' : '',
          lang: c.language,
          shell: true,
        });

        const app = await visitor({ ...c, width }, null);
        await app.page.goto(`${baseUrl}/`);
        await reactMounted(app.page);
        const after = await state(app.page);
        await app.context.close();
        expect({ ...after, screenshot: undefined }).toEqual({ ...before, screenshot: undefined });
        expect(after.screenshot.equals(before.screenshot)).toBe(true);
      });
    }
  }

  it("follows the browser's language when none is stored", async () => {
    const { context, page } = await visitor({ dark: false, width: 375, locale: 'fil-PH' }, 'block');
    await page.goto(`${baseUrl}/`);
    expect(await page.locator('h1').textContent()).toBe('Scam ba ito?');
    await context.close();
  });

  it('is not shown to a visitor who may be signed in, nor on other pages', async () => {
    const { context, page } = await visitor({ dark: false, width: 375 }, 'block');
    await page.goto(`${baseUrl}/about`);
    expect(await page.locator('#root').innerHTML()).toBe('');
    await page.evaluate(() => localStorage.setItem('sb-127-auth-token', '{}'));
    await page.goto(`${baseUrl}/`);
    expect(await page.locator('#root').innerHTML()).toBe('');
    await context.close();
  });

  it('keeps what the visitor typed into the search box before the app took over', async () => {
    let release!: () => void;
    const { context, page } = await visitor(
      { language: 'en', dark: false, width: 375 },
      new Promise<void>((resolve) => (release = resolve)),
    );
    // The app's code is held back, so the page never finishes loading until it is released.
    await page.goto(`${baseUrl}/`, { waitUntil: 'commit' });
    await page.locator('textarea').pressSequentially('0917 555');
    release();
    await reactMounted(page);
    // The app's own box, not the shell's: React renders the page a little after it creates its root, and
    // a check on the shell's box (still in the page until then) would pass whatever the app does.
    await page.waitForFunction(() =>
      Object.keys(document.querySelector('textarea') ?? {}).some((k) => k.startsWith('__react')),
    );
    const search = page.locator('textarea');
    expect(await search.inputValue()).toBe('0917 555');
    expect(await search.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type('0142');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${baseUrl}/search/0917%205550142`);
    await context.close();
  });

  for (const how of ['Enter', 'the button'] as const) {
    it(`makes the search asked for with ${how} in the shell once the app takes over`, async () => {
      let release!: () => void;
      const { context, page } = await visitor(
        { language: 'en', dark: false, width: 375 },
        new Promise<void>((resolve) => (release = resolve)),
      );
      await page.goto(`${baseUrl}/`, { waitUntil: 'commit' });
      await page.locator('textarea').pressSequentially('0917 555 0142');
      if (how === 'Enter') await page.keyboard.press('Enter');
      else await page.getByRole('button', { name: 'Search' }).click();
      // Nothing happens before the app runs: no reload with the text in the address.
      expect(new URL(page.url()).search).toBe('');
      // The results page is reached: the arrival is what is checked (the stack's build then shows the
      // answer; a build of this test's own has no API, so its search fails and the page goes back home).
      const reached = page.waitForEvent('framenavigated', {
        predicate: (frame) => frame.url() === `${baseUrl}/search/0917%20555%200142`,
        timeout: 30_000,
      });
      release();
      await reached;
      await context.close();
    });
  }
});

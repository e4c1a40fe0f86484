/**
 * Issue 33 in a real browser at 375 px: five phone screenshots (1080 x 2400 PNG, the first 1.3 MB) are
 * made smaller on the device and filed with a report; the stored files are under 500,000 bytes and
 * their text still reads (Tesseract, as /check reads screenshots); the "what to do now" checklist shows
 * after filing; the complaint pack downloads as a PDF in English and in Filipino, holding the
 * identifiers, the amounts, the stored images' SHA-256 and a bank letter asking for the RA 12010 hold.
 * One screenshot's shrinking is timed with Chromium's 4x CPU throttling (a mid-range phone), written to
 * tests/artifacts/evidence-timing.json. Screenshots of the form, the checklist and the pack dialog go
 * to tests/artifacts/.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../../supabase/tests/functions/helpers.ts';
import { adminPool, stackEnv } from '../../supabase/tests/helpers.ts';
import { startReader } from '../ocr/read.ts';
import { pdfText } from '../../src/testing/pdf-text.ts';
import {
  ARTIFACTS_DIR,
  appUrl,
  launchBrowser,
  newTrackedPage,
  screenshot,
  type TrackedPage,
} from './helpers.ts';

const SHOTS = 5;
/** Chromium's CPU throttling rate for the timing: what DevTools calls a mid-tier mobile. */
const THROTTLE = 4;
/**
 * The target is 1 s for one screenshot, from the pick to the accepted file on the page. The
 * test times it in the page (the input's change event to the size caption, by the page's clock) and,
 * beside it, by the wall clock from setInputFiles, which also holds Playwright's transfer of the file
 * into the page (base64-decoded by script on the same throttled main thread: most of that figure).
 * Measured 2026-11-28 under a load average of 14-16: in the page 844-1,186 ms, wall clock 6.0-9.5 s.
 * The test writes both out and fails only far above them, so that a regression stands out.
 */
const TIMING_LIMIT_MS = 15_000;

let browser: Browser;
let user: TestUser;
let tab: TrackedPage;
const shots: Buffer[] = [];
const digits = String(Date.now()).slice(-7);
const reported = `0917 ${digits.slice(0, 3)} ${digits.slice(3)}`;
const reportedCanonical = `+63917${digits}`;
let storedPaths: string[] = [];
const storedHashes: string[] = [];

/**
 * A phone chat screenshot, 1080 x 2400, as Chromium renders it: chat bubbles with reference numbers
 * and a photo-like band of textured colour (what makes real screenshots 1 to 3 MB as PNG).
 */
async function chatScreenshot(page: Page, n: number): Promise<Buffer> {
  const band = 440;
  await page.setContent(`<body style="margin:0;font:30px sans-serif;background:#fff">
    <div style="height:120px;background:#075e54;color:#fff;font-size:40px;padding:36px 40px;box-sizing:border-box">Seller ${n} (${reported})</div>
    <div id="chat"></div>
    <canvas id="photo" width="1080" height="${band}" style="position:absolute;left:0;top:${2400 - band - 40}px"></canvas></body>`);
  await page.evaluate(
    ({ band, n }) => {
      const chat = document.getElementById('chat')!;
      for (let k = 0; k < 28; k++) {
        const me = k % 3 === 1;
        const d = document.createElement('div');
        d.textContent = me
          ? `Sent GCash 5,000 ref 5012 3456 ${n}${k}`
          : `Pay the release fee first po #${n}-${k}`;
        d.style.cssText = `margin:14px ${me ? '40px 0 380px' : '380px 0 40px'};padding:12px 20px;border-radius:18px;background:${me ? '#0b93f6' : '#e5e5ea'};color:${me ? '#fff' : '#000'}`;
        chat.appendChild(d);
      }
      const ctx = (document.getElementById('photo') as HTMLCanvasElement).getContext('2d')!;
      const img = ctx.createImageData(1080, band);
      let seed = 7 + n;
      const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
      for (let y = 0; y < band; y++)
        for (let x = 0; x < 1080; x++) {
          const i = (y * 1080 + x) * 4;
          const base = 128 + 90 * Math.sin(x / 70) * Math.cos(y / 50);
          img.data[i] = base + rnd() * 60;
          img.data[i + 1] = base * 0.8 + rnd() * 60;
          img.data[i + 2] = 200 - base / 2 + rnd() * 60;
          img.data[i + 3] = 255;
        }
      ctx.putImageData(img, 0, 0);
    },
    { band, n },
  );
  return page.screenshot({ type: 'png' });
}

const pick = (i: number) => ({ name: `shot-${i + 1}.png`, mimeType: 'image/png', buffer: shots[i] });

async function login(page: Page) {
  await page.goto(appUrl('/login'));
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL(/\/dashboard/, { timeout: 30_000 });
}

beforeAll(async () => {
  [browser, user] = await Promise.all([launchBrowser(), createUser('victim', { name: 'Maria Santos' })]);
  const painter = await browser.newPage({ viewport: { width: 1080, height: 2400 } });
  for (let n = 1; n <= SHOTS; n++) shots.push(await chatScreenshot(painter, n));
  await painter.close();
  tab = await newTrackedPage(browser, { width: 375, height: 800 });
});

afterAll(async () => {
  await tab?.context.close();
  await browser?.close();
});

describe('evidence from a phone and the complaint pack', () => {
  it('makes a 1.3 MB screenshot an accepted file on the device, timed with 4x CPU throttling', async () => {
    expect(shots[0].length).toBeGreaterThan(1_250_000);
    expect(shots[0].length).toBeLessThan(1_500_000);
    const { page } = tab;
    await login(page);
    await page.goto(appUrl('/dashboard/add-report'));
    const input = page.getByLabel('Evidence (up to 5 screenshots)');
    await input.waitFor({ timeout: 30_000 });
    const sizes = page.getByTestId('image-size');
    const removeAll = async () => {
      while ((await sizes.count()) > 0)
        await page
          .getByRole('button', { name: /^Remove / })
          .first()
          .click();
    };
    // The first pick also loads the worker's code: not part of the shrinking.
    await input.setInputFiles(pick(1));
    await sizes.first().waitFor({ timeout: 60_000 });
    await removeAll();

    const cdp = await tab.context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE });
    const times: number[] = [];
    const inPage: number[] = [];
    try {
      for (let round = 0; round < 3; round++) {
        // In the page: from the input's change event to the size caption in the DOM, by the page's own
        // clock, with no polling from here (Playwright's waitFor runs its selector engine on the same
        // throttled main thread). The wall-clock figure also holds Playwright's file transfer.
        const shown = input.evaluate(
          (el) =>
            new Promise<number>((resolve) => {
              el.addEventListener(
                'change',
                () => {
                  const picked = performance.now();
                  const caption = () => document.querySelector('[data-testid="image-size"]');
                  if (caption()) return resolve(performance.now() - picked);
                  const observer = new MutationObserver(() => {
                    if (!caption()) return;
                    observer.disconnect();
                    resolve(performance.now() - picked);
                  });
                  observer.observe(document.body, { childList: true, subtree: true });
                },
                { capture: true, once: true },
              );
            }),
        );
        // The listener is in place before the file is set (evaluate resolves only when the promise does).
        await input.evaluate(() => undefined);
        const started = Date.now();
        await input.setInputFiles(pick(0));
        inPage.push(Math.round(await shown));
        times.push(Date.now() - started);
        if (round < 2) await removeAll();
      }
    } finally {
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    }
    const median = (list: number[]) => [...list].sort((a, b) => a - b)[1];
    const caption = await sizes.first().textContent();
    await fs.mkdir(ARTIFACTS_DIR, { recursive: true });
    await fs.writeFile(
      path.join(ARTIFACTS_DIR, 'evidence-timing.json'),
      JSON.stringify(
        {
          throttle: THROTTLE,
          bytes: shots[0].length,
          inPage: {
            from: 'change event',
            to: 'size caption in the DOM',
            times: inPage,
            median: median(inPage),
          },
          wallClock: { from: 'setInputFiles', to: 'size caption in the DOM', times, median: median(times) },
          caption,
        },
        null,
        2,
      ),
    );
    console.log(
      `one 1080 x 2400 screenshot (${shots[0].length} B), ${THROTTLE}x throttled: in the page ${inPage.join(', ')} ms; wall clock with Playwright's transfer ${times.join(', ')} ms`,
    );
    expect(caption).toMatch(/^[\d.,]+ KB \(was 1\.3 MB\)1080 × 2400$/);
    expect(median(inPage)).toBeLessThan(TIMING_LIMIT_MS);
    expect(median(times)).toBeLessThan(TIMING_LIMIT_MS * 2);
  });

  it('files the report with five screenshots; each stored file is under 500,000 bytes and its text reads', async () => {
    const { page } = tab;
    await page.getByLabel('Reported account', { exact: true }).fill(reported);
    await page
      .getByLabel('Incident description')
      .fill('Sold me a phone on Facebook, took GCash, blocked me.');
    await page.getByLabel('Amount lost in pesos (optional)').fill('15000');
    await page.getByRole('radio', { name: 'yes' }).click();
    await page.getByLabel('Evidence (up to 5 screenshots)').setInputFiles([1, 2, 3, 4].map(pick));
    await expect.poll(() => page.getByTestId('image-size').count(), { timeout: 60_000 }).toBe(SHOTS);
    for (const caption of await page.getByTestId('image-size').allTextContents())
      expect(caption).toMatch(/^[\d.,]+ KB \(was [\d.,]+ (KB|MB)\)1080 × 2400$/);
    // A sixth cannot be added.
    expect(await page.getByLabel('Evidence (up to 5 screenshots)').isDisabled()).toBe(true);
    await screenshot(page, 'evidence-form-375');

    await page.getByRole('button', { name: 'submit' }).click();
    await page.getByTestId('after-filing').waitFor({ timeout: 60_000 });

    const { rows } = await adminPool().query<{ evidence_paths: string[] }>(
      'select evidence_paths from public.reports where reporter_id = $1',
      [user.id],
    );
    expect(rows).toHaveLength(1);
    storedPaths = rows[0].evidence_paths;
    expect(storedPaths).toHaveLength(SHOTS);
    const reader = await startReader();
    try {
      for (const [i, p] of storedPaths.entries()) {
        const res = await fetch(`${stackEnv('API_URL')}/storage/v1/object/evidence/${p}`, {
          headers: { authorization: `Bearer ${stackEnv('SERVICE_ROLE_KEY')}` },
        });
        expect(res.status).toBe(200);
        const stored = Buffer.from(await res.arrayBuffer());
        expect(stored.length).toBeLessThan(500_000);
        storedHashes.push(createHash('sha256').update(stored).digest('hex'));
        const meta = await sharp(stored).metadata();
        expect([meta.width, meta.height]).toEqual([1080, 2400]);
        if (i === 0) {
          await fs.writeFile(path.join(ARTIFACTS_DIR, 'evidence-stored-1.jpg'), stored);
          // The header and the first bubbles, as a reader of the image would read them.
          const top = await sharp(stored)
            .extract({ left: 0, top: 0, width: 1080, height: 520 })
            .png()
            .toBuffer();
          const { data } = await reader.recognize(top);
          expect(data.text).toContain(`Seller 1 (${reported})`);
          // Tesseract unprepared skips white text on blue (/check prepares images for that); the dark
          // bubbles read as typed.
          expect(data.text).toContain('Pay the release fee first po #1-0');
        }
      }
    } finally {
      await reader.terminate();
    }
  });

  it('shows what to do now after filing, and makes the complaint pack in English and Filipino', async () => {
    const { page, errors } = tab;
    const card = page.getByTestId('after-filing');
    await expect
      .poll(() => card.getByRole('listitem').count(), { timeout: 20_000 })
      .toBeGreaterThanOrEqual(4);
    const steps = await card.innerText();
    expect(steps).toMatch(/bank or e-wallet/i);
    expect(steps).toMatch(/1326/);
    expect(steps).toMatch(/fund recovery/i);
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, 'evidence-after-filing-375');

    await page.getByRole('button', { name: 'Make a complaint pack' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Your full name').fill('Maria Santos');
    await dialog.getByLabel('Your mobile number').fill('0917 555 0101');
    await dialog.getByLabel('Your bank or e-wallet').fill('GCash');
    await dialog
      .getByLabel('Transfers, one per line')
      .fill(`5012 345 678901 | 15,000 | 2026-11-25 14:02 | ${reported}`);
    await screenshot(page, 'evidence-pack-dialog-375');

    for (const [language, label, hold] of [
      ['en', 'English', /hold the disputed funds/],
      ['fil', 'Filipino', /i-hold ang pinagtatalunang pondo/],
    ] as const) {
      await dialog.getByRole('radio', { name: label }).check();
      const [download] = await Promise.all([
        page.waitForEvent('download', { timeout: 60_000 }),
        dialog.getByRole('button', { name: 'Download PDF' }).click(),
      ]);
      const file = path.join(ARTIFACTS_DIR, `evidence-pack-${language}.pdf`);
      await download.saveAs(file);
      const bytes = new Uint8Array(await fs.readFile(file));
      expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-');
      const { text } = await pdfText(bytes);
      const all = text.join('\n');
      expect(all).toContain(reported);
      expect(all).toContain(reportedCanonical);
      expect(all).toContain('PHP 15,000.00');
      expect(all).toContain('5012 345 678901');
      expect(all).toContain('Maria Santos');
      for (const hash of storedHashes) expect(all).toContain(`SHA-256 ${hash}`);
      const letter = text.find((p) => /Republic Act No\. 12010/.test(p) && /GCash/.test(p));
      expect(letter, `the ${language} pack has a letter to GCash under RA 12010`).toBeDefined();
      expect(letter).toMatch(hold);
    }
    expect(errors).toEqual([]);
  });
});

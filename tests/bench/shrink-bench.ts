/**
 * The in-browser image shrinking of issue 33 (src/lib/image-shrink.ts), timed in Chromium with 4x CPU
 * throttling (DevTools' mid-tier phone), the current code against an earlier revision's, alternating
 * in one run so the shared machine's load weighs on both alike:
 *
 *   npm run bench:shrink                        # against main
 *   npm run bench:shrink -- --against 07dd104 --rounds 9 --throttle 4
 *
 * Both versions are built with Vite into one page (tmp/shrink-bench/), as the app builds them: the
 * worker a module chunk of its own. Images: a 1080 x 2400 phone chat screenshot (PNG, about 1.3 MB, the
 * issue's case, drawn as tests/e2e/evidence.test.ts draws it) and a 12-megapixel photo (JPEG, about
 * 4 MB). Each timing runs from the picked File to the accepted File, as a form awaits it; the current
 * code's picker starts its worker when it appears, so the bench does the same before timing. Prints the
 * medians, their ratio, where the current code's time went (decode, draw, encode, passes) and the load
 * average; writes each version's output to tests/artifacts/shrink-<version>-<image>.jpg to look at.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { build } from 'vite';
import react from '@vitejs/plugin-react';
import { chromium } from 'playwright-core';
import { ROOT_DIR } from '../../supabase/project/index.ts';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
};
const AGAINST = arg('against', 'main');
const ROUNDS = Number(arg('rounds', '7'));
const THROTTLE = Number(arg('throttle', '4'));
const FILES = ['image-shrink.ts', 'image-shrink-core.ts', 'image-shrink.worker.ts'];
const WORK = path.join(ROOT_DIR, 'tmp', 'shrink-bench');
const ARTIFACTS = path.join(ROOT_DIR, 'tests', 'artifacts');

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const load = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(' ');

/** The page: both versions of shrinkImage, built as the app builds them. */
async function buildPage(): Promise<string> {
  await fs.rm(WORK, { recursive: true, force: true });
  await fs.mkdir(path.join(WORK, 'before'), { recursive: true });
  for (const file of FILES)
    await fs.writeFile(
      path.join(WORK, 'before', file),
      execFileSync('git', ['show', `${AGAINST}:src/lib/${file}`], { cwd: ROOT_DIR, encoding: 'utf8' }),
    );
  await fs.writeFile(
    path.join(WORK, 'entry.ts'),
    `import * as now from '@/lib/image-shrink';\nimport * as before from './before/image-shrink';\n` +
      `(window as unknown as { versions: unknown }).versions = { now, before };\n`,
  );
  await fs.writeFile(
    path.join(WORK, 'index.html'),
    '<!doctype html><html><body><script type="module" src="./entry.ts"></script></body></html>',
  );
  const dist = path.join(WORK, 'dist');
  const previous = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({
      root: WORK,
      configFile: false,
      logLevel: 'warn',
      mode: 'production',
      plugins: [react()],
      resolve: { alias: { '@': path.join(ROOT_DIR, 'src') } },
      build: { outDir: dist, emptyOutDir: true },
    });
  } finally {
    process.env.NODE_ENV = previous;
  }
  return dist;
}

/** A 12-megapixel photo-like JPEG (smooth shapes, fine texture and sensor noise), about 4 MB. */
async function photo(): Promise<Buffer> {
  const [w, h] = [4032, 3024];
  const raw = Buffer.alloc(w * h * 3);
  let seed = 42;
  const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = (y * w + x) * 3;
      const b = 120 + 80 * Math.sin(x / 310 + Math.cos(y / 170)) * Math.cos(y / 230);
      const leaf = Math.sin(x / 9) * Math.sin(y / 11) * 25;
      raw[i] = Math.max(0, Math.min(255, b + leaf + rnd() * 30));
      raw[i + 1] = Math.max(0, Math.min(255, b * 0.9 + 30 + rnd() * 30));
      raw[i + 2] = Math.max(0, Math.min(255, 220 - b / 2 + leaf + rnd() * 30));
    }
  return sharp(raw, { raw: { width: w, height: h, channels: 3 } })
    .jpeg({ quality: 92 })
    .toBuffer();
}

/** The evidence test's chat screenshot: 1080 x 2400, chat bubbles and a band of textured colour. */
const PAINT_SCREENSHOT = `(() => {
  const band = 440, n = 1;
  document.body.innerHTML = '<div style="height:120px;background:#075e54;color:#fff;font-size:40px;padding:36px 40px;box-sizing:border-box">Seller 1 (0917 555 0142)</div><div id="chat"></div><canvas id="photo" width="1080" height="' + band + '" style="position:absolute;left:0;top:' + (2400 - band - 40) + 'px"></canvas>';
  document.body.style.cssText = 'margin:0;font:30px sans-serif;background:#fff';
  const chat = document.getElementById('chat');
  for (let k = 0; k < 28; k++) {
    const me = k % 3 === 1;
    const d = document.createElement('div');
    d.textContent = me ? 'Sent GCash 5,000 ref 5012 3456 ' + n + k : 'Pay the release fee first po #' + n + '-' + k;
    d.style.cssText = 'margin:14px ' + (me ? '40px 0 380px' : '380px 0 40px') + ';padding:12px 20px;border-radius:18px;background:' + (me ? '#0b93f6' : '#e5e5ea') + ';color:' + (me ? '#fff' : '#000');
    chat.appendChild(d);
  }
  const ctx = document.getElementById('photo').getContext('2d');
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
})()`;

interface Run {
  ms: number;
  bytes: number;
  width: number;
  height: number;
  timings?: { decode: number; draw: number; encode: number; passes: number };
  jpeg: number[] | null;
}

async function main() {
  console.log(`Building the current code and ${AGAINST}'s (${FILES.join(', ')})...`);
  const dist = await buildPage();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  try {
    const painter = await browser.newPage({ viewport: { width: 1080, height: 2400 } });
    await painter.setContent('<body></body>');
    await painter.evaluate(PAINT_SCREENSHOT);
    const images: Record<string, { bytes: Buffer; type: string; name: string }> = {
      screenshot: { bytes: await painter.screenshot({ type: 'png' }), type: 'image/png', name: 'shot.png' },
      photo: { bytes: await photo(), type: 'image/jpeg', name: 'photo.jpg' },
    };
    await painter.close();

    const page = await browser.newPage();
    await page.route('http://bench.test/**', async (route) => {
      const url = new URL(route.request().url());
      const image = Object.values(images).find((i) => url.pathname === `/img/${i.name}`);
      if (image) return route.fulfill({ body: image.bytes, contentType: image.type });
      const file = path.join(dist, url.pathname === '/' ? 'index.html' : url.pathname);
      const ext = path.extname(file);
      return route.fulfill({
        body: await fs.readFile(file),
        contentType:
          ext === '.html' ? 'text/html' : ext === '.js' ? 'text/javascript' : 'application/octet-stream',
      });
    });
    await page.goto('http://bench.test/');
    await page.waitForFunction('window.versions');
    // The current picker holds its worker from the moment it appears (image-file-input.tsx).
    await page.evaluate('window.versions.now.holdImageShrinkWorker?.()');

    const shrink = (version: string, image: string, keep = false): Promise<Run> =>
      page.evaluate(
        `(async () => {
          const image = ${JSON.stringify(images[image].name)};
          const blob = await (await fetch('/img/' + image)).blob();
          const file = new File([blob], image, { type: ${JSON.stringify(images[image].type)} });
          const started = performance.now();
          const out = await window.versions[${JSON.stringify(version)}].shrinkImage(file);
          const ms = performance.now() - started;
          const jpeg = ${keep} ? [...new Uint8Array(await out.file.arrayBuffer())] : null;
          return { ms, bytes: out.file.size, width: out.width, height: out.height, timings: out.timings, jpeg };
        })()`,
      ) as Promise<Run>;

    const cdp = await page.context().newCDPSession(page);
    await fs.mkdir(ARTIFACTS, { recursive: true });
    console.log(`Chromium, ${THROTTLE}x CPU throttling, ${ROUNDS} rounds per image; load average ${load()}`);
    for (const image of Object.keys(images)) {
      // One untimed run each: the old code fetches its worker's code on first use too.
      for (const version of ['before', 'now']) {
        const run = await shrink(version, image, true);
        await fs.writeFile(path.join(ARTIFACTS, `shrink-${version}-${image}.jpg`), Buffer.from(run.jpeg!));
      }
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE });
      const runs: Record<string, Run[]> = { before: [], now: [] };
      for (let round = 0; round < ROUNDS; round++)
        for (const version of round % 2 ? ['now', 'before'] : ['before', 'now'])
          runs[version].push(await shrink(version, image));
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
      const [b, n] = [runs.before, runs.now];
      const mb = median(b.map((r) => r.ms));
      const mn = median(n.map((r) => r.ms));
      const phase = (k: 'decode' | 'draw' | 'encode' | 'passes') =>
        median(n.map((r) => r.timings?.[k] ?? NaN));
      console.log(
        `${image} (${images[image].bytes.length.toLocaleString('en')} B): before ${AGAINST} median ${mb.toFixed(0)} ms ` +
          `[${b.map((r) => r.ms.toFixed(0)).join(', ')}] -> ${b[0].width} x ${b[0].height}, ${b[0].bytes.toLocaleString('en')} B; ` +
          `now median ${mn.toFixed(0)} ms [${n.map((r) => r.ms.toFixed(0)).join(', ')}] -> ${n[0].width} x ${n[0].height}, ` +
          `${n[0].bytes.toLocaleString('en')} B; ratio ${(mb / mn).toFixed(2)}x`,
      );
      console.log(
        `  now, inside the worker (medians): decode ${phase('decode').toFixed(0)} ms, draw ${phase('draw').toFixed(0)} ms, ` +
          `encode ${phase('encode').toFixed(0)} ms in ${phase('passes')} pass(es); load average ${load()}`,
      );
    }
  } finally {
    await browser.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});

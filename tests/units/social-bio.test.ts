/**
 * The bio-code check of a social account's ownership proof (supabase/functions/_shared/social-bio.ts,
 * issue 32) without the stack: which parts of a page count as its bio, pathological pages, which
 * accounts can be checked at all, and the check against a page served by this test's own server (on a
 * loopback port allowed exactly as the test stack's OWNERSHIP_TEST_ORIGIN allows its own).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BIO_PAGE_BYTES,
  bioHasCode,
  bioTexts,
  checkBioProof,
} from '../../supabase/functions/_shared/social-bio.ts';
import { bioPageUrl, bioPlatform } from '../../supabase/functions/_shared/social-bio-platforms.ts';

const CODE = 'scamcheck-0a1b2c3d4e5f';

/** A t.me page as Telegram serves it, with `description` as the bio (already HTML). */
function telegramPage(description: string, extra = ''): string {
  return `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Telegram: Contact @nenastore</title>
<meta property="og:title" content="Nena Store">
<meta property="og:description" content="${description.replace(/"/g, '&quot;').replace(/<br\/?>/g, '\n')}">
<meta property="twitter:title" content="Nena Store">
</head><body>${extra}
<div class="tgme_page_wrap"><div class="tgme_page">
<div class="tgme_page_title" dir="auto"><span dir="auto">Nena Store</span></div>
<div class="tgme_page_extra">@nenastore</div>
<div class="tgme_page_description" dir="auto">${description}</div>
</div></div></body></html>`;
}

describe('holds on: edge function — which parts of a page are its bio', () => {
  it('reads the description meta tags and the Telegram bio element, entities decoded', () => {
    const texts = bioTexts(telegramPage(`Sari-sari store &amp; padala<br/>${CODE}`));
    expect(texts).toContain(`Sari-sari store & padala\n${CODE}`);
    expect(texts.filter((t) => t.includes(CODE))).toHaveLength(2);
    expect(bioHasCode(telegramPage(`Shop hours 8-5 ${CODE}`), CODE)).toBe(true);
  });

  it.each([
    ['the title', `<html><head><title>${CODE}</title></head><body></body></html>`],
    ['og:title', `<meta property="og:title" content="${CODE}">`],
    ['a script', telegramPage('Shop', `<script>var c = "${CODE}";</script>`)],
    [
      'a script inside the bio element',
      `<div class="tgme_page_description"><script>"${CODE}"</script>Shop</div>`,
    ],
    ['a style inside the bio element', `<div class="tgme_page_description"><style>.${CODE}{}</style></div>`],
    ['a comment', telegramPage('Shop', `<!-- ${CODE} -->`)],
    ['another element of the page', telegramPage('Shop', `<div class="tgme_page_extra">${CODE}</div>`)],
    ['a class that only starts like the bio', `<div class="tgme_page_description_x">${CODE}</div>`],
    ['an attribute of the bio element', `<div class="tgme_page_description" title="${CODE}">Shop</div>`],
    ['a longer code', telegramPage(`${CODE}99`)],
    ['a code with a prefix', telegramPage(`x${CODE}`)],
    ['a different code', telegramPage('scamcheck-ffffffffffff')],
    ['half the code', telegramPage(CODE.slice(0, 15))],
  ])('the code in %s does not count', (_what, html) => {
    expect(bioHasCode(html, CODE)).toBe(false);
  });

  it.each([
    ['upper case', CODE.toUpperCase()],
    ['written with entities', CODE.replace('-', '&#45;').replace('a', '&#x61;')],
    ['in full-width letters', 'ｓｃａｍｃｈｅｃｋ-0a1b2c3d4e5f'],
    ['between punctuation', `(${CODE}).`],
    ['split by inline markup', CODE.replace('-', '-<b></b>')],
  ])('the code %s counts', (_what, written) => {
    expect(bioHasCode(`<div class="x tgme_page_description">Shop ${written}</div>`, CODE)).toBe(true);
  });

  it.each([
    ['an empty page', ''],
    ['plain text', CODE],
    ['unclosed tags everywhere', `<div class="tgme_page_description"><p><b><i>${'<span>'.repeat(5000)}`],
    ['a truncated tag', '<meta property="og:description" content="scamcheck-0a1b'],
    [
      'nested bio elements',
      '<div class="tgme_page_description"><div class="tgme_page_description">a</div></div>',
    ],
    ['stray closing tags', '</div></div></body></html></div>'.repeat(1000)],
    ['a NUL and odd bytes', '\u0000\uFFFD<meta\u0000 content="x">'],
    ['deep nesting', '<div>'.repeat(50_000) + '</div>'.repeat(50_000)],
    [
      'deep nesting inside the bio',
      `<div class="tgme_page_description">${'<b>'.repeat(30_000)}${CODE.slice(1)}`,
    ],
    ['a huge attribute', `<meta property="og:description" content="${'a'.repeat(200_000)}">`],
    [
      'nested table cells (quadratic implied ends), page-sized',
      '<table><tr><td>'.repeat(BIO_PAGE_BYTES / 15),
    ],
  ])('%s: no code, no throw', (_what, html) => {
    expect(bioHasCode(html, CODE)).toBe(false);
  });

  it('only the first BIO_PAGE_BYTES characters of a page are parsed', () => {
    const late = `${' '.repeat(BIO_PAGE_BYTES)}<meta property="og:description" content="${CODE}">`;
    expect(bioHasCode(late, CODE)).toBe(false);
    expect(bioHasCode(late.trimStart(), CODE)).toBe(true);
  });

  it('a bio element cut off at the end of a page still counts as read so far', () => {
    expect(bioHasCode(`<div class="tgme_page_description">Shop ${CODE} `, CODE)).toBe(true);
  });

  it('the code itself must look like a code (no pattern injection)', () => {
    expect(bioHasCode(telegramPage('anything'), '.*')).toBe(false);
    expect(bioHasCode(telegramPage(CODE), 'scamcheck-.*')).toBe(false);
  });
});

describe('holds on: edge function — which accounts have a public bio page', () => {
  it.each([
    ['t.me/nenastore', 'https://t.me/nenastore'],
    ['t.me/+AbCdEf123', 'https://t.me/+AbCdEf123'],
    ['t.me/joinchat/AbCd', 'https://t.me/joinchat/AbCd'],
  ])('%s is Telegram, page %s', (canonical, page) => {
    expect(bioPlatform(canonical)).toBe('telegram');
    expect(bioPageUrl(canonical)).toBe(page);
    expect(bioPageUrl(canonical, { telegram: 'http://127.0.0.1:9/bio/telegram/' })).toBe(
      page.replace('https://t.me/', 'http://127.0.0.1:9/bio/telegram/'),
    );
  });

  it.each([
    ['facebook.com/nenastore'],
    ['facebook.com/profile.php?id=1000123456'],
    ['instagram.com/nenastore'],
    ['tiktok.com/@nenastore'],
    ['x.com/nenastore'],
    ['youtube.com/@nenastore'],
    ['shopee.ph/nenastore'],
    ['chat.whatsapp.com/AbCd'],
    ['t.me/a/b'],
    ['t.me/../x'],
  ])('%s has none: evidence for review', (canonical) => {
    expect(bioPlatform(canonical)).toBeNull();
    expect(bioPageUrl(canonical)).toBeNull();
  });
});

describe('holds on: edge function — checking a bio against a served page', () => {
  let server: http.Server;
  let allow: Set<string>;
  let bases: { telegram: string };
  const routes = new Map<string, http.RequestListener>();

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const route = routes.get(req.url ?? '');
      if (route) route(req, res);
      else res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    allow = new Set([`127.0.0.1:${port}`]);
    bases = { telegram: `http://127.0.0.1:${port}/bio/telegram/` };
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('finds the code in the bio the page shows, and says so for the log', async () => {
    routes.set('/bio/telegram/nenastore', (_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end(telegramPage(`Padala ${CODE}`)),
    );
    const got = await checkBioProof({ identifier: 't.me/nenastore', challenge: CODE }, { bases, allow });
    expect(got).toMatchObject({ ok: true, automatic: true });
    expect(got.detail).toContain('/bio/telegram/nenastore');
  });

  it('a page without the code, a 404 and a page of another server are not proofs', async () => {
    routes.set('/bio/telegram/other', (_req, res) => res.writeHead(200).end(telegramPage('Padala')));
    expect(
      await checkBioProof({ identifier: 't.me/other', challenge: CODE }, { bases, allow }),
    ).toMatchObject({
      ok: false,
      automatic: true,
      detail: expect.stringContaining('code not found'),
    });
    const missing = await checkBioProof({ identifier: 't.me/missing', challenge: CODE }, { bases, allow });
    expect(missing).toMatchObject({ ok: false, detail: expect.stringContaining('HTTP 404') });
    // Without the test exception, the loopback server is refused before any request.
    const refused = await checkBioProof({ identifier: 't.me/nenastore', challenge: CODE }, { bases });
    expect(refused).toMatchObject({ ok: false, detail: expect.stringContaining('not a public address') });
  });

  it('a redirect to a private address is refused', async () => {
    routes.set('/bio/telegram/moved', (_req, res) =>
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end(),
    );
    const got = await checkBioProof({ identifier: 't.me/moved', challenge: CODE }, { bases, allow });
    expect(got).toMatchObject({ ok: false, detail: expect.stringContaining('169.254.169.254') });
  });

  it('only the first 64 KiB of a huge page is read: a code after it is not seen, one before it is', async () => {
    const filler = `<p>${'x'.repeat(BIO_PAGE_BYTES)}</p>`;
    routes.set('/bio/telegram/late', (_req, res) =>
      res.writeHead(200).end(telegramPage('', filler) + `<div class="tgme_page_description">${CODE}</div>`),
    );
    routes.set('/bio/telegram/early', (_req, res) => res.writeHead(200).end(telegramPage(CODE, filler)));
    expect(await checkBioProof({ identifier: 't.me/late', challenge: CODE }, { bases, allow })).toMatchObject(
      { ok: false },
    );
    expect(
      await checkBioProof({ identifier: 't.me/early', challenge: CODE }, { bases, allow }),
    ).toMatchObject({ ok: true });
  });

  it('a page that never finishes is given up on in time', async () => {
    routes.set('/bio/telegram/slow', (_req, res) => {
      res.writeHead(200);
      res.write('<html>');
    });
    const got = await checkBioProof(
      { identifier: 't.me/slow', challenge: CODE },
      { bases, allow, timeoutMs: 500 },
    );
    expect(got).toMatchObject({ ok: false, detail: expect.stringContaining('time limit') });
  });

  it('an account no platform shows the bio of is not fetched', async () => {
    expect(
      await checkBioProof({ identifier: 'facebook.com/nenastore', challenge: CODE }, { bases, allow }),
    ).toMatchObject({
      ok: false,
      automatic: false,
    });
  });
});

/**
 * The check of a social account's ownership code in its public bio (issue 32, docs/right-of-reply.md):
 * the account's public page (social-bio-platforms.ts) is fetched from public addresses only
 * (public-fetch.ts: 3 redirects, 5 s, the first 64 KiB read) and parsed with htmlparser2; the code
 * counts only where the page shows the bio: the `og:description`, `twitter:description` or
 * `description` meta tags, or the text of an element of class `tgme_page_description` (Telegram).
 * Never in the title, a script, a style, a comment or anywhere else on the page.
 */
import { Parser } from 'npm:htmlparser2@10.1.0';
import { FetchRefused, publicFetch } from './public-fetch.ts';
import { bioPageUrl, DEFAULT_BIO_PAGE_BASES, type BioPageBases } from './social-bio-platforms.ts';

/**
 * How much of a page is read and parsed: the bio is in its head and first screen (a t.me page is about
 * 10 KiB). The bound also bounds the parser's work on a pathological page (htmlparser2's implied-end
 * rules are quadratic in open elements: 64 KiB of `<table><tr><td>` parse in well under a second).
 */
export const BIO_PAGE_BYTES = 64 * 1024;

const META_NAMES = new Set(['og:description', 'twitter:description', 'description']);
const BIO_CLASS = 'tgme_page_description';
/** Elements whose text a page does not show. */
const HIDDEN = new Set(['script', 'style', 'template', 'noscript']);

/**
 * The bio texts a page shows: its description meta tags and its bio elements' text, entities decoded;
 * of the page's first BIO_PAGE_BYTES characters only.
 */
export function bioTexts(html: string): string[] {
  const texts: string[] = [];
  /** Open elements' depth, and the depth at which the bio element being read opened (or -1). */
  let depth = 0;
  let bioDepth = -1;
  let bio = '';
  /** The depth of a script, style or template being skipped (its text is not shown), or -1. */
  let skipDepth = -1;
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        depth++;
        if (skipDepth < 0 && HIDDEN.has(name)) skipDepth = depth;
        if (name === 'meta') {
          const key = (attrs.property ?? attrs.name ?? '').trim().toLowerCase();
          if (META_NAMES.has(key) && typeof attrs.content === 'string') texts.push(attrs.content);
        }
        if (bioDepth < 0 && (attrs.class ?? '').split(/\s+/).includes(BIO_CLASS)) {
          bioDepth = depth;
          bio = '';
        } else if (bioDepth >= 0 && name === 'br') bio += '\n';
      },
      ontext(text) {
        if (bioDepth >= 0 && skipDepth < 0) bio += text;
      },
      onclosetag() {
        if (skipDepth === depth) skipDepth = -1;
        if (bioDepth === depth) {
          texts.push(bio);
          bioDepth = -1;
        }
        depth--;
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html.slice(0, BIO_PAGE_BYTES));
  parser.end();
  // An element left open at the end of the page (cut short) still counts as read so far.
  if (bioDepth >= 0) texts.push(bio);
  return texts;
}

/** True when the code stands on its own (not inside a longer word) in one of the page's bio texts. */
export function bioHasCode(html: string, code: string): boolean {
  if (!/^scamcheck-[0-9a-f]{12}$/.test(code)) return false;
  const alone = new RegExp(`(^|[^a-z0-9-])${code}($|[^a-z0-9-])`, 'i');
  return bioTexts(html).some((t) => alone.test(t.normalize('NFKC')));
}

export interface BioProof {
  /** The canonical 'social' identifier, e.g. t.me/nenastore. */
  identifier: string;
  challenge: string | null;
}

export interface BioCheckOptions {
  bases?: BioPageBases;
  /** Exact address:port pairs treated as public (the local test stack's origin only). */
  allow?: ReadonlySet<string>;
  timeoutMs?: number;
}

export interface BioCheck {
  ok: boolean;
  /** What was fetched and why it failed, for the proof's log. */
  detail: string;
  /** False when no platform's public page shows this account's bio: evidence for review is the way. */
  automatic: boolean;
}

/** Checks a bio proof; never throws for what the platform's page does. */
export async function checkBioProof(proof: BioProof, options: BioCheckOptions = {}): Promise<BioCheck> {
  const url = bioPageUrl(proof.identifier, options.bases ?? DEFAULT_BIO_PAGE_BASES);
  if (!url)
    return { ok: false, automatic: false, detail: `${proof.identifier}: no public bio page to check` };
  if (!proof.challenge) return { ok: false, automatic: true, detail: 'no code to look for' };
  try {
    const res = await publicFetch(url, {
      allow: options.allow,
      timeoutMs: options.timeoutMs,
      maxBytes: BIO_PAGE_BYTES,
      truncate: true,
      accept: 'text/html',
    });
    const found = res.status === 200 && bioHasCode(res.body, proof.challenge);
    return {
      ok: found,
      automatic: true,
      detail: `${url} -> ${res.url}: HTTP ${res.status}${found ? '' : ', code not found in the bio'}`,
    };
  } catch (e) {
    if (!(e instanceof FetchRefused)) throw e;
    return { ok: false, automatic: true, detail: `${url}: refused: ${e.message}` };
  }
}

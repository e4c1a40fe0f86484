/**
 * The check of a website ownership proof (issue 32, docs/right-of-reply.md): the challenge as a TXT
 * record at `_scamcheck.<host>`, or as a line of `/.well-known/scamcheck-verification.txt` fetched from
 * public addresses only (public-fetch.ts). The resolver and name server are arguments, so tests run it
 * against a name server they start (ownership-check_test.ts); the function passes none and the system's
 * resolver answers.
 */
import { FetchRefused, publicFetch, type NameServer } from './public-fetch.ts';

export const WELL_KNOWN_PATH = '/.well-known/scamcheck-verification.txt';
export const TXT_PREFIX = '_scamcheck.';

export interface WebsiteProof {
  /** The canonical host name. */
  identifier: string;
  method: string;
  challenge: string | null;
}

export interface WebsiteCheckOptions {
  /** Asked for TXT and A/AAAA records; the system's name server when absent. */
  nameServer?: NameServer;
  /** Replaces the TXT lookup altogether (each record as its character strings). */
  resolveTxt?: (name: string) => Promise<string[][]>;
  /**
   * The local test stack's origin for hosts under `.test` (see the ownership function): those are
   * fetched there, and only its exact address and port count as public.
   */
  testOrigin?: URL | null;
  timeoutMs?: number;
}

export interface WebsiteCheck {
  ok: boolean;
  /** What was asked and why it failed, for the proof's log. */
  detail: string;
}

async function checkTxt(proof: WebsiteProof, options: WebsiteCheckOptions): Promise<WebsiteCheck> {
  const name = `${TXT_PREFIX}${proof.identifier}`;
  const resolveTxt =
    options.resolveTxt ??
    ((n: string) => Deno.resolveDns(n, 'TXT', options.nameServer ? { nameServer: options.nameServer } : {}));
  try {
    // A long TXT record comes as several character strings: they are one value.
    const records = await resolveTxt(name);
    const found = records.some((r) => r.join('').trim() === proof.challenge);
    return { ok: found, detail: found ? `TXT ${name}` : `TXT ${name}: challenge not found` };
  } catch (e) {
    return { ok: false, detail: `TXT ${name}: ${(e as Error).name}` };
  }
}

async function checkWellKnown(proof: WebsiteProof, options: WebsiteCheckOptions): Promise<WebsiteCheck> {
  const host = proof.identifier;
  const test = options.testOrigin ?? null;
  const targets =
    test && host.endsWith('.test')
      ? [new URL(`${WELL_KNOWN_PATH}?host=${encodeURIComponent(host)}`, test).href]
      : [`https://${host}${WELL_KNOWN_PATH}`, `http://${host}${WELL_KNOWN_PATH}`];
  const allow = new Set(test ? [`${test.hostname.replace(/^\[|\]$/g, '')}:${test.port || 80}`] : []);
  let detail = '';
  for (const target of targets) {
    try {
      const res = await publicFetch(target, {
        allow,
        nameServer: options.nameServer,
        timeoutMs: options.timeoutMs,
      });
      const found =
        res.status === 200 && res.body.split(/\r?\n/).some((line) => line.trim() === proof.challenge);
      detail = `${target} -> ${res.url}: HTTP ${res.status}${found ? '' : ', challenge not found'}`;
      if (found) return { ok: true, detail };
    } catch (e) {
      if (!(e instanceof FetchRefused)) throw e;
      detail = `${target}: refused: ${e.message}`;
      // A refusal for safety ends the check; an unreachable https still lets http be tried.
      if (!/could not connect/.test(e.message)) return { ok: false, detail };
    }
  }
  return { ok: false, detail };
}

/** Checks a website proof (method dns or wellknown); never throws for what the website does. */
export function checkWebsiteProof(
  proof: WebsiteProof,
  options: WebsiteCheckOptions = {},
): Promise<WebsiteCheck> {
  if (!proof.challenge) return Promise.resolve({ ok: false, detail: 'no challenge to look for' });
  return proof.method === 'dns' ? checkTxt(proof, options) : checkWellKnown(proof, options);
}

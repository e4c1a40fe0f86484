/**
 * Fetching what an owner published on their website (issue 32, docs/right-of-reply.md) without letting
 * a caller aim the server at anything private (SSRF):
 *
 * - only http and https, no user:password@, only ports 80 and 443;
 * - every hop's host is resolved first (A and AAAA) and refused unless every address is public unicast
 *   (ipaddr.js ranges: loopback, private, link-local (cloud metadata 169.254.169.254), carrier-grade NAT,
 *   unique-local, multicast, reserved, documentation, IPv4-mapped private addresses are all refused);
 *   an address literal is checked the same way;
 * - redirects are followed by hand (at most 3), each new hop checked again;
 * - 5 s for the whole walk and at most 8 KiB of body (or the first `maxBytes`, with `truncate`).
 *
 * What remains: between the check and the connection the name is resolved again by fetch, so a name
 * server answering a public address to the check and a private one a millisecond later (DNS rebinding)
 * could win that race; Supabase's edge network gives a function no private network to reach, which is
 * what bounds it on hosted.
 *
 * `allow` (tests only): exact `address:port` pairs treated as public, read from the function's own
 * environment by the caller of this module, never from a request.
 */
import ipaddr from 'npm:ipaddr.js@1.9.1';

export class FetchRefused extends Error {}

export interface PublicFetchOptions {
  maxRedirects?: number;
  maxBytes?: number;
  timeoutMs?: number;
  allow?: ReadonlySet<string>;
  resolve?: (host: string) => Promise<string[]>;
  /** The name server to ask for A and AAAA records (tests start their own); the system's by default. */
  nameServer?: NameServer;
  /** Keep the first maxBytes of a larger answer instead of refusing it (a page whose head is enough). */
  truncate?: boolean;
  /** The Accept header (text/plain by default). */
  accept?: string;
}

/** A name server as Deno.resolveDns takes it. */
export interface NameServer {
  ipAddr: string;
  port?: number;
}

export interface PublicFetchResult {
  url: string;
  status: number;
  body: string;
  redirects: number;
}

/** True for a public unicast IPv4 or IPv6 address (IPv4-mapped IPv6 judged as its IPv4). */
export function isPublicAddress(address: string): boolean {
  const a = address.replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(a)) return false;
  // process: an IPv4-mapped IPv6 address becomes the IPv4 address it maps.
  return ipaddr.process(a).range() === 'unicast';
}

async function resolveAll(host: string, nameServer?: NameServer): Promise<string[]> {
  const found: string[] = [];
  for (const type of ['A', 'AAAA'] as const) {
    try {
      found.push(...(await Deno.resolveDns(host, type, nameServer ? { nameServer } : {})));
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound)) throw e;
    }
  }
  return found;
}

/** The addresses a URL's host stands for, refused unless every one is public (or allowed). */
async function checkTarget(url: URL, options: PublicFetchOptions): Promise<void> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new FetchRefused(`only http and https are fetched, not ${url.protocol}`);
  if (url.username || url.password) throw new FetchRefused('addresses with a user name are not fetched');
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = ipaddr.isValid(host)
      ? [host]
      : await (options.resolve ?? ((h) => resolveAll(h, options.nameServer)))(host);
  } catch (e) {
    throw new FetchRefused(`could not resolve ${host}: ${(e as Error).name}`);
  }
  if (addresses.length === 0) throw new FetchRefused(`${host} has no address`);
  for (const address of addresses) {
    if (options.allow?.has(`${address}:${port}`)) continue;
    if (!isPublicAddress(address)) throw new FetchRefused(`${host} is not a public address (${address})`);
    if (port !== 80 && port !== 443) throw new FetchRefused(`only ports 80 and 443 are fetched, not ${port}`);
  }
}

async function readLimited(res: Response, maxBytes: number, truncate = false): Promise<string> {
  const reader = res.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (size + value.byteLength > maxBytes) {
      await reader.cancel();
      if (!truncate) throw new FetchRefused(`the answer is larger than ${maxBytes} bytes`);
      chunks.push(value.subarray(0, maxBytes - size));
      size = maxBytes;
      break;
    }
    size += value.byteLength;
    chunks.push(value);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.byteLength;
  }
  return new TextDecoder().decode(all);
}

/** GETs a URL under the rules above; throws FetchRefused with the reason when a rule stops it. */
export async function publicFetch(
  start: string,
  options: PublicFetchOptions = {},
): Promise<PublicFetchResult> {
  const maxRedirects = options.maxRedirects ?? 3;
  const signal = AbortSignal.timeout(options.timeoutMs ?? 5000);
  let url = new URL(start);
  for (let redirects = 0; ; redirects++) {
    await checkTarget(url, options);
    let res: Response;
    try {
      res = await fetch(url, {
        redirect: 'manual',
        signal,
        headers: { accept: options.accept ?? 'text/plain', 'user-agent': 'ScamCheck-ownership-check/1' },
      });
    } catch (e) {
      if (signal.aborted) throw new FetchRefused('no answer within the time limit');
      throw new FetchRefused(`could not connect to ${url.host}: ${(e as Error).message.slice(0, 120)}`);
    }
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && location) {
      await res.body?.cancel();
      if (redirects >= maxRedirects) throw new FetchRefused(`more than ${maxRedirects} redirects`);
      url = new URL(location, url);
      continue;
    }
    try {
      return {
        url: url.href,
        status: res.status,
        body: await readLimited(res, options.maxBytes ?? 8192, options.truncate),
        redirects,
      };
    } catch (e) {
      if (signal.aborted) throw new FetchRefused('no answer within the time limit');
      throw e;
    }
  }
}

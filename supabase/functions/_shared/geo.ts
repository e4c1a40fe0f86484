/**
 * Where a visitor is, from the caller's address: one indexed lookup in Postgres
 * (`public.locate_address`, service role only) in the address ranges of the GeoLite2 City database,
 * loaded into `private.ip_locations` by `npm run locations:load` (docs/deploying.md): Philippine addresses
 * to the city, the rest of the world to the country. No third-party lookup service, and no data file in
 * the function's bundle (hosted functions may carry 20 MB). Raw addresses are never returned for
 * storage: callers get the location fields of docs/behaviour.md section 3 and a keyed hash of the
 * address (to count distinct visitors), nothing else.
 *
 * Visitors who ask not to be tracked (`DNT: 1` or `Sec-GPC: 1`) are counted but neither located nor
 * hashed. Private, loopback and other non-routable addresses resolve to nothing; so does every address
 * while the ranges are not loaded (visits are still counted).
 */
import { serviceClient } from './service.ts';

export interface VisitorLocation {
  city: string | null;
  region: string | null;
  country: string | null;
  /** 'lat,lng' as the heatmap wants it. */
  loc: string | null;
  postal: string | null;
  /** The network owner; GeoLite2 City does not carry it, so it stays null. */
  org: string | null;
}

export interface Visit {
  location: VisitorLocation | null;
  /** Keyed hash of the address (hex), null when the visitor opted out or has no usable address. */
  ipHash: string | null;
  /** True when the visitor sent DNT or Sec-GPC. */
  doNotTrack: boolean;
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** The address in canonical text form with its version, or null when it is not an IP address. */
export function parseIp(raw: string): { ip: string; version: 4 | 6 } | null {
  let s = raw.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(s);
  if (bracketed) s = bracketed[1];
  else if (/^[\d.]+:\d+$/.test(s)) s = s.slice(0, s.lastIndexOf(':'));
  s = s.replace(/%.*$/, '');
  if (IPV4.test(s)) return { ip: s, version: 4 };
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(s);
  if (mapped && IPV4.test(mapped[1])) return { ip: mapped[1], version: 4 };
  if (!/^[0-9a-f:]+$/i.test(s) || !s.includes(':')) return null;
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const groups = (h: string) => (h ? h.split(':') : []);
  const head = groups(halves[0]);
  const tail = halves.length === 2 ? groups(halves[1]) : [];
  const missing = 8 - head.length - tail.length;
  if ((halves.length === 1 && missing !== 0) || (halves.length === 2 && missing < 1)) return null;
  const all = [...head, ...Array(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  if (all.some((g) => !/^[0-9a-f]{1,4}$/i.test(g))) return null;
  return { ip: all.map((g) => parseInt(g, 16).toString(16)).join(':'), version: 6 };
}

/** True for addresses that identify no place: private, loopback, link-local, CGNAT, unspecified, ... */
export function isNonPublic(ip: string, version: 4 | 6): boolean {
  if (version === 4) {
    const [a, b] = ip.split('.').map(Number);
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      a >= 224 ||
      (a === 100 && b >= 64 && b <= 127) ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 198 && (b === 18 || b === 19))
    );
  }
  const first = parseInt(ip.split(':')[0], 16);
  return (
    ip === '0:0:0:0:0:0:0:0' ||
    ip === '0:0:0:0:0:0:0:1' ||
    (first & 0xfe00) === 0xfc00 || // unique local fc00::/7
    (first & 0xffc0) === 0xfe80 || // link-local fe80::/10
    (first & 0xff00) === 0xff00 || // multicast
    (first === 0x2001 && parseInt(ip.split(':')[1], 16) === 0x0db8) // documentation
  );
}

/**
 * The caller's public address. Each proxy appends the address it saw to X-Forwarded-For, so the
 * right-most public entry is the one the edge saw; entries to its left are whatever the client typed.
 */
export function clientAddress(req: Request): { ip: string; version: 4 | 6 } | null {
  const header = req.headers.get('x-forwarded-for') ?? '';
  const entries = header
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .reverse();
  for (const entry of entries) {
    const parsed = parseIp(entry);
    if (parsed && !isNonPublic(parsed.ip, parsed.version)) return parsed;
  }
  return null;
}

export function wantsNoTracking(req: Request): boolean {
  return req.headers.get('dnt')?.trim() === '1' || req.headers.get('sec-gpc')?.trim() === '1';
}

/** Location of a public address from the address ranges in Postgres, or null when it is not there. */
export async function locate(ip: string, _version?: 4 | 6): Promise<VisitorLocation | null> {
  const { data, error } = await serviceClient().rpc('locate_address', { address: ip });
  if (error) {
    console.error('geo: the address lookup failed; the visit is counted without location', error);
    return null;
  }
  const row = (data as Omit<VisitorLocation, 'org'>[] | null)?.[0];
  if (!row) return null;
  return {
    city: row.city || null,
    region: row.region || null,
    country: row.country || null,
    loc: row.loc || null,
    postal: row.postal || null,
    org: null,
  };
}

let hashKey: Promise<CryptoKey> | undefined;

/**
 * HMAC-SHA-256 of the address under a server secret (IP_HASH_SECRET, else derived from the service
 * key), cut to 128 bits: equal addresses give equal hashes for counting, and without the secret the
 * hash cannot be turned back into an address by trying all 2^32 IPv4 addresses.
 */
export async function hashIp(ip: string): Promise<string> {
  hashKey ??= (async () => {
    const secret =
      Deno.env.get('IP_HASH_SECRET') ?? `ip-hash:${Deno.env.get('SUPABASE_SERVICE_ROLE_KEY') ?? ''}`;
    return crypto.subtle.importKey(
      'raw',
      new TextEncoder().encode(secret),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign'],
    );
  })();
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', await hashKey, new TextEncoder().encode(ip)));
  return Array.from(mac.subarray(0, 16), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Everything a visit or search log row may keep about the caller. */
export async function visitFrom(req: Request): Promise<Visit> {
  if (wantsNoTracking(req)) return { location: null, ipHash: null, doNotTrack: true };
  const addr = clientAddress(req);
  if (!addr) return { location: null, ipHash: null, doNotTrack: false };
  return { location: await locate(addr.ip, addr.version), ipHash: await hashIp(addr.ip), doNotTrack: false };
}

/**
 * Hosts that are platforms, not anyone's site (issue 30): a social network or chat app's own host
 * (facebook.com, t.me), a link shortener (bit.ly), or a hosting platform where every tenant is a
 * subdomain (vercel.app, blogspot.com, github.io: the Public Suffix List's private section, which tldts
 * carries). Reporting one would mark every account, short link or site on it; search says so instead of
 * "nobody has reported", and the report form refuses it (the database refuses the best-known ones too,
 * private.reports_account_kind).
 *
 * Pure TypeScript (no Deno or Node APIs).
 */
import { parse } from 'npm:tldts@7.5.4';
import { isListedPlatformHost } from './canonical.ts';

/** Whether a canonical website host is a platform shared by many accounts. */
export function isSharedPlatformHost(host: string): boolean {
  if (!host || host.includes('/')) return false;
  if (isListedPlatformHost(host)) return true;
  const parsed = parse(host, { allowPrivateDomains: true });
  return parsed.isPrivate === true && parsed.publicSuffix === host;
}

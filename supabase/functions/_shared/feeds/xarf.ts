/**
 * Takedown reports (issue 34): an XARF v4 `content`/`phishing` report for each newly listed phishing
 * link, for the abuse desk of the host or registrar. The evidence is ScamCheck's own verification
 * record (text/plain, base64) with its SHA-256: the job fetches nothing from the internet, so it has
 * no page copy or screenshot to attach. Reports are drafted by the open-data job, reviewed by admins
 * (approve with the abuse contact's address, or dismiss) and sent only when sending is switched on
 * (private.feed_settings takedown_sending; off by default). Schema: xarf.org v4
 * (tests/schemas/xarf-v4, checked by tests/units/feeds.test.ts).
 */
import { base64 } from 'npm:@scure/base@2.4.0';
import { utf8ToBytes } from 'npm:@noble/hashes@2.4.0/utils.js';
import { detailLink, sha256Hex, uuid5, type FeedItem } from './formats.ts';

export const XARF_VERSION = '4.2.0';
const XARF_DOMAIN = /^([a-z0-9]+(-[a-z0-9]+)*\.)+[a-z]{2,}$/;

/** An XARF tag, 'namespace:value' in lowercase letters, digits, '_', '+' and '-'. */
function tag(namespace: string, value: string): string {
  const v = value
    .toLowerCase()
    .replace(/&/g, '+')
    .replace(/[^a-z0-9_+-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return `${namespace}:${/^[a-z0-9]/.test(v) ? v : `x${v}`}`;
}

export interface XarfReporter {
  org: string;
  contact: string;
  domain: string;
}

export interface TakedownDraft {
  feed_item_id: number;
  url: string;
  host: string;
  target_brand: string | null;
  xarf: Record<string, unknown>;
}

/** The link an item stands for: its URL, or https:// and its host. */
export function itemUrl(item: Pick<FeedItem, 'indicator_type' | 'value'>): string {
  return item.indicator_type === 'url' ? item.value : `https://${item.value}/`;
}

export function itemHost(item: Pick<FeedItem, 'indicator_type' | 'value'>): string {
  return new URL(itemUrl(item)).hostname;
}

/** True for items a takedown report is drafted for: public links (urls, domains, ip addresses). */
export function takedownCandidate(item: Pick<FeedItem, 'tlp' | 'indicator_type'>): boolean {
  return item.tlp === 'clear' && ['url', 'domain', 'ip'].includes(item.indicator_type);
}

export function xarfReport(item: FeedItem, reporter: XarfReporter, site: string, now: Date): TakedownDraft {
  const url = itemUrl(item);
  const host = itemHost(item);
  const record = [
    `ScamCheck verification record for ${url}`,
    `Listed as: ${item.indicator_type} ${item.value}`,
    `Verified reports: ${item.reports}, from ${item.reporters} distinct reporters`,
    `First reported: ${item.first_reported}`,
    `Last reported: ${item.last_reported}`,
    `Incident type: ${item.scam_type}`,
    ...(item.brand ? [`Imitated brand: ${item.brand}`] : []),
    `Checked by a ScamCheck moderator; details: ${detailLink(site, item.canonical)}`,
  ].join('\n');
  const xarf: Record<string, unknown> = {
    xarf_version: XARF_VERSION,
    report_id: uuid5(`xarf:${item.id}`),
    timestamp: now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    reporter,
    sender: reporter,
    source_identifier: host,
    category: 'content',
    type: 'phishing',
    evidence_source: 'user_report',
    url,
    // XARF's domain pattern takes plain LDH names only (no IP address, no punycode's '--').
    ...(XARF_DOMAIN.test(host) ? { domain: host } : {}),
    description: `Phishing or scam ${item.indicator_type === 'url' ? 'page' : 'site'} reported by the public to ScamCheck and verified by a moderator.`,
    evidence: [
      {
        content_type: 'text/plain',
        description: 'ScamCheck verification record',
        payload: base64.encode(utf8ToBytes(record)),
        hash: `sha256:${sha256Hex(record)}`,
      },
    ],
    tags: [tag('scam-type', item.scam_type), ...(item.brand ? [tag('target', item.brand)] : [])],
    confidence: 0.9,
    ...(item.brand ? { target_brand: item.brand } : {}),
  };
  return { feed_item_id: item.id, url, host, target_brand: item.brand, xarf };
}

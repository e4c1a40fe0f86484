/**
 * The feed files (issue 34, docs/feeds.md), built from the listed items (private.feed_items) by the
 * open-data job: per TLP, a URLhaus-style CSV with a '#' header, JSON with the same fields, a plain list,
 * a MISP feed (manifest.json and one event per day) and STIX 2.1 bundles (one per month, and an index).
 * The TAXII endpoints (api/routes/taxii.ts) serve the same STIX objects from the database.
 *
 * Pure TypeScript: the job (Deno), the api function and the tests (Node) import it.
 */
import { sha1 } from 'npm:@noble/hashes@2.4.0/legacy.js';
import { sha256 } from 'npm:@noble/hashes@2.4.0/sha2.js';
import { bytesToHex, utf8ToBytes } from 'npm:@noble/hashes@2.4.0/utils.js';
import type { Tlp } from './classify.ts';

/** One listed identifier (public.feed_items_current / public.taxii_page), timestamps as ISO strings. */
export interface FeedItem {
  id: number;
  kind: string;
  canonical: string;
  tlp: Tlp;
  indicator_type: string;
  value: string;
  written: string;
  first_reported: string;
  last_reported: string;
  reports: number;
  reporters: number;
  scam_type: string;
  brand: string | null;
  stix_id: string;
  event_day: string;
  added_at: string;
  version_at: string;
  withdrawn_at?: string | null;
}

export interface FeedFile {
  /** Path inside the bucket: clear/... (public bucket `feeds`) or amber/... (private `feeds-partner`). */
  name: string;
  type: string;
  body: string;
  /** Identifiers the file lists (the partner download log counts them). */
  items: number;
}

export const FEED_LICENCE =
  'Creative Commons Attribution 4.0 International (CC BY 4.0): https://creativecommons.org/licenses/by/4.0/ - credit "ScamCheck"';
export const PARTNER_TERMS =
  'TLP:AMBER. Personal data under the Philippine Data Privacy Act of 2012: for the partner organisation named in its API key agreement only, to protect its own customers and systems; do not publish or pass on. See the data sharing note in the README.';

export const TLP_LABEL: Record<Tlp, string> = { clear: 'TLP:CLEAR', amber: 'TLP:AMBER' };
export const BUCKET: Record<Tlp, string> = { clear: 'feeds', amber: 'feeds-partner' };

// ---------------------------------------------------------------------------------------------
// Ids
// ---------------------------------------------------------------------------------------------
/** ScamCheck's STIX identity (fixed). */
export const IDENTITY_ID = 'identity--b7c94689-6000-45bb-9388-7ffde4619346';
/** The extension definition of the scamcheck-identifier SCO (phones, e-wallets, crypto, accounts). */
export const EXTENSION_ID = 'extension-definition--3723ba58-3d23-4db7-b998-dbc97dab806b';
/** The TLP 2.0 marking definitions (OASIS cti-stix-common-objects, extension 60a3c5c5...). */
export const TLP2_EXTENSION_ID = 'extension-definition--60a3c5c5-0d10-413e-aab3-9e08dde9e88d';
export const TLP_MARKING: Record<Tlp, string> = {
  clear: 'marking-definition--94868c89-83c2-464b-929b-a1a8aa3c8487',
  amber: 'marking-definition--55d920b0-5e8b-4f79-9ee9-91f868d9b421',
};
/** ScamCheck's MISP organisation (Orgc). */
export const MISP_ORG = { id: '0', name: 'ScamCheck', uuid: '900a55f2-3241-4689-a1a8-51937eb7ee07' };
/** The namespace of ScamCheck's name-based (version 5) UUIDs: MISP events, STIX bundles. */
const UUID_NAMESPACE = '691545df-a535-4dfb-8b56-dac83d2a4de8';
/** When the fixed objects (identity, extension definition) were written. */
const FIXED_CREATED = '2026-11-27T00:00:00.000Z';

/** RFC 4122 version 5 UUID of a name in ScamCheck's namespace. */
export function uuid5(name: string): string {
  const ns = UUID_NAMESPACE.replace(/-/g, '');
  const nsBytes = new Uint8Array(16);
  for (let i = 0; i < 16; i++) nsBytes[i] = parseInt(ns.slice(i * 2, i * 2 + 2), 16);
  const nameBytes = utf8ToBytes(name);
  const data = new Uint8Array(16 + nameBytes.length);
  data.set(nsBytes);
  data.set(nameBytes, 16);
  const h = sha1(data).slice(0, 16);
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const hex = bytesToHex(h);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function sha256Hex(text: string): string {
  return bytesToHex(sha256(utf8ToBytes(text)));
}

/** SHA-256 (hex) with the runtime's native digest: far faster than sha256Hex on large bodies. */
export async function sha256Bytes(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  return bytesToHex(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)));
}

// ---------------------------------------------------------------------------------------------
// CSV, JSON and the plain list
// ---------------------------------------------------------------------------------------------
/** The CSV's and JSON's fields, in order. Documented on /developers and in docs/feeds.md; keep in step. */
export const FEED_COLUMNS = [
  { name: 'id', description: "ScamCheck's number for the listed identifier (stable)" },
  { name: 'date_added', description: 'When it was added to the feed (UTC, YYYY-MM-DD HH:MM:SS)' },
  {
    name: 'kind',
    description: 'url, domain, ip, crypto (public feed); phone, ewallet, email, account (partner feed)',
  },
  { name: 'value', description: 'What to block or match: a URL, a host name, an address or a number' },
  { name: 'canonical', description: 'The canonical form ScamCheck searches by' },
  {
    name: 'written',
    description: 'How the first verified report wrote it (for links without the query and fragment)',
  },
  { name: 'status', description: 'verified (checked by a ScamCheck moderator); the feeds list nothing else' },
  { name: 'first_reported', description: 'Its first verified report (UTC)' },
  { name: 'last_reported', description: 'Its last verified report (UTC)' },
  { name: 'reporters', description: 'Distinct people who reported it' },
  { name: 'scam_type', description: 'scam, hacked or spam: the most common incident type of its reports' },
  { name: 'brand', description: 'The brand it imitates, when its host looks like one (empty otherwise)' },
  { name: 'link', description: 'Its page on ScamCheck' },
] as const;

export type FeedRow = Record<(typeof FEED_COLUMNS)[number]['name'], string | number>;

/** '2026-11-27T15:00:00.123Z' -> '2026-11-27 15:00:00' (URLhaus's form). */
function plainTime(iso: string): string {
  return iso.slice(0, 19).replace('T', ' ');
}

/** The public page of an identifier. */
export function detailLink(site: string, canonical: string): string {
  return `${site}/search/${encodeURIComponent(canonical)}`;
}

/** What a written form may show: a link's query and fragment are cut (tokens, victims' addresses). */
function safeWritten(item: FeedItem): string {
  if (['url', 'domain', 'ip'].includes(item.indicator_type)) return item.written.replace(/[?#].*$/s, '');
  return item.written;
}

export function feedRow(item: FeedItem, site: string): FeedRow {
  return {
    id: item.id,
    date_added: plainTime(item.added_at),
    kind: item.indicator_type,
    value: item.value,
    canonical: item.canonical,
    written: safeWritten(item),
    status: 'verified',
    first_reported: plainTime(item.first_reported),
    last_reported: plainTime(item.last_reported),
    reporters: item.reporters,
    scam_type: item.scam_type,
    brand: item.brand ?? '',
    link: detailLink(site, item.canonical),
  };
}

const NEEDS_CSV_ESCAPE = /["\r\n]/;

/** A CSV field as URLhaus writes them: always quoted, quotes doubled; line breaks become spaces. */
function csvField(v: string | number): string {
  const text = String(v);
  // Most fields need neither change: skip the two replaces (a feed has 1.3 million fields).
  if (!NEEDS_CSV_ESCAPE.test(text)) return `"${text}"`;
  return `"${text.replace(/[\r\n]+/g, ' ').replace(/"/g, '""')}"`;
}

/** The '#' lines at the top of the CSV and the list. */
function commentHeader(tlp: Tlp, title: string, now: Date, site: string, count: number): string[] {
  return [
    '################################################################',
    `# ScamCheck ${title} (${TLP_LABEL[tlp]})`,
    `# Last updated: ${plainTime(now.toISOString())} (UTC)`,
    `# Entries: ${count}`,
    '#',
    tlp === 'clear' ? `# Terms of use: ${FEED_LICENCE}` : `# Terms of use: ${PARTNER_TERMS}`,
    `# Documentation: ${site}/developers#feeds`,
    '# Only identifiers a ScamCheck moderator verified are listed.',
    '################################################################',
  ];
}

export const CSV_HEADER = `# ${FEED_COLUMNS.map((c) => c.name).join(',')}`;

/** One item's row of the CSV (without the line break). */
export function csvLine(item: FeedItem, site: string): string {
  const row = feedRow(item, site);
  return FEED_COLUMNS.map((c) => csvField(row[c.name])).join(',');
}

export function buildCsv(items: FeedItem[], tlp: Tlp, now: Date, site: string): string {
  const lines = commentHeader(tlp, 'verified scam identifiers', now, site, items.length);
  lines.push(CSV_HEADER);
  for (const item of items) lines.push(csvLine(item, site));
  return lines.join('\r\n') + '\r\n';
}

export function buildJson(items: FeedItem[], tlp: Tlp, now: Date, site: string): string {
  return JSON.stringify({
    title: `ScamCheck verified scam identifiers (${TLP_LABEL[tlp]})`,
    tlp: TLP_LABEL[tlp],
    terms: tlp === 'clear' ? FEED_LICENCE : PARTNER_TERMS,
    documentation: `${site}/developers#feeds`,
    updated_at: now.toISOString(),
    count: items.length,
    fields: FEED_COLUMNS,
    items: items.map((i) => feedRow(i, site)),
  });
}

/** Kinds the plain list carries: links for blocklists (public), every identifier (partner). */
const LIST_KINDS: Record<Tlp, ReadonlySet<string> | null> = {
  clear: new Set(['url', 'domain', 'ip']),
  amber: null,
};

export function listItems(items: FeedItem[], tlp: Tlp): FeedItem[] {
  const kinds = LIST_KINDS[tlp];
  return kinds ? items.filter((i) => kinds.has(i.indicator_type)) : items;
}

export function buildList(items: FeedItem[], tlp: Tlp, now: Date, site: string): string {
  const listed = listItems(items, tlp);
  const title = tlp === 'clear' ? 'verified scam links and domains' : 'verified scam identifiers';
  return (
    [...commentHeader(tlp, title, now, site, listed.length), ...listed.map((i) => i.value)].join('\n') + '\n'
  );
}

// ---------------------------------------------------------------------------------------------
// MISP
// ---------------------------------------------------------------------------------------------
const SCAMCHECK_TAG = { name: 'scamcheck:verified', colour: '#0f766e' };
const MISP_TLP_TAG: Record<Tlp, { name: string; colour: string }> = {
  clear: { name: 'tlp:clear', colour: '#ffffff' },
  amber: { name: 'tlp:amber', colour: '#ffc000' },
};

/** Seconds since 1970 as MISP writes them (a string). */
function unix(iso: string): string {
  return String(Math.floor(Date.parse(iso) / 1000));
}

const BITCOIN = /^(?:[13][1-9A-HJ-NP-Za-km-z]{25,34}|(?:bc|tb)1[02-9ac-hj-np-z]{6,87})$/;
const E164 = /^\+\d{6,15}$/;

/** MISP category and type of an item (the core format's category-type table), and whether it is actionable. */
export function mispType(item: Pick<FeedItem, 'indicator_type' | 'value'>): {
  category: string;
  type: string;
  to_ids: boolean;
} {
  switch (item.indicator_type) {
    case 'url':
      return { category: 'Network activity', type: 'url', to_ids: true };
    case 'domain':
      return { category: 'Network activity', type: 'domain', to_ids: true };
    case 'ip':
      return { category: 'Network activity', type: 'ip-dst', to_ids: true };
    case 'email':
      return { category: 'Payload delivery', type: 'email-src', to_ids: true };
    case 'phone':
      return { category: 'Financial fraud', type: 'phone-number', to_ids: true };
    case 'ewallet':
      return E164.test(item.value)
        ? { category: 'Financial fraud', type: 'phone-number', to_ids: true }
        : { category: 'Financial fraud', type: 'bank-account-nr', to_ids: true };
    case 'crypto':
      return BITCOIN.test(item.value)
        ? { category: 'Financial fraud', type: 'btc', to_ids: true }
        : { category: 'Financial fraud', type: 'text', to_ids: false };
    default:
      return { category: 'Social network', type: 'text', to_ids: false };
  }
}

const KIND_WORDS: Record<string, string> = {
  url: 'Scam link',
  domain: 'Scam domain',
  ip: 'Scam server address',
  email: 'Scam e-mail address',
  phone: 'Scam mobile number',
  ewallet: 'E-wallet account used in scams',
  crypto: 'Cryptocurrency address used in scams',
  account: 'Account used in scams',
};

function summary(item: FeedItem, site: string): string {
  const people = item.reporters === 1 ? '1 person' : `${item.reporters} people`;
  const brand = item.brand ? ` Imitates ${item.brand}.` : '';
  return `${KIND_WORDS[item.indicator_type] ?? 'Identifier used in scams'} (${item.scam_type}), verified by ScamCheck: reported by ${people} from ${item.first_reported.slice(0, 10)} to ${item.last_reported.slice(0, 10)}.${brand} ${detailLink(site, item.canonical)}`;
}

export function mispEventUuid(tlp: Tlp, day: string): string {
  return uuid5(`misp-event:${tlp}:${day}`);
}

function eventInfo(tlp: Tlp, day: string): string {
  return `ScamCheck verified scam identifiers first reported on ${day} (${TLP_LABEL[tlp]})`;
}

export function mispEvent(day: string, items: FeedItem[], tlp: Tlp, site: string) {
  const newest = items.reduce((max, i) => (i.version_at > max ? i.version_at : max), '');
  return mispEventWith(
    day,
    tlp,
    newest,
    items.length,
    items.map((item) => mispAttribute(item, site)),
  );
}

/** A day's MISP event around its attributes; newest: the items' newest version (ISO). */
function mispEventWith<A>(day: string, tlp: Tlp, newest: string, count: number, attributes: A[]) {
  const start = `${day}T00:00:00.000Z`;
  const timestamp = newest > start ? newest : start;
  return {
    Event: {
      uuid: mispEventUuid(tlp, day),
      id: '0',
      info: eventInfo(tlp, day),
      date: day,
      threat_level_id: '2',
      analysis: '2',
      distribution: tlp === 'clear' ? '3' : '0',
      sharing_group_id: '0',
      published: true,
      timestamp: unix(timestamp),
      publish_timestamp: unix(timestamp),
      org_id: '0',
      orgc_id: '0',
      attribute_count: String(count),
      Orgc: MISP_ORG,
      Tag: [MISP_TLP_TAG[tlp], SCAMCHECK_TAG],
      Attribute: attributes,
    },
  };
}

/** One item's attribute of its day's MISP event. */
export function mispAttribute(item: FeedItem, site: string) {
  return {
    uuid: item.stix_id,
    id: '0',
    event_id: '0',
    ...mispType(item),
    value: item.value,
    distribution: '5',
    sharing_group_id: '0',
    timestamp: unix(item.version_at),
    deleted: false,
    comment: summary(item, site),
    first_seen: item.first_reported,
    last_seen: item.last_reported,
  };
}

function groupBy(items: FeedItem[], key: (i: FeedItem) => string): Map<string, FeedItem[]> {
  const groups = new Map<string, FeedItem[]>();
  for (const item of items) {
    const k = key(item);
    const list = groups.get(k);
    if (list) list.push(item);
    else groups.set(k, [item]);
  }
  return new Map([...groups.entries()].sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** Items by the day of their MISP event (their first report's day, fixed when listed), days in order. */
export function byDay(items: FeedItem[]): Map<string, FeedItem[]> {
  return groupBy(items, (i) => i.event_day);
}

/** Items by the month of their STIX bundle (YYYY-MM of their event day), months in order. */
export function byMonth(items: FeedItem[]): Map<string, FeedItem[]> {
  return groupBy(items, (i) => i.event_day.slice(0, 7));
}

// ---------------------------------------------------------------------------------------------
// STIX 2.1
// ---------------------------------------------------------------------------------------------
export function identityObject() {
  return {
    type: 'identity',
    spec_version: '2.1',
    id: IDENTITY_ID,
    created: FIXED_CREATED,
    modified: FIXED_CREATED,
    name: 'ScamCheck',
    description:
      'ScamCheck (Philippines): people report scam mobile numbers, e-mail addresses, websites, e-wallet accounts and crypto addresses; moderators verify the reports.',
    identity_class: 'organization',
    sectors: ['non-profit'],
    contact_information: 'abuse@scamcheck.ph',
  };
}

export function markingObject(tlp: Tlp) {
  return {
    type: 'marking-definition',
    spec_version: '2.1',
    id: TLP_MARKING[tlp],
    created: '2022-10-01T00:00:00.000Z',
    name: TLP_LABEL[tlp],
    extensions: { [TLP2_EXTENSION_ID]: { extension_type: 'property-extension', tlp_2_0: tlp } },
  };
}

/** The new SCO for what STIX has no object for: phones, e-wallet accounts, crypto addresses, platform accounts. */
export function extensionObject(site: string) {
  return {
    type: 'extension-definition',
    spec_version: '2.1',
    id: EXTENSION_ID,
    created_by_ref: IDENTITY_ID,
    created: FIXED_CREATED,
    modified: FIXED_CREATED,
    name: 'scamcheck-identifier',
    description:
      "A STIX Cyber-observable Object for scam identifiers STIX 2.1 has no object for. Properties: kind (phone: a mobile number in E.164; ewallet: an e-wallet account such as GCash or Maya, usually its mobile number in E.164; crypto: a cryptocurrency address; account: an account on a platform) and value (the canonical form ScamCheck searches by). Indicators match it with patterns such as [scamcheck-identifier:kind = 'phone' AND scamcheck-identifier:value = '+639171234567'].",
    schema: `${site}/developers#feeds-stix`,
    version: '1.0.0',
    extension_types: ['new-sco'],
    object_marking_refs: [TLP_MARKING.clear],
  };
}

/** A string literal of a STIX pattern: quotes and backslashes escaped. */
function patternString(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

export function stixPattern(item: Pick<FeedItem, 'indicator_type' | 'value'>): string {
  const v = patternString(item.value);
  switch (item.indicator_type) {
    case 'url':
      return `[url:value = ${v}]`;
    case 'domain':
      return `[domain-name:value = ${v}]`;
    case 'ip':
      return `[ipv4-addr:value = ${v}]`;
    case 'email':
      return `[email-addr:value = ${v}]`;
    default:
      return `[scamcheck-identifier:kind = ${patternString(item.indicator_type)} AND scamcheck-identifier:value = ${v}]`;
  }
}

export function indicatorObject(item: FeedItem, site: string) {
  const labels = [item.scam_type, ...(item.brand ? [`imitates:${item.brand}`] : [])];
  return {
    type: 'indicator',
    spec_version: '2.1',
    id: `indicator--${item.stix_id}`,
    created_by_ref: IDENTITY_ID,
    created: item.added_at,
    modified: item.version_at,
    name: `${KIND_WORDS[item.indicator_type] ?? 'Identifier used in scams'}: ${item.value}`,
    description: summary(item, site),
    indicator_types: ['malicious-activity'],
    pattern: stixPattern(item),
    pattern_type: 'stix',
    pattern_version: '2.1',
    valid_from: item.first_reported,
    labels,
    ...(item.withdrawn_at ? { revoked: true } : {}),
    external_references: [
      { source_name: 'ScamCheck', url: detailLink(site, item.canonical), external_id: String(item.id) },
    ],
    object_marking_refs: [TLP_MARKING[item.tlp]],
  };
}

/** The objects every bundle and the TAXII collection carry besides the indicators. */
export function fixedObjects(tlp: Tlp, site: string) {
  const objects: Record<string, unknown>[] = [identityObject(), markingObject(tlp), extensionObject(site)];
  if (tlp !== 'clear') objects.push(markingObject('clear'));
  return objects;
}

/** A bundle of a TLP's indicators of one period (a month, YYYY-MM). */
export function stixBundle(tlp: Tlp, period: string, items: FeedItem[], site: string) {
  return {
    type: 'bundle',
    id: `bundle--${uuid5(`stix-bundle:${tlp}:${period}`)}`,
    objects: [...fixedObjects(tlp, site), ...items.map((i) => indicatorObject(i, site))],
  };
}

// ---------------------------------------------------------------------------------------------
// Every file of a TLP
// ---------------------------------------------------------------------------------------------
/** Bump when a file's layout changes, so every file is rebuilt once. */
export const FEED_FORMAT = 1;

/**
 * What a file is built from, in a few characters: the items' number, newest version and ids, the
 * site's address and the format. Every change of an item bumps its version (private.feed_items), a
 * withdrawn item leaves the set, so an unchanged key means an unchanged file.
 */
export function sourceKey(items: FeedItem[], site: string): string {
  const g = groupOf(items);
  return groupKey(g, site);
}

/**
 * What the files of a TLP's group of items are made of (public.feed_file_groups computes the same in
 * the database): grp 'all' (the whole feed), 'day' (an event day, YYYY-MM-DD) or 'month' (YYYY-MM);
 * the listed items' number, how many the plain list carries, their newest version (ISO, '' when
 * none) and the sum of their ids modulo 2^48.
 */
export interface FileGroup {
  tlp: Tlp;
  grp: 'all' | 'day' | 'month';
  period: string;
  items: number;
  list_items: number;
  newest: string;
  id_sum: number;
}

function groupOf(items: FeedItem[]): Pick<FileGroup, 'items' | 'newest' | 'id_sum'> {
  let newest = '';
  let ids = 0;
  for (const i of items) {
    if (i.version_at > newest) newest = i.version_at;
    ids = (ids + i.id) % 2 ** 48;
  }
  return { items: items.length, newest, id_sum: ids };
}

function groupKey(g: Pick<FileGroup, 'items' | 'newest' | 'id_sum'>, site: string): string {
  return `${FEED_FORMAT}|${site}|${g.items}|${g.newest}|${g.id_sum}`;
}

/** The key of every item's rendered fragments: a new format or site address renders them all again. */
export function formatKey(site: string): string {
  return `${FEED_FORMAT}|${site}`;
}

/** One item's fragments: its CSV line, JSON row, MISP attribute and STIX indicator (private.feed_renders). */
export interface ItemFragments {
  csv: string;
  json: string;
  misp: string;
  stix: string;
}

export function renderItem(item: FeedItem, site: string): ItemFragments {
  return {
    csv: csvLine(item, site),
    json: JSON.stringify(feedRow(item, site)),
    misp: JSON.stringify(mispAttribute(item, site)),
    stix: JSON.stringify(indicatorObject(item, site)),
  };
}

/** Which fragments a file is made of ('list': the item's value). */
export type FilePart = 'csv' | 'json' | 'list' | 'misp' | 'stix';

/**
 * A file as the database assembles it (public.feed_file_body): prefix, the fragments of `part` of the
 * group's items in id order joined by separator, suffix. A file small enough to build whole (the MISP
 * manifest, the STIX index) has its body instead.
 */
export interface FilePlan {
  name: string;
  type: string;
  /** Identifiers the file lists (the partner download log counts them). */
  items: number;
  /** sourceKey of its items. */
  key: string;
  tlp: Tlp;
  grp: FileGroup['grp'];
  period: string;
  part?: FilePart;
  prefix?: string;
  separator?: string;
  suffix?: string;
  body?: string;
}

const FRAGMENTS = '\u0000fragments\u0000';

/** The JSON text of doc, split where its one FRAGMENTS placeholder stands. */
function around(doc: unknown): { prefix: string; suffix: string } {
  const text = JSON.stringify(doc);
  const mark = JSON.stringify(FRAGMENTS);
  const at = text.indexOf(mark);
  return { prefix: text.slice(0, at), suffix: text.slice(at + mark.length) };
}

/** Every file of a TLP, from its groups (public.feed_file_groups or fileGroups). */
export function planFeedFiles(groups: FileGroup[], tlp: Tlp, site: string): FilePlan[] {
  const mine = groups.filter((g) => g.tlp === tlp);
  const all = mine.find((g) => g.grp === 'all') ?? {
    tlp,
    grp: 'all' as const,
    period: '',
    items: 0,
    list_items: 0,
    newest: '',
    id_sum: 0,
  };
  const days = mine
    .filter((g) => g.grp === 'day' && g.items > 0)
    .sort((a, b) => (a.period < b.period ? -1 : 1));
  const months = mine
    .filter((g) => g.grp === 'month' && g.items > 0)
    .sort((a, b) => (a.period < b.period ? -1 : 1));
  const updated = new Date(all.newest || 0);
  const whole = { tlp, grp: 'all' as const, period: '', key: groupKey(all, site) };
  const plans: FilePlan[] = [];

  plans.push({
    ...whole,
    name: `${tlp}/indicators.csv`,
    type: 'text/csv',
    items: all.items,
    part: 'csv',
    prefix:
      [...commentHeader(tlp, 'verified scam identifiers', updated, site, all.items), CSV_HEADER].join(
        '\r\n',
      ) + '\r\n',
    separator: '\r\n',
    suffix: all.items ? '\r\n' : '',
  });
  plans.push({
    ...whole,
    name: `${tlp}/indicators.json`,
    type: 'application/json',
    items: all.items,
    part: 'json',
    ...around({
      title: `ScamCheck verified scam identifiers (${TLP_LABEL[tlp]})`,
      tlp: TLP_LABEL[tlp],
      terms: tlp === 'clear' ? FEED_LICENCE : PARTNER_TERMS,
      documentation: `${site}/developers#feeds`,
      updated_at: updated.toISOString(),
      count: all.items,
      fields: FEED_COLUMNS,
      items: [FRAGMENTS],
    }),
    separator: ',',
  });
  const listTitle = tlp === 'clear' ? 'verified scam links and domains' : 'verified scam identifiers';
  plans.push({
    ...whole,
    name: `${tlp}/list.txt`,
    type: 'text/plain',
    items: all.list_items,
    part: 'list',
    prefix: commentHeader(tlp, listTitle, updated, site, all.list_items).join('\n') + '\n',
    separator: '\n',
    suffix: all.list_items ? '\n' : '',
  });

  const manifest: Record<string, unknown> = {};
  for (const day of days) {
    const uuid = mispEventUuid(tlp, day.period);
    manifest[uuid] = {
      info: eventInfo(tlp, day.period),
      Orgc: { name: MISP_ORG.name, uuid: MISP_ORG.uuid },
      analysis: '2',
      threat_level_id: '2',
      timestamp: unix(new Date(day.newest || 0).toISOString()),
      date: day.period,
      Tag: [MISP_TLP_TAG[tlp], SCAMCHECK_TAG],
    };
    plans.push({
      tlp,
      grp: 'day',
      period: day.period,
      key: groupKey(day, site),
      name: `${tlp}/misp/${uuid}.json`,
      type: 'application/json',
      items: day.items,
      part: 'misp',
      ...around(mispEventWith(day.period, tlp, day.newest, day.items, [FRAGMENTS])),
      separator: ',',
    });
  }
  plans.push({
    ...whole,
    name: `${tlp}/misp/manifest.json`,
    type: 'application/json',
    items: 0,
    body: JSON.stringify(manifest),
  });

  // STIX bundles by month of first report: a month holds a few thousand indicators, well within a
  // file, and a first build writes a few dozen files rather than one per day.
  for (const month of months)
    plans.push({
      tlp,
      grp: 'month',
      period: month.period,
      key: groupKey(month, site),
      name: `${tlp}/stix/${month.period}.json`,
      type: 'application/json',
      items: month.items,
      part: 'stix',
      ...around({
        type: 'bundle',
        id: `bundle--${uuid5(`stix-bundle:${tlp}:${month.period}`)}`,
        objects: [...fixedObjects(tlp, site), FRAGMENTS],
      }),
      separator: ',',
    });
  plans.push({
    ...whole,
    name: `${tlp}/stix/index.json`,
    type: 'application/json',
    items: 0,
    body: JSON.stringify({
      title: `ScamCheck STIX 2.1 bundles, one per month of first report (${TLP_LABEL[tlp]})`,
      updated_at: updated.toISOString(),
      indicators: all.items,
      bundles: months.map((m) => ({
        month: m.period,
        file: `${m.period}.json`,
        indicators: m.items,
        modified: new Date(m.newest || 0).toISOString(),
      })),
    }),
  });
  return plans;
}

/** The groups of the listed items of a TLP, as public.feed_file_groups computes them. */
export function fileGroups(all: FeedItem[], tlp: Tlp): FileGroup[] {
  const items = all.filter((i) => i.tlp === tlp && !i.withdrawn_at);
  const kinds = LIST_KINDS[tlp];
  const group = (grp: FileGroup['grp'], period: string, members: FeedItem[]): FileGroup => ({
    tlp,
    grp,
    period,
    ...groupOf(members),
    list_items: kinds ? members.filter((i) => kinds.has(i.indicator_type)).length : members.length,
  });
  return [
    group('all', '', items),
    ...[...byDay(items)].map(([day, members]) => group('day', day, members)),
    ...[...byMonth(items)].map(([month, members]) => group('month', month, members)),
  ];
}

/** The items of a plan's group that its fragments come from, in id order (feed_file_body does the same). */
function planItems(plan: FilePlan, all: FeedItem[]): FeedItem[] {
  const kinds = LIST_KINDS[plan.tlp];
  return all
    .filter(
      (i) =>
        i.tlp === plan.tlp &&
        !i.withdrawn_at &&
        (plan.part !== 'list' || !kinds || kinds.has(i.indicator_type)) &&
        (plan.grp === 'all' ||
          (plan.grp === 'day' && i.event_day === plan.period) ||
          (plan.grp === 'month' && i.event_day.slice(0, 7) === plan.period)),
    )
    .sort((a, b) => a.id - b.id);
}

/** A planned file's body, assembled in memory as public.feed_file_body assembles it in the database. */
export function assembleFile(plan: FilePlan, all: FeedItem[], site: string): string {
  if (plan.body !== undefined) return plan.body;
  const part = plan.part!;
  const fragments = planItems(plan, all).map((i) => (part === 'list' ? i.value : renderItem(i, site)[part]));
  return plan.prefix! + fragments.join(plan.separator!) + plan.suffix!;
}

export interface BuiltFile extends FeedFile {
  /** sourceKey of the items it was built from. */
  key: string;
}

/**
 * The files of a TLP, built in memory (the tests; the job has the database assemble them). previous:
 * each file's source key from the last run; a file whose key has not changed is not built again (its
 * name is in `kept`). Files hold no build time, so the same items give the same bytes, and the same
 * ETag.
 */
export function buildFeedFiles(
  all: FeedItem[],
  tlp: Tlp,
  site: string,
  previous: ReadonlyMap<string, string> = new Map(),
): { files: BuiltFile[]; kept: string[] } {
  const files: BuiltFile[] = [];
  const kept: string[] = [];
  for (const plan of planFeedFiles(fileGroups(all, tlp), tlp, site)) {
    if (previous.get(plan.name) === plan.key) kept.push(plan.name);
    else
      files.push({
        name: plan.name,
        type: plan.type,
        body: assembleFile(plan, all, site),
        items: plan.items,
        key: plan.key,
      });
  }
  return { files, kept };
}

/**
 * The threat-intelligence feeds' formats (issue 34): every STIX object validated against the OASIS
 * STIX 2.1 JSON schemas, every MISP event against the MISP core format's required fields and
 * category-type table, XARF takedown reports against the XARF v4 schemas (both kept in tests/schemas
 * with their licences), the CSV against its documented header, and the listing rules (shared
 * platforms and shorteners never listed as whole domains; phones, e-wallets and e-mails partners only).
 */
import fs from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { Classifier, splitLink } from '../../supabase/functions/_shared/feeds/classify.ts';
import {
  CSV_HEADER,
  FEED_COLUMNS,
  buildCsv,
  buildFeedFiles,
  buildJson,
  buildList,
  byDay,
  byMonth,
  fileGroups,
  mispEventUuid,
  planFeedFiles,
  extensionObject,
  fixedObjects,
  identityObject,
  indicatorObject,
  markingObject,
  mispEvent,
  stixBundle,
  stixPattern,
  uuid5,
  type FeedItem,
} from '../../supabase/functions/_shared/feeds/formats.ts';
import { xarfReport } from '../../supabase/functions/_shared/feeds/xarf.ts';

const SITE = 'https://scamcheck.example';
const NOW = new Date('2026-11-27T15:00:00.000Z');

/** Every .json file below dir, parsed. */
function schemasIn(dir: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith('.json'))
      out.push(JSON.parse(fs.readFileSync(path.join(entry.parentPath, entry.name), 'utf8')));
  }
  return out;
}

const root = path.resolve(import.meta.dirname, '../schemas');
// unicodeRegExp off: the STIX schemas' patterns escape '-', which the 'u' flag refuses.
const ajv = new Ajv2020({ strict: false, allErrors: true, unicodeRegExp: false });
addFormats(ajv);
for (const schema of [
  ...schemasIn(path.join(root, 'stix2.1/schemas')),
  ...schemasIn(path.join(root, 'xarf-v4/schemas')),
])
  ajv.addSchema(schema);
const STIX = 'http://raw.githubusercontent.com/oasis-open/cti-stix2-json-schemas/stix2.1/schemas';
const stixSchema = (p: string) => ajv.getSchema(`${STIX}/${p}`)!;
const validateBundle = stixSchema('common/bundle.json');
const validateIndicator = stixSchema('sdos/indicator.json');
const validateIdentity = stixSchema('sdos/identity.json');
const validateMarking = stixSchema('common/marking-definition.json');
const validateExtension = stixSchema('common/extension-definition.json');
const validateXarf = ajv.getSchema('https://xarf.org/schemas/v4/types/content-phishing.json')!;

function valid(validate: ReturnType<typeof ajv.getSchema> & object, data: unknown): string {
  return validate(data) ? 'valid' : ajv.errorsText(validate.errors, { separator: '\n' });
}

let nextId = 1;
function item(over: Partial<FeedItem>): FeedItem {
  const id = nextId++;
  return {
    id,
    kind: 'website',
    canonical: 'gcash-verify.xyz',
    tlp: 'clear',
    indicator_type: 'domain',
    value: 'gcash-verify.xyz',
    written: 'https://gcash-verify.xyz/login?u=juan@example.com',
    first_reported: '2026-11-20T08:00:00.000Z',
    last_reported: '2026-11-26T09:30:00.000Z',
    reports: 3,
    reporters: 2,
    scam_type: 'scam',
    brand: 'GCash',
    stix_id: uuid5(`test:${id}`),
    event_day: '2026-11-20',
    added_at: '2026-11-27T14:00:00.000Z',
    version_at: '2026-11-27T14:00:00.000Z',
    ...over,
  };
}

const ITEMS: FeedItem[] = [
  item({}),
  item({
    canonical: 'bit.ly/gcash-promo',
    indicator_type: 'url',
    value: 'https://bit.ly/gcash-promo',
    written: 'bit.ly/gcash-promo',
    brand: null,
  }),
  item({
    canonical: '203.0.113.7',
    indicator_type: 'ip',
    value: '203.0.113.7',
    written: '203.0.113.7',
    event_day: '2026-11-21',
    first_reported: '2026-11-21T01:00:00.000Z',
  }),
  item({
    kind: 'crypto',
    canonical: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
    indicator_type: 'crypto',
    value: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
    written: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
    brand: null,
    scam_type: 'hacked',
  }),
  item({
    kind: 'crypto',
    canonical: '0x52908400098527886e0f7030069857d2e4169ee7',
    indicator_type: 'crypto',
    value: '0x52908400098527886e0f7030069857d2e4169ee7',
    written: '0x52908400098527886E0F7030069857D2E4169EE7',
    brand: null,
  }),
  item({
    kind: 'mobile',
    tlp: 'amber',
    canonical: '+639171234567',
    indicator_type: 'phone',
    value: '+639171234567',
    written: "0917 123 4567 (it's him)",
    brand: null,
  }),
  item({
    kind: 'ewallet',
    tlp: 'amber',
    canonical: '+639181234567',
    indicator_type: 'ewallet',
    value: '+639181234567',
    written: '0918-123-4567',
    brand: null,
  }),
  item({
    kind: 'ewallet',
    tlp: 'amber',
    canonical: 'juan.dc',
    indicator_type: 'ewallet',
    value: 'juan.dc',
    written: 'Juan.DC',
    brand: null,
  }),
  item({
    kind: 'email',
    tlp: 'amber',
    canonical: 'gcash.support@example.com',
    indicator_type: 'email',
    value: 'gcash.support@example.com',
    written: 'GCash.Support@example.com',
    brand: null,
  }),
  item({
    kind: 'social',
    tlp: 'amber',
    canonical: 'telegram:@scammer',
    indicator_type: 'account',
    value: 'telegram:@scammer',
    written: '@scammer',
    brand: null,
    event_day: '2026-11-21',
    first_reported: '2026-11-21T01:00:00.000Z',
  }),
  item({
    canonical: "o'brien.example",
    value: "o'brien.example",
    written: "o'brien.example",
    brand: null,
    withdrawn_at: '2026-11-27T14:30:00.000Z',
    version_at: '2026-11-27T14:30:00.000Z',
  }),
];

describe('listing rules', () => {
  const c = new Classifier(['rb.gy']);
  it('lists a phishing domain and a link with a path as public indicators', () => {
    expect(c.classify('website', 'gcash-verify.xyz')).toEqual({
      tlp: 'clear',
      type: 'domain',
      value: 'gcash-verify.xyz',
      host: 'gcash-verify.xyz',
    });
    expect(c.classify('website', 'bdo-online.example.ph/login')).toMatchObject({
      tlp: 'clear',
      type: 'url',
      value: 'https://bdo-online.example.ph/login',
    });
    expect(c.classify('website', '203.0.113.7')).toMatchObject({ type: 'ip', value: '203.0.113.7' });
  });
  it("never lists a shortener's or platform's whole domain, only the short link or account (any kind)", () => {
    for (const host of ['bit.ly', 'facebook.com', 'm.facebook.com', 'rb.gy', 'sites.google.com', 't.me'])
      expect(c.classify('website', host), host).toBeNull();
    expect(c.classify('website', 'bit.ly/gcash-promo')).toMatchObject({
      tlp: 'clear',
      type: 'url',
      value: 'https://bit.ly/gcash-promo',
    });
    expect(c.classify('social', 'facebook.com/gcash.promo.official')).toMatchObject({
      type: 'url',
      value: 'https://facebook.com/gcash.promo.official',
    });
    expect(c.classify('shortlink', 'https://rb.gy/abc123?utm=x')).toMatchObject({
      type: 'url',
      value: 'https://rb.gy/abc123',
    });
  });
  it("leaves out hosting platforms that are private suffixes, but lists their users' subdomains", () => {
    expect(c.classify('website', 'blogspot.com')).toBeNull();
    expect(c.classify('website', 'web.app')).toBeNull();
    expect(c.classify('website', 'github.io')).toBeNull();
    expect(c.classify('website', 'gcash-login.web.app')).toMatchObject({
      tlp: 'clear',
      type: 'domain',
      value: 'gcash-login.web.app',
    });
    expect(c.classify('website', 'maya-rewards.blogspot.com')).toMatchObject({ type: 'domain' });
    expect(c.classify('website', 'com.ph')).toBeNull();
  });
  it('puts phones, e-wallets, e-mails and unknown non-link kinds in the partner feed only', () => {
    expect(c.classify('mobile', '+639171234567')).toEqual({
      tlp: 'amber',
      type: 'phone',
      value: '+639171234567',
    });
    expect(c.classify('ewallet', '+639171234567')).toMatchObject({ tlp: 'amber', type: 'ewallet' });
    expect(c.classify('email', 'x@example.com')).toMatchObject({ tlp: 'amber', type: 'email' });
    expect(c.classify('social', 'telegram:@scammer')).toMatchObject({ tlp: 'amber', type: 'account' });
    expect(c.classify('crypto', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq')).toMatchObject({
      tlp: 'clear',
      type: 'crypto',
    });
  });
  it('cuts queries and fragments from links', () => {
    expect(splitLink('https://x.example/a/b/?token=1#f')).toEqual({ host: 'x.example', path: '/a/b' });
  });
});

describe('STIX 2.1', () => {
  it('the fixed objects are valid', () => {
    expect(valid(validateIdentity, identityObject())).toBe('valid');
    expect(valid(validateMarking, markingObject('clear'))).toBe('valid');
    expect(valid(validateMarking, markingObject('amber'))).toBe('valid');
    expect(valid(validateExtension, extensionObject(SITE))).toBe('valid');
  });
  it('every indicator is valid, with the pattern of its kind', () => {
    for (const i of ITEMS) expect(valid(validateIndicator, indicatorObject(i, SITE)), i.value).toBe('valid');
    expect(stixPattern(ITEMS[0])).toBe("[domain-name:value = 'gcash-verify.xyz']");
    expect(stixPattern(ITEMS[1])).toBe("[url:value = 'https://bit.ly/gcash-promo']");
    expect(stixPattern(ITEMS[8])).toBe("[email-addr:value = 'gcash.support@example.com']");
    expect(stixPattern(ITEMS[5])).toBe(
      "[scamcheck-identifier:kind = 'phone' AND scamcheck-identifier:value = '+639171234567']",
    );
    expect(stixPattern(ITEMS[10])).toBe("[domain-name:value = 'o\\'brien.example']");
    expect(indicatorObject(ITEMS[10], SITE).revoked).toBe(true);
  });
  it('the bundles are valid and carry the TLP marking on every indicator', () => {
    for (const tlp of ['clear', 'amber'] as const) {
      const bundle = stixBundle(
        tlp,
        '2026-11-20',
        ITEMS.filter((i) => i.tlp === tlp),
        SITE,
      );
      // bundle.json predates extension-definition: its list of object schemas leaves it out, and its
      // fallback for custom objects wants exactly one of core and cyber-observable-core, which any full
      // object matches both of. So each object is validated with its own schema, and the envelope
      // without the extension definition.
      expect(
        valid(validateBundle, {
          ...bundle,
          objects: bundle.objects.filter((o) => o.type !== 'extension-definition'),
        }),
      ).toBe('valid');
      const own: Record<string, typeof validateBundle> = {
        identity: validateIdentity,
        'marking-definition': validateMarking,
        'extension-definition': validateExtension,
        indicator: validateIndicator,
      };
      for (const o of bundle.objects) expect(valid(own[o.type as string], o), String(o.id)).toBe('valid');
      expect(bundle.objects.map((o) => o.type)).toContain('extension-definition');
      for (const o of bundle.objects.filter((o) => o.type === 'indicator'))
        expect(o.object_marking_refs).toEqual([markingObject(tlp).id]);
    }
    expect(fixedObjects('amber', SITE).map((o) => o.id)).toContain(markingObject('clear').id);
  });
  it('a validator that accepts anything would not pass: a broken indicator is refused', () => {
    const broken = { ...indicatorObject(ITEMS[0], SITE), pattern_type: undefined, modified: 'yesterday' };
    expect(valid(validateIndicator, broken)).not.toBe('valid');
  });
});

/** The MISP core format (draft-dulaunoy-misp-core-format): MUST fields and valid category-type pairs. */
const EVENT_REQUIRED = [
  'uuid',
  'published',
  'info',
  'date',
  'timestamp',
  'publish_timestamp',
  'org_id',
  'orgc_id',
  'distribution',
  'threat_level_id',
  'analysis',
];
const ATTRIBUTE_REQUIRED = [
  'uuid',
  'type',
  'category',
  'to_ids',
  'event_id',
  'distribution',
  'timestamp',
  'deleted',
  'value',
];
const CATEGORY_TYPES: Record<string, string[]> = {
  'Network activity': ['ip-dst', 'domain', 'url', 'email-src', 'hostname'],
  'Payload delivery': ['email-src', 'url', 'domain'],
  'Financial fraud': [
    'btc',
    'dash',
    'xmr',
    'iban',
    'bic',
    'bank-account-nr',
    'aba-rtn',
    'bin',
    'cc-number',
    'prtn',
    'phone-number',
    'comment',
    'text',
    'other',
    'hex',
    'anonymised',
  ],
  'Social network': [
    'github-username',
    'github-repository',
    'github-organisation',
    'jabber-id',
    'twitter-id',
    'email',
    'email-src',
    'email-dst',
    'eppn',
    'comment',
    'text',
    'other',
    'whois-registrant-email',
    'anonymised',
  ],
};
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-5][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function mispProblems(doc: { Event: Record<string, unknown> }): string[] {
  const problems: string[] = [];
  const e = doc.Event;
  for (const f of EVENT_REQUIRED) if (!(f in e)) problems.push(`Event.${f} missing`);
  if (!UUID.test(String(e.uuid))) problems.push('Event.uuid is not a UUID');
  if (!/^\d{4}-\d{2}-\d{2}$/.test(String(e.date))) problems.push('Event.date is not YYYY-MM-DD');
  for (const f of ['timestamp', 'publish_timestamp', 'threat_level_id', 'analysis', 'distribution'])
    if (!/^\d+$/.test(String(e[f]))) problems.push(`Event.${f} is not a decimal string`);
  if (!['1', '2', '3', '4'].includes(String(e.threat_level_id))) problems.push('threat_level_id');
  if (!['0', '1', '2'].includes(String(e.analysis))) problems.push('analysis');
  if (!['0', '1', '2', '3', '4'].includes(String(e.distribution))) problems.push('distribution');
  if (typeof e.published !== 'boolean') problems.push('published is not a boolean');
  if (String(e.info).length > 256 || /\n/.test(String(e.info))) problems.push('info too long or multi-line');
  const orgc = e.Orgc as Record<string, unknown>;
  for (const f of ['uuid', 'name', 'id']) if (typeof orgc?.[f] !== 'string') problems.push(`Orgc.${f}`);
  for (const a of e.Attribute as Record<string, unknown>[]) {
    for (const f of ATTRIBUTE_REQUIRED) if (!(f in a)) problems.push(`Attribute.${f} missing`);
    if (!UUID.test(String(a.uuid))) problems.push(`Attribute.uuid ${String(a.uuid)}`);
    if (!CATEGORY_TYPES[String(a.category)]?.includes(String(a.type)))
      problems.push(
        `Attribute ${String(a.value)}: ${String(a.category)}/${String(a.type)} is not a valid pair`,
      );
    if (typeof a.to_ids !== 'boolean' || typeof a.deleted !== 'boolean') problems.push('to_ids/deleted');
    if (!['0', '1', '2', '3', '4', '5'].includes(String(a.distribution)))
      problems.push('Attribute.distribution');
    if (typeof a.value !== 'string' || !a.value) problems.push('Attribute.value');
  }
  return problems;
}

describe('MISP feed', () => {
  it('every event has the core format required fields and valid category-type pairs', () => {
    for (const tlp of ['clear', 'amber'] as const) {
      const event = mispEvent(
        '2026-11-20',
        ITEMS.filter((i) => i.tlp === tlp && !i.withdrawn_at),
        tlp,
        SITE,
      );
      expect(mispProblems(event)).toEqual([]);
      expect(event.Event.Tag.map((t) => t.name)).toContain(`tlp:${tlp}`);
    }
    const types = mispEvent('2026-11-20', ITEMS, 'amber', SITE).Event.Attribute.map(
      (a) => `${a.type}:${a.value}`,
    );
    expect(types).toEqual(
      expect.arrayContaining([
        'domain:gcash-verify.xyz',
        'url:https://bit.ly/gcash-promo',
        'ip-dst:203.0.113.7',
        'btc:bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
        'phone-number:+639171234567',
        'email-src:gcash.support@example.com',
        'bank-account-nr:juan.dc',
      ]),
    );
  });
  it('a checker that accepts anything would not pass: a broken event is refused', () => {
    const event = mispEvent('2026-11-20', ITEMS.slice(0, 1), 'clear', SITE);
    const broken = {
      Event: {
        ...event.Event,
        uuid: 'nope',
        Attribute: [{ ...event.Event.Attribute[0], category: 'Person' }],
      },
    };
    expect(mispProblems(broken)).toHaveLength(2);
  });
  it('the manifest names every event file, one per day', () => {
    const files = buildFeedFiles(ITEMS, 'clear', SITE).files;
    const manifest = JSON.parse(files.find((f) => f.name === 'clear/misp/manifest.json')!.body) as Record<
      string,
      { date: string; Orgc: unknown; timestamp: string }
    >;
    const events = files.filter((f) => /^clear\/misp\/[0-9a-f-]{36}\.json$/.test(f.name));
    expect(Object.keys(manifest).sort()).toEqual(events.map((f) => f.name.slice(11, 47)).sort());
    expect(
      Object.values(manifest)
        .map((m) => m.date)
        .sort(),
    ).toEqual(['2026-11-20', '2026-11-21']);
    for (const f of events) expect(mispProblems(JSON.parse(f.body))).toEqual([]);
  });
});

describe('CSV, JSON and list', () => {
  const clear = buildFeedFiles(ITEMS, 'clear', SITE).files;
  const amber = buildFeedFiles(ITEMS, 'amber', SITE).files;
  const body = (files: typeof clear, name: string) => files.find((f) => f.name === name)!.body;

  it('the CSV has the documented header after its # lines, and one quoted row of every field per item', () => {
    const lines = body(clear, 'clear/indicators.csv').trimEnd().split('\r\n');
    const header = lines.findIndex((l) => !l.startsWith('#')) - 1;
    expect(lines[header]).toBe(CSV_HEADER);
    expect(CSV_HEADER).toBe(
      '# id,date_added,kind,value,canonical,written,status,first_reported,last_reported,reporters,scam_type,brand,link',
    );
    expect(lines.slice(0, header).every((l) => l.startsWith('#'))).toBe(true);
    const rows = lines.slice(header + 1);
    expect(rows).toHaveLength(5);
    for (const r of rows) {
      const fields = r.match(/"(?:[^"]|"")*"/g)!;
      expect(fields).toHaveLength(FEED_COLUMNS.length);
      expect(r).toBe(fields.join(','));
    }
    expect(rows[0]).toContain('"gcash-verify.xyz","gcash-verify.xyz","https://gcash-verify.xyz/login"');
    expect(rows[0]).toContain('"verified"');
    expect(rows[0]).toContain(`"${SITE}/search/gcash-verify.xyz"`);
  });
  it('a CSV field with quotes or line breaks is quoted with its quotes doubled and its line breaks as spaces', () => {
    const account = item({
      kind: 'social',
      tlp: 'amber',
      indicator_type: 'account',
      canonical: 'juan "promo"',
      value: 'juan "promo"',
      written: 'Juan "Promo"\r\nPage',
      brand: null,
    });
    const csv = buildCsv([account], 'amber', new Date('2026-11-27T00:00:00Z'), SITE);
    const row = csv.trimEnd().split('\r\n').at(-1)!;
    expect(row).toContain('"juan ""promo""","juan ""promo""","Juan ""Promo"" Page"');
    expect(row.match(/"(?:[^"]|"")*"/g)).toHaveLength(FEED_COLUMNS.length);
  });
  it('public files carry links, domains and crypto only; the partner files phones, e-wallets and e-mails', () => {
    const publicCsv = body(clear, 'clear/indicators.csv');
    expect(publicCsv).not.toContain('+639171234567');
    expect(publicCsv).not.toContain("o'brien.example"); // withdrawn
    const partnerCsv = body(amber, 'amber/indicators.csv');
    expect(partnerCsv).toContain('+639171234567');
    expect(partnerCsv).not.toContain('gcash-verify.xyz');
    expect(
      body(clear, 'clear/list.txt')
        .split('\n')
        .filter((l) => l && !l.startsWith('#')),
    ).toEqual(['gcash-verify.xyz', 'https://bit.ly/gcash-promo', '203.0.113.7']);
    const json = JSON.parse(body(clear, 'clear/indicators.json')) as {
      fields: { name: string }[];
      items: Record<string, unknown>[];
    };
    expect(json.fields.map((f) => f.name)).toEqual(FEED_COLUMNS.map((c) => c.name));
    expect(Object.keys(json.items[0])).toEqual(FEED_COLUMNS.map((c) => c.name));
    expect(json.items).toHaveLength(5);
  });
  it('no file carries an amount', () => {
    for (const f of [...clear, ...amber]) expect(f.body).not.toMatch(/amount/i);
  });
});

describe('XARF takedown reports', () => {
  const reporter = { org: 'ScamCheck', contact: 'abuse@scamcheck.ph', domain: 'scamcheck.ph' };
  it('are valid XARF v4 phishing reports with a hashed evidence record', () => {
    for (const i of ITEMS.slice(0, 3)) {
      const draft = xarfReport(i, reporter, SITE, NOW);
      expect(valid(validateXarf, draft.xarf), i.value).toBe('valid');
      const evidence = (draft.xarf.evidence as { payload: string; hash: string }[])[0];
      const text = Buffer.from(evidence.payload, 'base64').toString('utf8');
      expect(evidence.hash).toBe(`sha256:${createHash('sha256').update(text).digest('hex')}`);
      expect(text).toContain('verification record');
    }
    expect(xarfReport(ITEMS[1], reporter, SITE, NOW).url).toBe('https://bit.ly/gcash-promo');
    expect(xarfReport(ITEMS[0], reporter, SITE, NOW).xarf.target_brand).toBe('GCash');
  });
  it('a report missing its reporter is refused', () => {
    const { reporter: _, ...rest } = xarfReport(ITEMS[0], reporter, SITE, NOW).xarf;
    expect(valid(validateXarf, rest)).not.toBe('valid');
  });
});

describe('files assembled from fragments (as the database assembles them)', () => {
  it('are byte for byte the files the whole-file builders write, for both TLPs', () => {
    const withdrawn = { ...ITEMS[0], id: 99, withdrawn_at: '2026-11-27T16:00:00.000Z' };
    // Out of id order on purpose: files list items in id order, as public.feed_file_body does.
    const all = [...ITEMS].reverse().concat(withdrawn);
    for (const tlp of ['clear', 'amber'] as const) {
      const listed = all.filter((i) => i.tlp === tlp && !i.withdrawn_at).sort((a, b) => a.id - b.id);
      const newest = listed.reduce((m, i) => (i.version_at > m ? i.version_at : m), '');
      const updated = new Date(newest || 0);
      const files = new Map(buildFeedFiles(all, tlp, SITE).files.map((f) => [f.name, f.body]));
      expect(files.get(`${tlp}/indicators.csv`)).toBe(buildCsv(listed, tlp, updated, SITE));
      expect(files.get(`${tlp}/indicators.json`)).toBe(buildJson(listed, tlp, updated, SITE));
      expect(files.get(`${tlp}/list.txt`)).toBe(buildList(listed, tlp, updated, SITE));
      for (const [day, items] of byDay(listed))
        expect(files.get(`${tlp}/misp/${mispEventUuid(tlp, day)}.json`)).toBe(
          JSON.stringify(mispEvent(day, items, tlp, SITE)),
        );
      for (const [month, items] of byMonth(listed))
        expect(files.get(`${tlp}/stix/${month}.json`)).toBe(
          JSON.stringify(stixBundle(tlp, month, items, SITE)),
        );
    }
  });

  it('a TLP with no items still gets its CSV, JSON and list, with only their headers', () => {
    const plans = planFeedFiles(fileGroups([], 'amber'), 'amber', SITE);
    expect(plans.map((p) => p.name)).toEqual([
      'amber/indicators.csv',
      'amber/indicators.json',
      'amber/list.txt',
      'amber/misp/manifest.json',
      'amber/stix/index.json',
    ]);
    const files = new Map(buildFeedFiles([], 'amber', SITE).files.map((f) => [f.name, f.body]));
    expect(files.get('amber/indicators.csv')).toBe(buildCsv([], 'amber', new Date(0), SITE));
    expect(files.get('amber/indicators.json')).toBe(buildJson([], 'amber', new Date(0), SITE));
    expect(JSON.parse(files.get('amber/indicators.json')!).items).toEqual([]);
    expect(files.get('amber/list.txt')).toBe(buildList([], 'amber', new Date(0), SITE));
  });
});

describe('incremental builds', () => {
  it('rebuilds only the files whose items changed, and the same items give the same bytes', () => {
    const first = buildFeedFiles(ITEMS, 'clear', SITE);
    const keys = new Map(first.files.map((f) => [f.name, f.key]));
    const again = buildFeedFiles(ITEMS, 'clear', SITE, keys);
    expect(again.files).toEqual([]);
    expect(again.kept.sort()).toEqual([...keys.keys()].sort());
    expect(buildFeedFiles(ITEMS, 'clear', SITE).files.map((f) => f.body)).toEqual(
      first.files.map((f) => f.body),
    );

    // One identifier of 2026-11-21 gets a new version: its day's event, its month's bundle and the
    // whole-feed files are rebuilt; the other day's event is not.
    const changed = ITEMS.map((i) =>
      i.id === ITEMS[2].id ? { ...i, reporters: 5, version_at: '2026-11-27T16:00:00.000Z' } : i,
    );
    const next = buildFeedFiles(changed, 'clear', SITE, keys);
    const built = next.files.map((f) => f.name);
    expect(built).toEqual(
      expect.arrayContaining([
        'clear/indicators.csv',
        'clear/indicators.json',
        'clear/list.txt',
        'clear/misp/manifest.json',
        'clear/stix/2026-11.json',
        'clear/stix/index.json',
      ]),
    );
    const day20 = first.files.find(
      (f) =>
        f.body.includes('"date":"2026-11-20"') &&
        f.name.includes('/misp/') &&
        !f.name.endsWith('manifest.json'),
    )!;
    expect(next.kept).toContain(day20.name);
    expect(built.filter((n) => /misp\/[0-9a-f-]{36}\.json$/.test(n))).toHaveLength(1);
  });
});

/**
 * Message checking against the real database: the seeded brands and lists (read as anon, edited only
 * by admins), public.check_identifiers (one call for every identifier, risk as search computes it,
 * logged as searches), and the corpus of realistic messages with recall and precision printed.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  checkMessage,
  extractIdentifiers,
  lookupInput,
  lookupsFrom,
  type CheckRules,
  type LookupRow,
} from '../../functions/_shared/check-message.ts';
import { CORPUS } from '../check-message-corpus.ts';
import { withRole } from '../helpers.ts';
import { adminPool } from '../helpers.ts';
import { anon, createUser, DENIED, fileReport, run, setStatus, verifiedAged, type Actor } from './actors.ts';

let rules: CheckRules;
let owner: Actor;
let admin: Actor;

async function loadRules(actor: Actor): Promise<CheckRules> {
  const brands = await run<CheckRules['brands'][number]>(
    actor,
    'select name, category, official_domains, keywords, short_keywords from public.brands order by id',
  );
  const lists = await run<{ list: string; value: string }>(
    actor,
    'select list, value from public.check_domain_lists',
  );
  return {
    brands,
    shorteners: lists.filter((l) => l.list === 'shortener').map((l) => l.value),
    abusedTlds: lists.filter((l) => l.list === 'abused-tld').map((l) => l.value),
  };
}

async function checkIdentifiers(actor: Actor, items: unknown, visitor: unknown = null): Promise<LookupRow[]> {
  const [{ r }] = await run<{ r: LookupRow[] }>(
    actor,
    'select public.check_identifiers($1::jsonb, $2::jsonb) as r',
    [JSON.stringify(items), visitor === null ? null : JSON.stringify(visitor)],
  );
  return r;
}

beforeAll(async () => {
  [owner, admin] = await Promise.all([createUser('Owner'), createUser('Admin', { admin: true })]);
  rules = await loadRules(anon);
});

describe('holds on: postgres — brands and domain lists', () => {
  it('are seeded with the brands of the issue and readable by anyone', () => {
    const names = rules.brands.map((b) => b.name);
    for (const n of [
      'GCash',
      'Maya',
      'BDO',
      'BPI',
      'Metrobank',
      'LandBank',
      'UnionBank',
      'Security Bank',
      'RCBC',
      'PNB',
      'SSS',
      'PhilHealth',
      'Pag-IBIG',
      'BIR',
      'LTO',
      'DFA',
      'PhilPost',
      'LBC',
      'J&T Express',
      'Ninja Van',
      'Flash Express',
      'Shopee',
      'Lazada',
      'TikTok Shop',
      'Globe',
      'Smart',
      'DITO',
    ])
      expect(names).toContain(n);
    expect(rules.brands.find((b) => b.name === 'GCash')).toEqual({
      name: 'GCash',
      category: 'ewallet',
      official_domains: ['gcash.com'],
      keywords: ['gcash'],
      short_keywords: [],
    });
    expect(rules.shorteners).toContain('bit.ly');
    expect(rules.abusedTlds).toContain('xyz');
  });

  it('only admins add, change and remove them', async () => {
    await expect(
      run(anon, `insert into public.brands (name, category) values ('X', 'bank')`),
    ).rejects.toThrow(DENIED);
    await expect(
      run(owner, `insert into public.brands (name, category) values ('X', 'bank')`),
    ).rejects.toThrow(DENIED);
    expect(
      await run(owner, `update public.brands set keywords = '{}' where name = 'GCash' returning id`),
    ).toEqual([]);
    expect(
      await run(owner, `delete from public.check_domain_lists where value = 'bit.ly' returning value`),
    ).toEqual([]);
    await expect(
      run(owner, `insert into public.check_domain_lists (list, value) values ('shortener', 'x.y')`),
    ).rejects.toThrow(DENIED);

    const [b] = await run<{ id: number }>(
      admin,
      `insert into public.brands (name, category, official_domains, keywords) values ('Test Bank ' || gen_random_uuid(), 'bank', '{testbank.example}', '{testbankph}') returning id`,
    );
    const [u] = await run<{ keywords: string[] }>(
      admin,
      `update public.brands set keywords = '{testbankph,tbph}' where id = $1 returning keywords`,
      [b.id],
    );
    expect(u.keywords).toEqual(['testbankph', 'tbph']);
    expect(await run(admin, 'delete from public.brands where id = $1 returning id', [b.id])).toHaveLength(1);
    await run(admin, `insert into public.check_domain_lists (list, value) values ('abused-tld', 'testtld')`);
    expect(
      await run(admin, `delete from public.check_domain_lists where value = 'testtld' returning value`),
    ).toHaveLength(1);
  });

  it('refuse malformed data', async () => {
    await expect(
      run(
        admin,
        `insert into public.brands (name, category, keywords) values ('Bad', 'bank', '{"Not Lower"}')`,
      ),
    ).rejects.toThrow(/check/);
    await expect(
      run(admin, `insert into public.brands (name, category) values ('Bad', 'casino')`),
    ).rejects.toThrow(/check/);
    await expect(
      run(admin, `insert into public.check_domain_lists (list, value) values ('shortener', 'Bad Host')`),
    ).rejects.toThrow(/check/);
  });
});

describe('holds on: postgres — check_identifiers', () => {
  const mobile = `0917${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
  const site = `shop-${Math.random().toString(36).slice(2, 8)}.example`;

  beforeAll(async () => {
    const reports = [];
    // Two reporters: one reporter's reports on one identifier weigh as one (issue 11), so the two
    // verified reports come from different accounts.
    const second = await createUser('Second reporter');
    for (let i = 0; i < 3; i++)
      reports.push(await fileReport(i === 1 ? second : owner, { reported_account: mobile }));
    await fileReport(owner, {
      reported_account_type: 'website',
      reported_account: `https://www.${site}/pay`,
    });
    await setStatus(reports[0].id, 'verified');
    await setStatus(reports[1].id, 'verified');
    await setStatus(reports[2].id, 'rejected');
  });

  it('answers every identifier in input order with the count and risk search gives, in one call', async () => {
    const r = await checkIdentifiers(anon, [
      { type: 'website', value: site },
      { type: 'mobile', value: `+63 ${mobile.slice(1)}` },
      { type: 'email', value: 'Nobody@Example.com' },
    ]);
    const [{ s }] = await run<{ s: { summary: { count: number; risk_level: number; risk_label: string } } }>(
      anon,
      'select public.search_reports($1) as s',
      [mobile],
    );
    expect(r).toEqual([
      {
        type: 'website',
        value: site,
        canonical: site,
        count: 1,
        // One fresh pending report from a young account (issue 27): w = 0.05, 100 * (1 - exp(-0.025)) = 2.47.
        risk_level: 2,
        risk_label: 'low',
        verified_count: 0,
        pending_count: 1,
        risk_note: 'Reported 1 time, not yet reviewed',
      },
      {
        type: 'mobile',
        value: `+63 ${mobile.slice(1)}`,
        canonical: `+63${mobile.slice(1)}`,
        count: 2,
        risk_level: s.summary.risk_level,
        risk_label: s.summary.risk_label,
        verified_count: 2,
        pending_count: 0,
        risk_note: null,
      },
      {
        type: 'email',
        value: 'Nobody@Example.com',
        canonical: 'nobody@example.com',
        count: 0,
        risk_level: 0,
        risk_label: 'low',
        verified_count: 0,
        pending_count: 0,
        risk_note: null,
      },
    ]);
    expect(s.summary.count).toBe(2);
    expect(s.summary.risk_label).toBe('high');
  });

  it("labels risk at search's edges: 24 low, 25 medium, 59 medium, 60 high (hand-computed)", async () => {
    const numbers = [
      await verifiedAged([152]), // w = 0.5^(152/180) = 0.5569 -> 24.31
      await verifiedAged([144]), // w = 0.5743 -> 24.96
      await verifiedAged([30, 30]), // w = 2 * 0.8909 = 1.7818 -> 58.97
      await verifiedAged([22, 22]), // w = 2 * 0.9188 = 1.8375 -> 60.10
    ];
    const r = await checkIdentifiers(
      anon,
      numbers.map((value) => ({ type: 'mobile', value })),
    );
    expect(r.map(({ risk_level, risk_label }) => [risk_level, risk_label])).toEqual([
      [24, 'low'],
      [25, 'medium'],
      [59, 'medium'],
      [60, 'high'],
    ]);
  });

  it('logs each identifier as an anonymous search; a location an anonymous caller sends is not kept (issue 11: the server resolves it)', async () => {
    const marker = `0998${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
    await checkIdentifiers(anon, [{ type: 'mobile', value: marker }], {
      city: 'Cebu City',
      country: 'PH',
      ip_hash: 'ab'.repeat(16),
    });
    const { rows } = await adminPool().query(
      `select search_string, identifier_kind, identifier_canonical, result_count, user_id, city, country, ip_hash from public.search_log where identifier_canonical = $1`,
      [`+63${marker.slice(1)}`],
    );
    expect(rows).toEqual([
      {
        search_string: marker,
        identifier_kind: 'mobile',
        identifier_canonical: `+63${marker.slice(1)}`,
        result_count: 0,
        user_id: null,
        city: null,
        country: null,
        ip_hash: null,
      },
    ]);
  });

  it('refuses bad input and changes nothing', async () => {
    const before = (await adminPool().query('select count(*)::int as n from public.search_log')).rows[0].n;
    await expect(checkIdentifiers(anon, { type: 'mobile' })).rejects.toThrow(/array/);
    await expect(
      checkIdentifiers(
        anon,
        Array.from({ length: 51 }, () => ({ type: 'mobile', value: '09171234567' })),
      ),
    ).rejects.toThrow(/at most 50/);
    await expect(checkIdentifiers(anon, [{ type: 'phone', value: '09171234567' }])).rejects.toThrow(/type/);
    await expect(checkIdentifiers(anon, [{ type: 'mobile', value: 'x'.repeat(257) }])).rejects.toThrow(/256/);
    await expect(checkIdentifiers(anon, ['09171234567'])).rejects.toThrow(/type/);
    expect((await adminPool().query('select count(*)::int as n from public.search_log')).rows[0].n).toBe(
      before,
    );
    expect(await checkIdentifiers(anon, [])).toEqual([]);
  });

  it("is limited per address by sec-abuse's limiter (check.ip), answering PostgREST's 429", async () => {
    const headers = {
      'x-forwarded-for': `203.0.113.${Math.floor(Math.random() * 200) + 1}, 8.8.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
    };
    const call = () =>
      withRole(
        adminPool(),
        { role: 'anon' },
        (c) => c.query(`select public.check_identifiers('[]'::jsonb)`),
        { headers, method: 'POST' },
      );
    const [{ max_calls }] = (
      await adminPool().query(`select max_calls from private.rate_limits where name = 'check.ip'`)
    ).rows;
    // a burst of max_calls passes (the bucket refills one call a second meanwhile), then PT429
    let err: { message: string; detail?: string } | null = null;
    let allowed = 0;
    while (!err && allowed <= 3 * max_calls) {
      err = await call().then(
        () => null,
        (e: { message: string; detail?: string }) => e,
      );
      if (!err) allowed++;
    }
    expect(allowed).toBeGreaterThanOrEqual(max_calls);
    expect(err).not.toBeNull();
    expect(JSON.parse(err!.message)).toMatchObject({
      code: 'PT429',
      message: expect.stringMatching(/Too many message checks/),
    });
    expect(JSON.parse(err!.detail!)).toMatchObject({
      status: 429,
      headers: { 'Retry-After': expect.any(String) },
    });
  });

  it('gives the canonical form the extraction computed, for every identifier of the corpus', async () => {
    const items = CORPUS.flatMap((m) => extractIdentifiers(m.text));
    for (let i = 0; i < items.length; i += 50) {
      const chunk = items.slice(i, i + 50);
      const rows = await checkIdentifiers(anon, lookupInput(chunk));
      expect(rows.map((r) => r.canonical)).toEqual(chunk.map((c) => c.canonical));
    }
    // and what the one-identifier search looks up for the written value is the same canonical form
    for (const item of items) {
      if (item.type === 'mobile' || item.type === 'email' || (item.type === 'crypto' && item.valid)) {
        const [{ c }] = await run<{ c: string }>(anon, 'select public.canonical_identifier_auto($1) as c', [
          item.value,
        ]);
        expect(c, item.value).toBe(item.canonical);
      }
    }
  });
});

describe('the corpus of realistic messages', () => {
  it('finds the identifiers and look-alikes each must yield (recall and precision printed)', async () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(60);
    let idExpected = 0;
    let idFound = 0;
    let idHits = 0;
    let laExpected = 0;
    let laFound = 0;
    let laHits = 0;
    const misses: string[] = [];
    for (const m of CORPUS) {
      const rows = await checkIdentifiers(anon, lookupInput(extractIdentifiers(m.text)));
      const { items, verdict } = checkMessage(m.text, rules, lookupsFrom(rows));
      const got = items.map((i) => i.canonical);
      const flagged = items
        .filter((i) => i.signals.some((s) => s.code === 'lookalike-brand'))
        .map((i) => i.host);
      idExpected += m.identifiers.length;
      idFound += got.length;
      idHits += m.identifiers.filter((x) => got.includes(x)).length;
      laExpected += m.lookalikes.length;
      laFound += flagged.length;
      laHits += m.lookalikes.filter((x) => flagged.includes(x)).length;
      const missed = m.identifiers.filter((x) => !got.includes(x));
      const extra = got.filter((x) => !m.identifiers.includes(x));
      const laMissed = m.lookalikes.filter((x) => !flagged.includes(x));
      const laExtra = flagged.filter((x) => !m.lookalikes.includes(x!));
      if (missed.length || extra.length || laMissed.length || laExtra.length)
        misses.push(
          `${m.text.slice(0, 60)}… missed ${JSON.stringify(missed)} extra ${JSON.stringify(extra)} look-alikes missed ${JSON.stringify(laMissed)} extra ${JSON.stringify(laExtra)}`,
        );
      // a brand's own website is never flagged, and a legitimate message is never called a danger
      // by a look-alike
      if (!m.scam) expect(flagged, m.text).toEqual([]);
      if (m.scam && m.lookalikes.length) expect(verdict.level, m.text).toBe('danger');
    }
    const pct = (a: number, b: number) => (b === 0 ? 1 : a / b);
    const figures = {
      messages: CORPUS.length,
      'identifier recall': pct(idHits, idExpected),
      'identifier precision': pct(idHits, idFound),
      'look-alike recall': pct(laHits, laExpected),
      'look-alike precision': pct(laHits, laFound),
    };
    console.log(
      `Corpus of ${CORPUS.length} messages: identifiers recall ${(figures['identifier recall'] * 100).toFixed(1)} % (${idHits}/${idExpected}), precision ${(figures['identifier precision'] * 100).toFixed(1)} % (${idHits}/${idFound}); look-alikes recall ${(figures['look-alike recall'] * 100).toFixed(1)} % (${laHits}/${laExpected}), precision ${(figures['look-alike precision'] * 100).toFixed(1)} % (${laHits}/${laFound})`,
    );
    if (misses.length) console.log(misses.join('\n'));
    expect(figures['identifier recall']).toBeGreaterThanOrEqual(0.95);
    expect(figures['identifier precision']).toBeGreaterThanOrEqual(0.95);
    expect(figures['look-alike recall']).toBeGreaterThanOrEqual(0.9);
    expect(figures['look-alike precision']).toBeGreaterThanOrEqual(0.95);
  });
});

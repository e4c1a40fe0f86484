/**
 * `npm run db:schema`: writes supabase/schema.sql from a fresh database built from every migration
 * (see catalogue.ts), on a throwaway Postgres of its own (data in .supabase-local/schema-<offset>,
 * port 25330 + STACK_PORT_OFFSET), so no running stack is needed or touched.
 *
 *   npm run db:schema            write supabase/schema.sql
 *   npm run db:schema -- --check exit 1 when supabase/schema.sql is not what the migrations build
 *   npm run db:schema -- --squash compare the old chain (git history) with the squashed files
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { LocalPostgres } from '@scamcheck/local-supabase';
import { ROOT_DIR } from '../../project/index.ts';
import {
  buildAndRead,
  compareBuilds,
  migrationFiles,
  oldChainFiles,
  renderSchema,
  SQUASH_BEFORE,
} from './catalogue.ts';

export const SCHEMA_FILE = path.join(ROOT_DIR, 'supabase', 'schema.sql');
const MIGRATIONS = path.join(ROOT_DIR, 'supabase', 'migrations');

async function main() {
  const mode = process.argv[2] ?? '';
  if (!['', '--check', '--squash'].includes(mode)) {
    console.error('usage: npm run db:schema [-- --check | -- --squash]');
    process.exit(2);
  }
  const offset = Number(process.env.STACK_PORT_OFFSET ?? 0);
  const port = 25330 + offset;
  const server = new LocalPostgres({
    dataDir: path.join(ROOT_DIR, '.supabase-local', `schema-${offset}`),
    port,
    host: '127.0.0.1',
    durable: false,
    log: (line) => console.log(line),
    verbose: false,
  });
  await server.start();
  const url = `postgresql://postgres:postgres@127.0.0.1:${port}/postgres`;
  try {
    if (mode === '--squash') {
      const old = await oldChainFiles(ROOT_DIR);
      if (typeof old === 'string') throw new Error(old);
      const a = await buildAndRead(url, old);
      const b = await buildAndRead(url, await migrationFiles(MIGRATIONS, (f) => f < SQUASH_BEFORE));
      const diffs = compareBuilds(a, b, 'old chain', 'squash');
      console.log(diffs.join('\n\n') || `equal: ${a.entries.length} entries`);
      process.exitCode = diffs.length ? 1 : 0;
      return;
    }
    const platform = await buildAndRead(url, []);
    const full = await buildAndRead(url, await migrationFiles(MIGRATIONS));
    const text = renderSchema(platform, full);
    if (mode === '--check') {
      const current = await fs.readFile(SCHEMA_FILE, 'utf8').catch(() => '');
      if (current !== text) {
        console.error('supabase/schema.sql is not what the migrations build: run `npm run db:schema`.');
        process.exitCode = 1;
      } else console.log('supabase/schema.sql is up to date.');
      return;
    }
    await fs.writeFile(SCHEMA_FILE, text);
    console.log(`Wrote supabase/schema.sql (${text.split('\n').length} lines).`);
  } finally {
    await server.stop();
  }
}

await main();

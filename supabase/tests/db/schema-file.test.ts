/**
 * supabase/schema.sql is what the migrations build: the test rebuilds it from every migration on a
 * fresh database of the test cluster and compares. When it fails, run `npm run db:schema` and commit.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { expect, it } from 'vitest';
import { ROOT_DIR } from '../../project/index.ts';
import { stackEnv } from '../helpers.ts';
import { buildAndRead, migrationFiles, renderSchema } from './catalogue.ts';

it('supabase/schema.sql is what the migrations build (else run `npm run db:schema`)', async () => {
  const url = stackEnv('DB_URL');
  const platform = await buildAndRead(url, []);
  const full = await buildAndRead(url, await migrationFiles(path.join(ROOT_DIR, 'supabase', 'migrations')));
  const built = renderSchema(platform, full);
  const committed = await fs.readFile(path.join(ROOT_DIR, 'supabase', 'schema.sql'), 'utf8');
  // Compared line by line so a failure shows the lines that differ, not two 5,000-line strings.
  expect(committed.split('\n'), 'supabase/schema.sql is stale: run `npm run db:schema`').toEqual(
    built.split('\n'),
  );
}, 240_000);

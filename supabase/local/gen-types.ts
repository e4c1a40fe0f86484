/**
 * `npm run db:types`: Supabase's own TypeScript generator, not a copy of it. `supabase gen types
 * typescript` runs the postgres-meta image with PG_META_GENERATE_TYPES=typescript, which introspects
 * the database and prints the types once; the same server ships in the `@supabase/postgres-meta` npm
 * package, so this runs it the same way against the local database. The output is kept as the
 * generator prints it (a project keeps its types file out of its formatter), so the file is what
 * `supabase gen types typescript` gives for a hosted project with the same migrations.
 */
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';

/** The PostgREST version hosted Supabase runs; the CLI passes the project's own. */
export const POSTGREST_VERSION = '13.0.5';

const generator = createRequire(import.meta.url).resolve('@supabase/postgres-meta/dist/server/server.js');

/** The TypeScript types of `schemas` in the database at `dbUrl`, as `supabase gen types` prints them. */
export async function generateTypes(dbUrl: string, schemas: string[] = ['public']): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [generator], {
    env: {
      PATH: process.env.PATH,
      PG_META_DB_URL: dbUrl,
      PG_META_GENERATE_TYPES: 'typescript',
      PG_META_GENERATE_TYPES_INCLUDED_SCHEMAS: schemas.join(','),
      PG_META_GENERATE_TYPES_DETECT_ONE_TO_ONE_RELATIONSHIPS: 'true',
      PG_META_POSTGREST_VERSION: POSTGREST_VERSION,
    },
    maxBuffer: 64 * 1024 * 1024,
    timeout: 120_000,
  });
  // The server prints the file with console.log, which adds one newline.
  return stdout.replace(/\n$/, '');
}

/**
 * The squashed migrations (the 20261122... domain files, named before SQUASH_BEFORE) build exactly the
 * schema the 39 migrations they replaced built: two fresh databases on the test cluster, one from the
 * old chain as git history holds it (commit OLD_CHAIN_COMMIT) and one from the squash, compared entry by
 * entry (catalogue.ts: tables, columns, constraints, indexes, policies, grants, function definitions,
 * triggers, views, types, comments, RLS, default privileges, role settings, publications) and by the rows
 * the migrations insert. Migrations added after the squash are applied to neither.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT_DIR } from '../../project/index.ts';
import { stackEnv } from '../helpers.ts';
import {
  buildAndRead,
  compareBuilds,
  migrationFiles,
  oldChainFiles,
  OLD_CHAIN_COMMIT,
  SQUASH_BEFORE,
} from './catalogue.ts';

const MIGRATIONS = path.join(ROOT_DIR, 'supabase', 'migrations');
const old = await oldChainFiles(ROOT_DIR);
if (typeof old === 'string')
  console.warn(`schema-squash.test.ts SKIPPED: ${old}. Fetch the history (git fetch --unshallow) to run it.`);

describe.skipIf(typeof old === 'string')(
  `the squashed migrations (old chain: ${OLD_CHAIN_COMMIT.slice(0, 7)})`,
  () => {
    const squash = migrationFiles(MIGRATIONS, (f) => f < SQUASH_BEFORE);

    it('build the schema and reference rows the 39 migrations they replace built', async () => {
      const chain = old as Exclude<typeof old, string>;
      expect(chain).toHaveLength(39);
      const files = await squash;
      expect(files.length).toBeGreaterThanOrEqual(8);
      const a = await buildAndRead(stackEnv('DB_URL'), chain);
      const b = await buildAndRead(stackEnv('DB_URL'), files);
      // Not vacuous: the old chain built its 90 functions, its tables and their rows.
      expect(a.entries.filter((e) => / 5 [a-z_]+\(.*\)$/.test(e.key)).length).toBeGreaterThanOrEqual(90);
      expect(a.rows.get('private.rate_limits')?.length).toBeGreaterThan(20);
      expect(compareBuilds(a, b, 'old chain', 'squash')).toEqual([]);
    }, 240_000);

    it('tells a changed function body, grant, comment or reference row apart (the comparison can fail)', async () => {
      const files = await squash;
      const base = await buildAndRead(stackEnv('DB_URL'), files);
      const changed = await buildAndRead(stackEnv('DB_URL'), [
        ...files,
        {
          name: 'changes',
          sql: `
          create or replace function private.request_role() returns text language plpgsql stable set search_path = ''
          as $$ begin return 'anon'; end $$;
          grant select on public.search_log to anon;
          comment on table public.brands is 'changed';
          update private.rate_limits set max_calls = max_calls + 1 where name = 'search.ip';
          alter role authenticator set pgrst.db_pre_request = 'private.something_else';`,
        },
      ]);
      const diffs = compareBuilds(base, changed).map((d) => d.split('\n')[0]);
      expect(diffs).toEqual(
        expect.arrayContaining([
          'differs: private 5 request_role()',
          'differs: public 4 search_log 9 grants',
          'differs: public 4 brands 0 comment 0000',
          'differs: ~ 9 settings role authenticator',
          expect.stringMatching(/^row only in old: private\.rate_limits .*"search\.ip"/),
          expect.stringMatching(/^row only in new: private\.rate_limits .*"search\.ip"/),
        ]),
      );
    }, 240_000);
  },
);

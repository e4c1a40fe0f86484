/**
 * A stack for rest-compare.ts: started from the source tree given as the first argument (this checkout or
 * a worktree of another revision), with the benchmark's table, at STACK_PORT_OFFSET. Tells its parent
 * the API URL and anon key over IPC and stops on SIGTERM. Another revision's stack is loaded from its
 * own files (supabase/local, the stack package's folder in every revision), without a project adapter.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { benchTableSql } from './load.ts';

const root = path.resolve(process.argv[2] ?? '.');
const from = (file: string) => import(pathToFileURL(path.join(root, file)).href);
const { testConfig } = (await from('supabase/local/config.ts')) as typeof import('@scamcheck/local-supabase');
const { startStack } = (await from('supabase/local/stack.ts')) as typeof import('@scamcheck/local-supabase');
const config = testConfig({ withApp: false, verbose: false });
await fs.rm(config.dataDir, { recursive: true, force: true });
const stack = await startStack(config, (line) => {
  if (/error|fail/i.test(line)) console.log(line);
});
const admin = new pg.Pool({ connectionString: stack.env.DB_URL, max: 1 });
await admin.query(benchTableSql(process.env.BENCH_TABLE ?? 'bench_items', 10_000));
await admin.end();
process.once('SIGTERM', () => {
  void stack.stop().then(() => process.exit(0));
});
process.send!({ apiUrl: stack.env.API_URL, anonKey: stack.env.ANON_KEY });

/**
 * Scale benchmark of the database (issue 4): fills the reports table with generate_series and measures,
 * at each size, the search entry point, the per-user stats and the admin counters with EXPLAIN ANALYZE.
 *
 *   npm run bench:db                       # 100k and 1M reports
 *   npm run bench:db -- --10m              # also 10M (or BENCH_10M=1); needs ~5 GB of disk and time
 *   BENCH_SIZES=100000,300000 npm run bench:db
 *   BENCH_QUIET_WRAPPER="<command prefix>" npm run bench:db -- --10m
 *   BENCH_BEFORE=<rev>:<migration file> npm run bench:db   # public_statistics before/after, interleaved
 *
 * Filling is not measured: it runs in a database backend at the lowest CPU priority (nice 19, no
 * parallel workers), so a long 10M load does not crowd the machine. Each size's measurements run
 * while a child started as `BENCH_QUIET_WRAPPER node ...` lives, if the variable is set: a shared
 * machine's lock that waits for a quiet moment (for example `quiet-run <name>`) is held for the
 * measurements only, not for the load.
 *
 * Runs its own embedded Postgres on the test ports shifted by STACK_PORT_OFFSET (+ 50) with a data
 * folder of its own, built from the migrations (no seed). Targets: search is an index lookup on
 * reported_account_canonical, executes in under 1 ms at 1M and at most 1.5x slower at 10M than at
 * 100k; user_report_stats and admin_app_stats execute in under 5 ms at 1M; every query of the
 * /statistics page (public_statistics for each period, and search_top_identifier behind the
 * most-reported list's links) executes in under 5 ms at 1M and at 10M; the admins' review workspace
 * (issue 31: admin_review_queue oldest first, most reported, by identifier search, by each filter and all
 * of them at once; a reporter's history; the removal queue; the decision log; the user list and its
 * search and report-count filter) and the admins' search-history and visitors lists (admin_search_log, admin_visitor_log: the
 * first page, a later page, each search and filter; the logs hold as many rows as the reports table, at
 * most 1M) execute in under 10 ms at 1M. Exits 1 when a target is missed.
 *
 * BENCH_BEFORE names an earlier definition of public_statistics (a migration file, as `<path>` or
 * `<git revision>:<path>`): it is created beside the current one as private.bench_public_statistics_before
 * and both are timed in one run, one call of each in turn, so the machine's load weighs on both alike.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import {
  applyMigrations,
  applyPlatform,
  startDatabase,
  testConfig,
  testPorts,
  withRole,
} from '@scamcheck/local-supabase';
import { ROOT_DIR } from '../../supabase/project/index.ts';

const USERS = 1000;
/** Reports on the identifier we search for: the same at every size, so only the table grows. */
const HOT_REPORTS = 30;
const HOT_ACCOUNT = '0917 555 0100';
const HOT_CANONICAL = '+639175550100';
const RUNS = 200;

const want10m = process.argv.includes('--10m') || process.env.BENCH_10M === '1';
const sizes = (process.env.BENCH_SIZES ?? `100000,1000000${want10m ? ',10000000' : ''}`)
  .split(',')
  .map((s) => Number(s.trim()))
  .filter((n) => n > 0)
  .sort((a, b) => a - b);

const log = (line: string) => console.log(line);
const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}
function p95(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * 0.95))];
}

/**
 * Execution Time of EXPLAIN ANALYZE as the given JWT role, `runs` times, each in its own transaction as
 * API requests are (one long transaction would make every search update the same counter row again
 * and again, a chain of row versions no real request sees).
 */
async function execTimes(
  pool: pg.Pool,
  claims: { role: string; sub?: string },
  sql: string,
  params: unknown[],
  runs = RUNS,
) {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const { rows } = await withRole(pool, claims, (c) =>
      c.query(`explain (analyze, format json) ${sql}`, params),
    );
    times.push(rows[0]['QUERY PLAN'][0]['Execution Time'] as number);
  }
  return times;
}

/**
 * The plans of every statement `sql` runs inside its functions (auto_explain, nested statements, with
 * ANALYZE), once, as the given JWT role: BENCH_PLANS=1 prints them for the workspace's queries, to see
 * which index each filter uses. The connection is discarded afterwards (the settings stay on it).
 */
async function nestedPlans(
  pool: pg.Pool,
  claims: { role: string; sub?: string },
  sql: string,
  params: unknown[],
) {
  const client = await pool.connect();
  const notes: string[] = [];
  client.on('notice', (n) => notes.push(n.message ?? ''));
  try {
    await client.query(`load 'auto_explain'`);
    for (const setting of [
      'auto_explain.log_min_duration = 0',
      'auto_explain.log_nested_statements = on',
      'auto_explain.log_analyze = on',
      'auto_explain.log_buffers = off',
      'auto_explain.log_level = notice',
    ])
      await client.query(`set ${setting}`);
    await client.query('begin');
    await client.query(
      `select set_config('role', $1, true), set_config('request.jwt.claims', $2, true),
              set_config('request.jwt.claim.sub', $3, true)`,
      [claims.role, JSON.stringify(claims), claims.sub ?? ''],
    );
    await client.query(sql, params);
    await client.query('rollback');
  } finally {
    client.release(true);
  }
  return notes;
}

/**
 * Runs `fn` while a child started under BENCH_QUIET_WRAPPER (a command prefix) is alive: the child
 * says "ready" once the wrapper has let it start and exits when its stdin closes. Without the
 * variable, runs `fn` at once.
 */
async function inQuietWindow<T>(fn: () => Promise<T>): Promise<T> {
  const wrapper = process.env.BENCH_QUIET_WRAPPER?.trim();
  if (!wrapper) return fn();
  const hold = `console.log('ready'); process.stdin.on('end', () => process.exit(0)); process.stdin.resume();`;
  const [cmd, ...args] = [...wrapper.split(/\s+/), process.execPath, '-e', hold];
  const child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
    child.on('exit', (code) => reject(new Error(`${wrapper} ended (${code}) before the measurements`)));
  });
  try {
    return await fn();
  } finally {
    child.stdin.end();
    await new Promise((resolve) => child.on('exit', resolve));
  }
}

/**
 * The `create or replace function public.public_statistics` statement of BENCH_BEFORE (a migration file
 * at `<path>` or `<git revision>:<path>`), renamed to private.bench_public_statistics_before.
 */
async function beforeDefinition(spec: string): Promise<string> {
  const text = spec.includes(':')
    ? execFileSync('git', ['show', spec], { cwd: ROOT_DIR, encoding: 'utf8' })
    : await fs.readFile(path.resolve(ROOT_DIR, spec), 'utf8');
  const match = /create (or replace )?function public\.public_statistics\(/.exec(text);
  const start = match ? match.index : -1;
  const end = start < 0 ? -1 : text.indexOf('\n$$;', start);
  if (start < 0 || end < 0) throw new Error(`${spec} does not define public.public_statistics`);
  return text
    .slice(start, end + 4)
    .replace(
      /create (or replace )?function public\.public_statistics\(/,
      'create function private.bench_public_statistics_before(',
    );
}

/** Times `a` and `b` (EXPLAIN ANALYZE as anon), one call of each in turn, `runs` times each. */
async function interleaved(pool: pg.Pool, a: string, b: string, params: unknown[], runs: number) {
  const times: [number[], number[]] = [[], []];
  for (let i = 0; i < runs; i++) {
    for (const [k, sql] of [a, b].entries()) {
      const { rows } = await withRole(pool, { role: 'anon' }, (c) =>
        c.query(`explain (analyze, format json) ${sql}`, params),
      );
      times[k].push(rows[0]['QUERY PLAN'][0]['Execution Time'] as number);
    }
  }
  return times;
}

/** Adds reports until the table holds `target` rows (triggers off; rollups rebuilt afterwards). */
async function fillTo(pool: pg.Pool, target: number) {
  const { rows } = await pool.query<{ n: number }>('select count(*)::int as n from public.reports');
  const from = rows[0].n;
  if (from >= target) return;
  const client = await pool.connect();
  // The load is not measured: its backend runs at the lowest CPU priority, without parallel workers
  // (they would be other processes, at normal priority).
  const {
    rows: [{ pid }],
  } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
  const lowered = trySetPriority(pid, 19);
  try {
    await client.query('set max_parallel_maintenance_workers = 0');
    await client.query('set max_parallel_workers_per_gather = 0');
    // Bulk load as the owner with triggers off: the canonical form is written directly (the generator
    // produces it), and the rollups are rebuilt in one pass afterwards.
    await client.query(`set session_replication_role = replica`);
    // Secondary indexes are rebuilt after the load (a sorted build beats millions of random inserts);
    // ids grow with g so the primary key is appended at its right edge.
    const indexes = (
      await client.query<{ def: string; name: string }>(
        `select indexname as name, indexdef as def from pg_indexes
         where schemaname = 'public' and tablename = 'reports' and indexname <> 'reports_pkey'`,
      )
    ).rows;
    for (const i of indexes) await client.query(`drop index public.${i.name}`);
    const chunk = 1_000_000;
    for (let start = from + 1; start <= target; start += chunk) {
      const end = Math.min(target, start + chunk - 1);
      await client.query(
        `with users as (select array_agg(id order by n) as ids from private.bench_users)
         insert into public.reports (id, reporter_id, incident_date, incident_type, reported_account_type, reported_account,
                                     reported_account_canonical, consent_to_contact, incident_description, location, loc,
                                     country, status, source, amount_lost, created_at, updated_at)
         select ('00000000-0000-4000-8000-' || lpad(to_hex(g), 12, '0'))::uuid, users.ids[1 + g % ${USERS}],
                (t.created_at - interval '3 days')::date,
                (array['scam', 'hacked', 'spam'])[1 + g % 3]::public.incident_type,
                (array['mobile', 'mobile', 'email', 'ewallet', 'crypto', 'website', 'mobile'])[1 + g % 7]::public.reported_account_type,
                '09' || t.num, '+639' || t.num, g % 2 = 0, 'Generated report ' || g, 'Quezon City',
                -- spread over regions (statistics); the location has no bearing on the search
                (array['14.6760,121.0437', '10.3157,123.8854', '7.1907,125.4553', '10.7202,122.5621', '16.4023,120.5960'])[1 + g % 5],
                'PH',
                (array['verified', 'pending', 'verified', 'rejected', 'verified', 'removed'])[1 + g % 6]::public.report_status,
                'bench', (g % 1000) * 10, t.created_at, t.created_at
         from users, generate_series($1::bigint, $2::bigint) as g
         cross join lateral (
           -- about two reports per identifier; 548 days of history
           select lpad(((g * 2654435761) % greatest(${target} / 2, 1000))::text, 9, '0') as num,
                  now() - ((g * 7919) % (548 * 86400)) * interval '1 second' as created_at
         ) t`,
        [start, end],
      );
    }
    await client.query(`set maintenance_work_mem = '512MB'`);
    for (const i of indexes) await client.query(i.def);
    await client.query(`set session_replication_role = origin`);
    await client.query('select private.rebuild_rollups()');
    await client.query('select private.rebuild_reporter_counts()');
    await client.query('select private.rebuild_public_statistics()');
    await client.query('vacuum analyze public.reports');
  } finally {
    if (lowered) trySetPriority(pid, 0);
    client.release();
  }
}

/** The admins' search-history and visitors lists are measured at this many rows each (at most). */
const LOG_ROWS_MAX = 1_000_000;

/**
 * Adds rows to the search and visitor logs until each holds `target` (triggers off; secondary indexes
 * dropped and rebuilt around the load, as for the reports): searches for about target/4 identifiers of
 * three kinds (a quarter found nothing), visits to a dozen paths, both from a few places and countries
 * over 548 days.
 */
async function fillLogs(pool: pg.Pool, target: number) {
  const client = await pool.connect();
  const {
    rows: [{ pid }],
  } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
  const lowered = trySetPriority(pid, 19);
  try {
    await client.query('set max_parallel_maintenance_workers = 0');
    await client.query('set max_parallel_workers_per_gather = 0');
    await client.query(`set session_replication_role = replica`);
    await client.query(`set maintenance_work_mem = '512MB'`);
    for (const table of ['search_log', 'visitor_log']) {
      const {
        rows: [{ n: from }],
      } = await client.query<{ n: number }>(`select count(*)::int as n from public.${table}`);
      if (from >= target) continue;
      const indexes = (
        await client.query<{ def: string; name: string }>(
          `select indexname as name, indexdef as def from pg_indexes
           where schemaname = 'public' and tablename = $1 and indexname <> $1 || '_pkey'`,
          [table],
        )
      ).rows;
      for (const i of indexes) await client.query(`drop index public.${i.name}`);
      const place = `(array['Quezon City', 'Cebu City', 'Davao City', 'Iloilo City', 'Baguio', 'Singapore', 'Los Angeles'])[1 + g % 7]`;
      const region = `(array['Metro Manila', 'Central Visayas', 'Davao Region', 'Western Visayas', 'Cordillera', null, 'California'])[1 + g % 7]`;
      const country = `(array['PH', 'PH', 'PH', 'PH', 'PH', 'SG', 'US'])[1 + g % 7]`;
      const when = `now() - ((g * 7919) % (548 * 86400)) * interval '1 second'`;
      if (table === 'search_log')
        await client.query(
          `insert into public.search_log (search_string, identifier_kind, identifier_canonical, result_count, user_id,
                                          city, region, country, created_at)
           select case g % 3 when 0 then '0' || t.num when 1 then 'user' || t.num || '@mail.test' else 'shop' || t.num || '.test' end,
                  (array['mobile', 'email', 'website'])[1 + g % 3],
                  case g % 3 when 0 then '+63' || t.num when 1 then 'user' || t.num || '@mail.test' else 'shop' || t.num || '.test' end,
                  case when g % 4 = 0 then 0 else g % 9 end,
                  null, ${place}, ${region}, ${country}, ${when}
           from generate_series($1::bigint, $2::bigint) g
           cross join lateral (select '9' || lpad(((g * 2654435761) % greatest($2::bigint / 4, 1000))::text, 9, '0') as num) t`,
          [from + 1, target],
        );
      else
        await client.query(
          `insert into public.visitor_log (path, city, region, country, created_at)
           select (array['/', '/search', '/report', '/statistics', '/about', '/contact', '/dashboard',
                         '/dashboard/all-reports', '/check', '/tips', '/privacy', '/login'])[1 + g % 12]
                  || case when g % 12 = 1 then '?q=0' || (900000000 + g % 100000) else '' end,
                  ${place}, ${region}, ${country}, ${when}
           from generate_series($1::bigint, $2::bigint) g`,
          [from + 1, target],
        );
      for (const i of indexes) await client.query(i.def);
      await client.query(`vacuum analyze public.${table}`);
    }
    await client.query(`set session_replication_role = origin`);
  } finally {
    if (lowered) trySetPriority(pid, 0);
    client.release();
  }
}

/** Sets a process's CPU priority; false when not allowed (raising it back needs root). */
function trySetPriority(pid: number, priority: number): boolean {
  try {
    os.setPriority(pid, priority);
    return true;
  } catch {
    return false;
  }
}

async function main() {
  const offset = Number(process.env.STACK_PORT_OFFSET ?? 0) + 50;
  const config = testConfig({
    dbPort: testPorts(offset).dbPort,
    dataDir: path.join(ROOT_DIR, '.supabase-local', `bench-${offset}`),
    databaseUrl: process.env.BENCH_DATABASE_URL || undefined,
    verbose: false,
  });
  if (!config.databaseUrl) await fs.rm(config.dataDir, { recursive: true, force: true });
  const db = await startDatabase(config, log);
  const { pool } = db;
  const results: Record<string, number | string>[] = [];
  let failed = false;
  try {
    const t0 = process.hrtime.bigint();
    await applyPlatform(pool);
    await applyMigrations(pool, () => undefined);
    const before = process.env.BENCH_BEFORE?.trim();
    if (before) {
      // Owned by postgres and security definer like the original; anon may call it for the timing only.
      await pool.query(await beforeDefinition(before));
      await pool.query('grant execute on function private.bench_public_statistics_before(text) to anon');
      await pool.query('grant usage on schema private to anon');
    }
    log(
      `Schema ready in ${(ms(t0) / 1000).toFixed(1)} s. Sizes: ${sizes.map((s) => s.toLocaleString('en')).join(', ')}`,
    );

    // Reporters: real auth users (profiles come from the trigger); one of them files the hot reports.
    await pool.query(`create table private.bench_users (n int primary key, id uuid not null)`);
    await pool.query(
      `with u as (
         insert into auth.users (id, aud, role, email, created_at, updated_at)
         select gen_random_uuid(), 'authenticated', 'authenticated', 'bench' || n || '@bench.local', now(), now()
         from generate_series(0, ${USERS - 1}) n returning id, email)
       insert into private.bench_users select substring(email from 'bench(\\d+)@')::int, id from u`,
    );
    const {
      rows: [admin],
    } = await pool.query(`select id from private.bench_users where n = 0`);
    await pool.query('select private.grant_admin($1)', [admin.id]);
    const {
      rows: [user],
    } = await pool.query(`select id from private.bench_users where n = 1`);
    await pool.query(
      `insert into public.reports (reporter_id, incident_date, incident_type, reported_account_type, reported_account, status, loc, country, amount_lost, created_at)
       select $1, current_date - g, 'scam', 'mobile', $2, case when g % 3 = 0 then 'verified' else 'pending' end::public.report_status,
              '14.' || g || ',121.' || g, 'PH', 1000, now() - g * interval '5 days'
       from generate_series(1, ${HOT_REPORTS}) g`,
      [user.id, HOT_ACCOUNT],
    );

    for (const size of sizes) {
      const tf = process.hrtime.bigint();
      await fillTo(pool, size);
      await fillLogs(pool, Math.min(size, LOG_ROWS_MAX));
      const fillSeconds = ms(tf) / 1000;
      const {
        rows: [sz],
      } = await pool.query(`select pg_size_pretty(pg_total_relation_size('public.reports')) as s`);

      // Measured in a quiet window when BENCH_QUIET_WRAPPER is set (the load above is not).
      await inQuietWindow(async () => {
        const anon = { role: 'anon' };
        const search = await execTimes(pool, anon, 'select public.search_reports($1)', [HOT_ACCOUNT]);
        const { rows: planRows } = await pool.query(
          `explain (analyze, buffers, costs off) select r.id from public.reports r
           where r.reported_account_canonical = $1 and r.status in ('pending', 'verified') order by r.created_at desc`,
          [HOT_CANONICAL],
        );
        const plan = planRows.map((r) => r['QUERY PLAN'] as string);
        const lookup = median(
          await execTimes(
            pool,
            { role: 'postgres' },
            `select r.id from public.reports r where r.reported_account_canonical = $1 and r.status in ('pending', 'verified') order by r.created_at desc`,
            [HOT_CANONICAL],
            50,
          ),
        );
        const userClaims = { role: 'authenticated', sub: user.id as string };
        const stats = await execTimes(pool, userClaims, 'select public.user_report_stats()', []);
        const heavy = await pool.query(`select id from private.bench_users where n = 7`);
        const heavyStats = await execTimes(
          pool,
          { role: 'authenticated', sub: heavy.rows[0].id as string },
          'select public.user_report_stats()',
          [],
        );
        const adminStats = await execTimes(
          pool,
          { role: 'authenticated', sub: admin.id as string },
          'select public.admin_app_stats()',
          [],
        );
        // The scheduled job (medians, top identifiers) runs first, as it would have within the hour.
        const tj = process.hrtime.bigint();
        await pool.query('select public.refresh_public_statistics()');
        const jobMs = ms(tj);
        const publicStats: Record<string, number[]> = {};
        for (const period of ['last_30_days', 'last_12_months', 'all_time']) {
          publicStats[period] = await execTimes(
            pool,
            anon,
            'select public.public_statistics($1)',
            [period],
            100,
          );
        }
        const compared: string[] = [];
        if (before) {
          for (const period of ['last_30_days', 'last_12_months', 'all_time']) {
            const [old, now] = await interleaved(
              pool,
              'select private.bench_public_statistics_before($1)',
              'select public.public_statistics($1)',
              [period],
              100,
            );
            compared.push(
              `${period} before ${median(old).toFixed(3)} ms (p95 ${p95(old).toFixed(3)}), now ${median(now).toFixed(3)} ms (p95 ${p95(now).toFixed(3)}), ${(median(old) / median(now)).toFixed(1)}x`,
            );
          }
        }
        const {
          rows: [top],
        } = await pool.query(`select ref from private.stats_top_identifiers order by rank limit 1`);
        const topSearch = top
          ? await execTimes(pool, anon, 'select public.search_top_identifier($1)', [top.ref], 100)
          : [];
        // The review workspace (issue 31), as the admin's screen asks for it, and the admins' lists.
        const {
          rows: [{ canonical: rareSearch }],
        } = await pool.query<{ canonical: string }>(
          `select identifier_canonical as canonical from public.search_log
           where identifier_kind = 'mobile' order by created_at desc limit 1`,
        );
        const adminClaims = { role: 'authenticated', sub: admin.id as string };
        type Call = [string, { role: string; sub?: string }, string, unknown[]];
        const workspaceCalls: Call[] = [
          ['queue oldest', adminClaims, 'select public.admin_review_queue()', []],
          [
            'queue most reported',
            adminClaims,
            `select public.admin_review_queue(sort => 'most_reported')`,
            [],
          ],
          ['queue search', adminClaims, 'select public.admin_review_queue(search => $1)', ['09175550100']],
          [
            'queue with evidence',
            adminClaims,
            'select public.admin_review_queue(has_evidence => false, incident_type => $1)',
            ['scam'],
          ],
          ['removal queue', adminClaims, 'select public.admin_removal_queue()', []],
          ['decision log', adminClaims, 'select public.admin_moderation_log()', []],
          ['users', adminClaims, 'select * from public.admin_users()', []],
          ['users search', adminClaims, 'select * from public.admin_users(search => $1)', ['bench7']],
          ['users by report count', adminClaims, 'select * from public.admin_users(min_reports => $1)', [1]],
          [
            'queue by account type, oldest',
            adminClaims,
            'select public.admin_review_queue(account_type => $1)',
            ['email'],
          ],
          [
            'queue waiting 30+ days, most reported',
            adminClaims,
            `select public.admin_review_queue(min_age_days => 30, sort => 'most_reported')`,
            [],
          ],
          ['queue by region', adminClaims, 'select public.admin_review_queue(region => $1)', ['quezon']],
          [
            'queue all filters',
            adminClaims,
            `select public.admin_review_queue(incident_type => 'scam', account_type => 'mobile', min_age_days => 7,
                                              has_evidence => false, region => 'ph', sort => 'most_reported')`,
            [],
          ],
          // One report's reporter history (the queue asks it for each report it shows): the busiest reporter.
          [
            'reporter history',
            { role: 'postgres' },
            'select private.reporter_history($1)',
            [heavy.rows[0].id as string],
          ],
          ['searches', adminClaims, 'select * from public.admin_search_log()', []],
          [
            'searches, page 2',
            adminClaims,
            `select * from public.admin_search_log(before_created_at => now() - interval '200 days',
                                                   before_id => 'ffffffff-ffff-4fff-bfff-ffffffffffff')`,
            [],
          ],
          [
            'searches by text',
            adminClaims,
            'select * from public.admin_search_log(search => $1)',
            ['@mail.test'],
          ],
          [
            'searches by identifier',
            adminClaims,
            'select * from public.admin_search_log(search => $1)',
            [`0${rareSearch.slice(3)}`],
          ],
          [
            'searches, no results in PH, a month',
            adminClaims,
            `select * from public.admin_search_log(kind => 'mobile', country_code => 'ph', no_results => true,
                                                   since => now() - interval '60 days', until => now() - interval '30 days')`,
            [],
          ],
          [
            'searches, rare country',
            adminClaims,
            'select * from public.admin_search_log(country_code => $1)',
            ['JP'],
          ],
          ['visitors', adminClaims, 'select * from public.admin_visitor_log()', []],
          [
            'visitors by path',
            adminClaims,
            'select * from public.admin_visitor_log(search => $1)',
            ['q=0900012345'],
          ],
          [
            'visitors by place, a week',
            adminClaims,
            `select * from public.admin_visitor_log(place => 'visayas', since => now() - interval '7 days')`,
            [],
          ],
          [
            'visitors by country',
            adminClaims,
            'select * from public.admin_visitor_log(country_code => $1)',
            ['sg'],
          ],
        ];
        const workspace: Record<string, number[]> = {};
        for (const [name, claims, sql, params] of workspaceCalls)
          workspace[name] = await execTimes(pool, claims, sql, params, 30);
        if (process.env.BENCH_PLANS === '1') {
          for (const [name, claims, sql, params] of workspaceCalls) {
            const notes = await nestedPlans(pool, claims, sql, params);
            log(`  plans of ${name}:\n    ${notes.join('\n').replace(/\n/g, '\n    ')}`);
          }
        }
        const {
          rows: [check],
        } = await withRole(pool, anon, (c) =>
          c.query(`select (public.search_reports($1)->>'count')::int as n`, [HOT_ACCOUNT]),
        );

        const row = {
          reports: size.toLocaleString('en'),
          'fill s': fillSeconds.toFixed(1),
          'table+indexes': sz.s as string,
          'search ms (median)': median(search).toFixed(3),
          'search ms (p95)': p95(search).toFixed(3),
          'index lookup ms': lookup.toFixed(3),
          'user stats ms': median(stats).toFixed(3),
          'user stats, busiest reporter ms': median(heavyStats).toFixed(3),
          'admin stats ms': median(adminStats).toFixed(3),
          'public stats 30d ms': median(publicStats.last_30_days).toFixed(3),
          'public stats 12m ms': median(publicStats.last_12_months).toFixed(3),
          'public stats all ms': median(publicStats.all_time).toFixed(3),
          'top identifier search ms': topSearch.length ? median(topSearch).toFixed(3) : 'none',
          'stats job s': (jobMs / 1000).toFixed(2),
          'workspace slowest ms': Math.max(...Object.values(workspace).map(median)).toFixed(3),
          'hot count': check.n as number,
        };
        results.push(row);
        log(`\n${size.toLocaleString('en')} reports (filled in ${fillSeconds.toFixed(1)} s):`);
        log(
          `  search_reports execution: median ${row['search ms (median)']} ms, p95 ${row['search ms (p95)']} ms`,
        );
        log(`  core lookup plan:\n    ${plan.join('\n    ')}`);
        log(
          `  user_report_stats ${row['user stats ms']} ms (a reporter with ${Math.round(size / USERS)} reports: ${row['user stats, busiest reporter ms']} ms), admin_app_stats ${row['admin stats ms']} ms`,
        );

        // What public_statistics reads: rollup rows per day, week or month, as many at 100k reports as at 10M.
        const {
          rows: [rollups],
        } = await pool.query(
          `select (select count(*) from private.stats_periods)::int as periods,
                  (select count(*) from private.stats_monthly)::int as monthly,
                  (select count(*) from private.stats_daily)::int as daily,
                  (select count(*) from private.stats_region_monthly)::int as region_monthly`,
        );
        log(
          `  rollup rows public_statistics reads from: stats_periods ${rollups.periods}, stats_monthly ${rollups.monthly}, stats_daily ${rollups.daily} (30 days of it), stats_region_monthly ${rollups.region_monthly}`,
        );
        log(
          `  public_statistics: last 30 days ${row['public stats 30d ms']} ms (p95 ${p95(publicStats.last_30_days).toFixed(3)}), 12 months ${row['public stats 12m ms']} ms (p95 ${p95(publicStats.last_12_months).toFixed(3)}), all time ${row['public stats all ms']} ms (p95 ${p95(publicStats.all_time).toFixed(3)}); scheduled job ${row['stats job s']} s`,
        );
        if (compared.length)
          log(`  public_statistics against ${before}, interleaved:\n    ${compared.join('\n    ')}`);
        log(
          topSearch.length
            ? `  search_top_identifier (a most-reported list link): ${row['top identifier search ms']} ms (p95 ${p95(topSearch).toFixed(3)})`
            : '  FAIL: no most-reported identifier to search',
        );
        if (!topSearch.length) failed = true;
        log(
          `  review workspace (median, p95 ms): ${Object.entries(workspace)
            .map(([k, t]) => `${k} ${median(t).toFixed(3)}/${p95(t).toFixed(3)}`)
            .join(', ')}`,
        );
        const slowWorkspace = Object.entries(workspace).filter(([, t]) => median(t) >= 10);
        if (size >= 1_000_000 && size < 10_000_000 && slowWorkspace.length) {
          log(`  FAIL: not under 10 ms at 1M: ${slowWorkspace.map(([k]) => k).join(', ')}`);
          failed = true;
        }
        if (size >= 1_000_000 && Object.values(publicStats).some((t) => median(t) >= 5)) {
          log('  FAIL: public_statistics is not under 5 ms');
          failed = true;
        }
        if (size >= 1_000_000 && topSearch.length && median(topSearch) >= 5) {
          log('  FAIL: search_top_identifier is not under 5 ms');
          failed = true;
        }
        if (
          !plan.some((l) =>
            /Index (Only )?Scan.*reports_canonical_created_at_idx|Bitmap Index Scan on reports_canonical_created_at_idx/.test(
              l,
            ),
          )
        ) {
          log('  FAIL: the search is not an index lookup on reported_account_canonical');
          failed = true;
        }
        if (check.n !== HOT_REPORTS) {
          log(`  FAIL: search found ${check.n} reports, expected ${HOT_REPORTS}`);
          failed = true;
        }
        if (size >= 1_000_000 && size < 10_000_000) {
          if (median(search) >= 1) {
            log('  FAIL: search execution is not under 1 ms at 1M');
            failed = true;
          }
          if (median(stats) >= 5 || median(heavyStats) >= 5 || median(adminStats) >= 5) {
            log('  FAIL: stats are not under 5 ms at 1M');
            failed = true;
          }
        }
      });
    }
    const small = results.find((r) => r.reports === (100_000).toLocaleString('en'));
    const big = results.find((r) => r.reports === (10_000_000).toLocaleString('en'));
    if (small && big) {
      const ratio = Number(big['search ms (median)']) / Number(small['search ms (median)']);
      log(`\nsearch at 10M / at 100k: ${ratio.toFixed(2)}x (target <= 1.5x)`);
      if (ratio > 1.5) failed = true;
    }
    console.log('');
    console.table(results);
  } finally {
    await db.stop();
    if (!config.databaseUrl) await fs.rm(config.dataDir, { recursive: true, force: true });
  }
  if (failed) {
    console.error('Some targets were missed.');
    process.exit(1);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});

/**
 * `npm run check:sql-mutation`: one-line mutations of the SQL rules (risk constants, half-life,
 * pending weight, thresholds, the removal window, notification and row-level security conditions),
 * each applied alone to a scratch copy of the project, whose database the stack rebuilds from the
 * mutated migrations; the database tests then run against it. A mutation is caught when a test fails.
 *
 * Each mutation names the object it changes (`after`, a line that starts its definition, written as
 * `create function ...`; a `create or replace function ...` line of the same function matches too) and
 * the text to replace on the first line at or below it; the LAST migration that defines it is mutated,
 * since a later migration that redefines a function replaces the earlier one. A mutation whose text
 * is not found there is reported as stale, never counted as caught.
 *
 * Usage: npm run check:sql-mutation [-- [--dry-run] <name filter> ...]   (STACK_PORT_OFFSET defaults to 650)
 * --dry-run prints the file and line each mutation changes, and runs no tests.
 */
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

interface Mutation {
  name: string;
  after: string;
  from: string;
  to: string;
}

// The search and its risk (private.search_reports; the public wrappers only pass the caller and the
// visitor), the weight of an identifier's reports, the message check's own risk and labels.
const SEARCH = 'create function private.search_reports(';
const WEIGHT = 'create function private.identifier_weight(';
const CHECK = 'create function public.check_identifiers(';
const EXPIRE = 'create function public.expire_removal_requests(';
// The range lookup's entries (public.range_lookup and the batched call read them from here).
const RANGE = 'create function private.range_entries(';
const RANGE_MANY = 'create function public.range_lookup_limited_many(';

export const MUTATIONS: Mutation[] = [
  { name: 'risk half-life 180 -> 90 days', after: WEIGHT, from: '(86400.0 * 180.0)', to: '(86400.0 * 90.0)' },
  {
    name: 'pending weight 0.2 -> 1',
    after: WEIGHT,
    from: 'else 0.2::float8 end',
    to: 'else 1.0::float8 end',
  },
  {
    name: 'pending weight 0.2 -> 0',
    after: WEIGHT,
    from: 'else 0.2::float8 end',
    to: 'else 0.0::float8 end',
  },
  {
    name: 'verified weight 1 -> 0.8',
    after: WEIGHT,
    from: 'then 1.0::float8 else',
    to: 'then 0.8::float8 else',
  },
  {
    name: "one reporter's reports summed, not counted once",
    after: WEIGHT,
    from: 'group by coalesce(r.reporter_id, r.id)',
    to: 'group by r.id',
  },
  {
    name: 'reports whose reporter is gone merged into one reporter',
    after: WEIGHT,
    from: 'group by coalesce(r.reporter_id, r.id)',
    to: 'group by r.reporter_id',
  },
  {
    name: 'a reporter weighs as their weakest report',
    after: WEIGHT,
    from: 'select max(case',
    to: 'select min(case',
  },
  {
    name: 'risk weight counts rejected reports',
    after: WEIGHT,
    from: "r.status in ('pending', 'verified')",
    to: "r.status in ('pending', 'verified', 'rejected')",
  },
  {
    name: 'risk exp(-w / 2) -> exp(-w / 3)',
    after: SEARCH,
    from: 'exp(-v_weight / 2)',
    to: 'exp(-v_weight / 3)',
  },
  {
    name: 'risk rounded -> truncated',
    after: SEARCH,
    from: 'v_risk := round(100 *',
    to: 'v_risk := trunc(100 *',
  },
  { name: "'high' from 60 -> 61", after: SEARCH, from: 'v_risk >= 60', to: 'v_risk >= 61' },
  { name: "'high' from 60 -> above 60", after: SEARCH, from: 'v_risk >= 60', to: 'v_risk > 60' },
  { name: "'medium' from 25 -> 24", after: SEARCH, from: 'v_risk >= 25', to: 'v_risk >= 24' },
  { name: "'medium' from 25 -> above 25", after: SEARCH, from: 'v_risk >= 25', to: 'v_risk > 25' },
  {
    name: 'search count includes rejected reports',
    after: SEARCH,
    from: "and r.status in ('pending', 'verified');",
    to: "and r.status in ('pending', 'verified', 'rejected');",
  },
  {
    name: 'amount lost counts pending reports',
    after: SEARCH,
    from: "filter (where r.status = 'verified')",
    to: "filter (where r.status in ('verified', 'pending'))",
  },
  { name: 'search shows 11 reports', after: SEARCH, from: 'limit 10', to: 'limit 11' },
  {
    name: "message check's risk exp(-w / 2) -> exp(-w / 3)",
    after: CHECK,
    from: 'exp(-f.w / 2)',
    to: 'exp(-f.w / 3)',
  },
  {
    name: "message check's 'high' from 60 -> 61",
    after: CHECK,
    from: 'r.risk >= 60',
    to: 'r.risk >= 61',
  },
  {
    name: "range lookup's risk exp(-w / 2) -> exp(-w / 3)",
    after: RANGE,
    from: 'identifier_weight(c.identifier_canonical) / 2)',
    to: 'identifier_weight(c.identifier_canonical) / 3)',
  },
  { name: "range lookup's 'high' from 60 -> 61", after: RANGE, from: 'r.risk >= 60', to: 'r.risk >= 61' },
  {
    name: "range lookup's 'medium' from 25 -> 24",
    after: RANGE,
    from: 'r.risk >= 25',
    to: 'r.risk >= 24',
  },
  {
    name: 'batched range lookups: a bucket admits one request fewer',
    after: RANGE_MANY,
    from: 'select p.place <= t.admitted as allowed',
    to: 'select p.place < t.admitted as allowed',
  },
  {
    name: "batched range lookups: a bucket's requests taken in reverse order",
    after: RANGE_MANY,
    from: 'order by r.ord) as place',
    to: 'order by r.ord desc) as place',
  },
  {
    name: 'batched range lookups: a bucket spends one call more than it admits',
    after: RANGE_MANY,
    from: 'set tat = t.base + make_interval(secs => t.step_s * t.admitted)',
    to: 'set tat = t.base + make_interval(secs => t.step_s * (t.admitted + 1))',
  },
  { name: 'removal window 7 -> 1 day', after: EXPIRE, from: "interval '7 days'", to: "interval '1 days'" },
  { name: 'removal window 7 -> 8 days', after: EXPIRE, from: "interval '7 days'", to: "interval '8 days'" },
  {
    name: "removal expiry ignores the reporter's answer",
    after: EXPIRE,
    from: 'where answered.report_id = rr.report_id and answered.reporter_response is not null',
    to: 'where false',
  },
  {
    name: 'an answer to an older, closed request blocks expiry',
    after: EXPIRE,
    from: "and (answered.status = 'open' or answered.responded_at >= rr.created_at))",
    to: ')',
  },
  {
    name: 'removal expiry takes closed requests',
    after: EXPIRE,
    from: "where rr.status = 'open'",
    to: 'where true',
  },
  {
    name: "a removed report's other open requests stay open",
    after: EXPIRE,
    from: "where rr.status = 'open' and exists",
    to: 'where false and exists',
  },
  {
    name: 'a watching reporter is notified of their own report',
    after: 'create function private.reports_notify()',
    from: 'and nr.user_id is distinct from new.reporter_id;',
    to: ';',
  },
  {
    name: 'verification notifies the watching reporter',
    after: 'create function private.reports_notify_verified()',
    from: 'and nr.user_id is distinct from new.reporter_id',
    to: '',
  },
  {
    name: 'reports readable by every signed-in user',
    after: 'create policy "Reporters can read their own reports',
    from: 'using (reporter_id = (select auth.uid()) or (select private.is_admin()));',
    to: 'using (true);',
  },
  {
    name: 'reports filed as anyone',
    after: 'create policy "Signed-in users can file reports as themselves"',
    from: 'with check (reporter_id = (select auth.uid()));',
    to: 'with check (true);',
  },
  {
    name: 'reports deletable by every signed-in user',
    after: 'create policy "Reporters can delete their own reports',
    from: 'using (reporter_id = (select auth.uid()) or (select private.is_admin()));',
    to: 'using (true);',
  },
  {
    name: 'removal requests readable by every signed-in user',
    after: 'create policy "Requesters, the reporter and admins can read removal requests"',
    from: 'requester_id = (select auth.uid())',
    to: 'true',
  },
  {
    name: 'notify registrations readable by every signed-in user',
    after: 'alter table public.notify_registrations enable row level security',
    from: 'using (user_id = (select auth.uid()));',
    to: 'using (true);',
  },
];

const MIGRATIONS = 'supabase/migrations';

/** Applies one mutation to the migrations under `dir`; answers the file and line changed, or null when stale. */
function apply(dir: string, m: Mutation): string | null {
  const files = readdirSync(path.join(dir, MIGRATIONS))
    .filter((f) => f.endsWith('.sql'))
    .sort();
  const replaced = m.after.replace(/^create function /, 'create or replace function ');
  const defines = (line: string) => line.includes(m.after) || line.includes(replaced);
  const file = files
    .filter((f) =>
      readFileSync(path.join(dir, MIGRATIONS, f), 'utf8')
        .split('\n')
        .some(defines),
    )
    .at(-1);
  if (!file) return null;
  const full = path.join(dir, MIGRATIONS, file);
  const lines = readFileSync(full, 'utf8').split('\n');
  const start = lines.findLastIndex(defines);
  const at = lines.findIndex((l, i) => i >= start && l.includes(m.from));
  if (at < 0) return null;
  lines[at] = lines[at].replace(m.from, m.to);
  writeFileSync(full, lines.join('\n'));
  return `${file}:${at + 1}`;
}

/** Runs the database tests in the scratch copy; true when they all pass. */
function dbTests(dir: string, bail: boolean): { passed: boolean; output: string } {
  const r = spawnSync(
    path.join(ROOT, 'node_modules/.bin/vitest'),
    ['run', '--project', 'stack', 'supabase/tests/db', ...(bail ? ['--bail', '1'] : [])],
    {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, STACK_PORT_OFFSET: process.env.STACK_PORT_OFFSET ?? '650', NO_COLOR: '1' },
      timeout: 900_000,
    },
  );
  return { passed: r.status === 0, output: `${r.stdout}\n${r.stderr}` };
}

const dryRun = process.argv.includes('--dry-run');
const filters = process.argv.slice(2).filter((a) => a !== '--dry-run');
const chosen = MUTATIONS.filter((m) => !filters.length || filters.some((f) => m.name.includes(f)));

// A scratch copy of the working tree (tests and migrations as they are now), sharing node_modules.
const scratch = mkdtempSync(path.join(os.tmpdir(), 'sql-mutation-'));
// Embedded Postgres runs as its own user, which must reach the data folder inside.
chmodSync(scratch, 0o755);
const skip = new Set([
  'node_modules',
  '.git',
  '.supabase-local',
  'tests/artifacts',
  'dist',
  '.stryker-tmp',
  'reports',
]);
cpSync(ROOT, scratch, { recursive: true, filter: (src) => !skip.has(path.relative(ROOT, src)) });
symlinkSync(path.join(ROOT, 'node_modules'), path.join(scratch, 'node_modules'));
const pristine = path.join(scratch, MIGRATIONS + '.pristine');
cpSync(path.join(scratch, MIGRATIONS), pristine, { recursive: true });

try {
  if (dryRun) {
    for (const m of chosen) {
      rmSync(path.join(scratch, MIGRATIONS), { recursive: true });
      cpSync(pristine, path.join(scratch, MIGRATIONS), { recursive: true });
      console.log(`${(apply(scratch, m) ?? 'STALE').padEnd(52)} ${m.name}`);
    }
    process.exit(0);
  }
  const baseline = dbTests(scratch, false);
  if (!baseline.passed) {
    console.log(baseline.output.slice(-4000));
    throw new Error('The database tests fail without any mutation; fix them first.');
  }
  let caught = 0;
  let stale = 0;
  const survivors: string[] = [];
  for (const m of chosen) {
    rmSync(path.join(scratch, MIGRATIONS), { recursive: true });
    cpSync(pristine, path.join(scratch, MIGRATIONS), { recursive: true });
    const file = apply(scratch, m);
    if (!file) {
      stale++;
      console.log(`STALE     ${m.name} (text not found: ${m.from})`);
      continue;
    }
    const started = Date.now();
    const { passed, output } = dbTests(scratch, true);
    const failing = /FAIL\s+.*?>\s*(.*)/.exec(output)?.[1]?.trim() ?? '';
    const secs = ((Date.now() - started) / 1000).toFixed(0);
    if (passed) {
      survivors.push(m.name);
      console.log(`SURVIVED  ${m.name}  [${file}, ${secs} s]`);
    } else {
      caught++;
      console.log(
        `caught    ${m.name}  [${file}, ${secs} s]${failing ? `  by: ${failing.slice(0, 120)}` : ''}`,
      );
    }
  }
  console.log(
    `\nSQL mutations caught: ${caught} of ${chosen.length - stale}${stale ? ` (${stale} stale)` : ''}`,
  );
  if (survivors.length) console.log(`Survivors: ${survivors.join('; ')}`);
  process.exitCode = survivors.length || stale ? 1 : 0;
} finally {
  if (existsSync(scratch)) rmSync(scratch, { recursive: true, force: true });
}

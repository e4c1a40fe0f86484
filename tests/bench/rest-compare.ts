/**
 * /rest/v1 of this checkout against another revision, side by side: both stacks run at once and the
 * load alternates between them in short rounds, so that the machine's own ups and downs weigh on both
 * alike (one-side runs of the same code differ by 20 % and more here). Prints each side's throughput
 * and its stack's CPU time per request for the benchmark's read (rest-bench.ts).
 *
 *   npm run bench:rest:compare -- HEAD~1          # 8 rounds of 2 s a side
 *   BENCH_ROUNDS=12 npm run bench:rest:compare -- <revision>
 *
 * The other revision is checked out in a temporary git worktree sharing this node_modules. The two
 * stacks take ports STACK_PORT_OFFSET + 20 and + 30 (offset 500 when unset), so engineers sharing a
 * machine each compare on their own ports.
 */
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HttpClient, cpuNs } from './load.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
const CONCURRENCY = 10;
const ROWS = 10_000;

interface Side {
  name: string;
  child: ChildProcess;
  client: HttpClient;
  requests: number;
  seconds: number;
  cpuUs: number;
}

function startStack(
  root: string,
  offset: number,
): Promise<{ child: ChildProcess; apiUrl: string; anonKey: string }> {
  return new Promise((resolve, reject) => {
    const child = fork(path.join(here, 'rest-stack.ts'), [root], {
      execArgv: ['--max-semi-space-size=64', '--import', 'tsx'],
      env: { ...process.env, STACK_PORT_OFFSET: String(offset) },
    });
    child.once('message', (m) => resolve({ child, ...(m as { apiUrl: string; anonKey: string }) }));
    child.once('exit', (code) => reject(new Error(`stack for ${root} exited with ${code}`)));
  });
}

/** Keeps CONCURRENCY reads in flight on one side for `seconds`, adding up its requests and its stack's CPU time. */
async function round(side: Side, seconds: number) {
  const before = cpuNs(side.child.pid!);
  let stop = false;
  let done = 0;
  const loop = async () => {
    while (!stop) {
      const id = 1 + Math.floor(Math.random() * ROWS);
      const { status, body } = await side.client.get(
        `/rest/v1/bench_items?select=id,name,category,score&id=eq.${id}`,
      );
      const rows = JSON.parse(body) as { id: number }[];
      if (status !== 200 || rows[0]?.id !== id)
        throw new Error(`${side.name}: unexpected answer ${status} ${body}`);
      done++;
    }
  };
  const t0 = process.hrtime.bigint();
  const loops = Array.from({ length: CONCURRENCY }, loop);
  await new Promise((r) => setTimeout(r, seconds * 1000));
  stop = true;
  await Promise.all(loops);
  side.seconds += Number(process.hrtime.bigint() - t0) / 1e9;
  side.requests += done;
  side.cpuUs += (cpuNs(side.child.pid!) - before) / 1000;
}

async function main() {
  const revision = process.argv[2] ?? 'HEAD';
  const rounds = Number(process.env.BENCH_ROUNDS ?? 8);
  const worktree = await fs.mkdtemp(path.join(os.tmpdir(), 'rest-compare-'));
  // Postgres runs as its own user when the stack runs as root; it must reach its data folder inside.
  await fs.chmod(worktree, 0o755);
  execFileSync('git', ['worktree', 'add', '--detach', worktree, revision], { cwd: repo, stdio: 'ignore' });
  const children: ChildProcess[] = [];
  try {
    await fs.symlink(path.join(repo, 'node_modules'), path.join(worktree, 'node_modules'));
    const sides: Side[] = [];
    const base = Number(process.env.STACK_PORT_OFFSET ?? 500);
    for (const [name, root, offset] of [
      [revision, worktree, base + 20],
      ['this checkout', repo, base + 30],
    ] as const) {
      const { child, apiUrl, anonKey } = await startStack(root, offset);
      children.push(child);
      const client = new HttpClient(new URL(apiUrl), {
        apikey: anonKey,
        authorization: `Bearer ${anonKey}`,
        accept: 'application/json',
      });
      sides.push({ name, child, client, requests: 0, seconds: 0, cpuUs: 0 });
    }
    // Warm-up: connections, statements, JIT; not counted.
    for (const side of sides) await round({ ...side }, 2);
    for (let i = 0; i < rounds; i++) for (const side of sides) await round(side, 2);
    console.log(
      `One row by primary key, ${CONCURRENCY} concurrent clients, ${rounds} alternating rounds of 2 s a side:`,
    );
    for (const s of sides) {
      console.log(
        `${s.name.padEnd(16)} ${(s.requests / s.seconds).toFixed(0).padStart(7)} req/s   stack CPU ${(s.cpuUs / s.requests).toFixed(1).padStart(6)} µs per request`,
      );
    }
    const [old, now] = sides.map((s) => s.requests / s.seconds);
    console.log(`throughput of this checkout / ${revision}: ${(now / old).toFixed(3)}`);
    for (const s of sides) s.client.close();
  } finally {
    await Promise.all(
      children.map(
        (c) =>
          new Promise((resolve) =>
            c.exitCode !== null ? resolve(null) : (c.once('exit', resolve), c.kill('SIGTERM')),
          ),
      ),
    );
    execFileSync('git', ['worktree', 'remove', '--force', worktree], { cwd: repo, stdio: 'ignore' });
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e instanceof Error ? e.stack : e);
    process.exit(1);
  },
);

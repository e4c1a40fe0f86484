/**
 * The stack's Postgres runner on its own (no stack): a data folder inside a private (mode 700) folder
 * as root, a stale postmaster.pid, a port another program holds, and a server killed with SIGKILL.
 * Ports: the test stack's offset + 70.
 */
import { mkdtempSync, rmSync, writeFileSync, chmodSync, existsSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { testPorts } from '../config.ts';
import { LocalPostgres, postgresFlags, startFailure } from '../postgres.ts';

const port = testPorts(Number(process.env.STACK_PORT_OFFSET ?? 0) + 70).dbPort;
const isRoot = process.getuid?.() === 0;
const cleanup: string[] = [];
const servers: LocalPostgres[] = [];

function tempDir(mode: number): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'local-supabase-pg-'));
  chmodSync(dir, mode);
  cleanup.push(dir);
  return dir;
}

function server(dataDir: string, log: string[] = []): LocalPostgres {
  const s = new LocalPostgres({
    dataDir,
    port,
    host: '127.0.0.1',
    durable: true,
    log: (l) => log.push(l),
    verbose: false,
  });
  servers.push(s);
  return s;
}

async function query(sql: string, params: unknown[] = []) {
  const client = new pg.Client({
    connectionString: `postgresql://postgres:postgres@127.0.0.1:${port}/postgres`,
  });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows;
  } finally {
    await client.end();
  }
}

afterEach(async () => {
  for (const s of servers.splice(0)) await s.stop();
});

afterAll(() => {
  for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
  delete process.env.LOCAL_SUPABASE_PG_SHARED_DIR;
});

describe('the local Postgres', () => {
  it.skipIf(!isRoot)(
    'runs from a private folder (mode 700) as root: the data goes to a folder the postgres user can enter, printed, and stays there',
    async () => {
      const shared = tempDir(0o755);
      process.env.LOCAL_SUPABASE_PG_SHARED_DIR = shared;
      const home = tempDir(0o700);
      const dataDir = path.join(home, 'project', '.supabase-local', 'dev');
      const log: string[] = [];
      const db = server(dataDir, log);
      expect(db.pgDir.startsWith(shared + path.sep)).toBe(true);
      await db.start();
      expect(log).toContain(
        `Postgres data: ${db.pgDir} (the postgres user cannot enter ${path.resolve(import.meta.dirname, '..', '..', '..')}, so the data lives outside it)`,
      );
      await query('create table kept (v text)');
      await query('insert into kept values ($1)', ['acknowledged']);
      await db.stop();
      servers.pop();
      const again = server(dataDir);
      expect(again.pgDir).toBe(db.pgDir);
      await again.start();
      expect(await query('select v from kept')).toEqual([{ v: 'acknowledged' }]);
      expect(existsSync(path.join(dataDir, 'postgres'))).toBe(false);
    },
    120_000,
  );

  it('starts over a stale postmaster.pid whose number now belongs to another process', async () => {
    const dataDir = path.join(tempDir(0o755), 'dev');
    const first = server(dataDir);
    await first.start();
    await first.stop();
    servers.pop();
    // As after a power cut: the file is left, and its pid is some live process that is not Postgres.
    writeFileSync(path.join(first.pgDir, 'postmaster.pid'), `${process.pid}\n${first.pgDir}\n`);
    const log: string[] = [];
    const second = server(dataDir, log);
    await second.start();
    expect(log).toContain('Removed a stale postmaster.pid left by a server that is gone.');
    expect(await query('select 1 as ok')).toEqual([{ ok: 1 }]);
  }, 120_000);

  it('names a port another program holds in one line', async () => {
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(port, '127.0.0.1', resolve));
    try {
      const db = server(path.join(tempDir(0o755), 'dev'));
      await expect(db.start()).rejects.toThrow(
        `Port ${port} (database) is already in use by another program: stop it or free the port.`,
      );
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  }, 120_000);

  it('starts again after SIGKILL and keeps every committed row', async () => {
    const db = server(path.join(tempDir(0o755), 'dev'));
    await db.start();
    await query('create table t (n int)');
    for (let n = 0; n < 50; n++) await query('insert into t values ($1)', [n]);
    const back = new Promise<void>((resolve) => (db.onRestart = resolve));
    process.kill(db.pid!, 'SIGKILL');
    await back;
    expect(await query('select count(*)::int as n from t')).toEqual([{ n: 50 }]);
  }, 120_000);

  it('is durable unless told otherwise; failures read as one line', () => {
    const durable = postgresFlags({ host: '127.0.0.1', durable: true }).join(' ');
    expect(durable).not.toMatch(/fsync=off|synchronous_commit=off|full_page_writes=off/);
    expect(postgresFlags({ host: '127.0.0.1', durable: false }).join(' ')).toContain(
      '-c fsync=off -c synchronous_commit=off -c full_page_writes=off',
    );
    expect(
      startFailure(
        5,
        '2026-01-01 LOG: starting\n2026-01-01 FATAL:  lock file "postmaster.pid" already exists\nHINT: x',
      ),
    ).toBe('Postgres did not start: 2026-01-01 FATAL:  lock file "postmaster.pid" already exists');
  });
});

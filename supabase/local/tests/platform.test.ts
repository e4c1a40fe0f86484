/**
 * The platform schema behaves as on Supabase: a migration with RLS and a policy on
 * `(select auth.uid())` decides rows for anon, authenticated and service_role, and migrations are
 * applied once each, in order, recorded as the CLI records them, or not at all.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations, applyPlatform, MigrationError, withRole } from '../db.ts';
import { adminPool, stackEnv, unique } from '../testing/index.ts';

describe('a migration with RLS on the platform schema', () => {
  const table = unique('notes_');
  const alice = crypto.randomUUID();
  const bob = crypto.randomUUID();

  beforeAll(async () => {
    const pool = adminPool();
    for (const [id, email] of [
      [alice, `${table}a@example.com`],
      [bob, `${table}b@example.com`],
    ]) {
      await pool.query(
        `insert into auth.users (id, aud, role, email, created_at, updated_at) values ($1, 'authenticated', 'authenticated', $2, now(), now())`,
        [id, email],
      );
    }
    await pool.query(`
      create table public.${table} (id bigint generated always as identity primary key, owner uuid not null default auth.uid() references auth.users(id), body text not null);
      alter table public.${table} enable row level security;
      -- The project revokes Supabase's default grants in public (see the migrations), so grant as they do.
      grant select, insert on public.${table} to anon, authenticated, service_role;
      create policy "Owners can read their notes" on public.${table} for select to authenticated using ((select auth.uid()) = owner);
      create policy "Owners can add notes" on public.${table} for insert to authenticated with check ((select auth.uid()) = owner);
      insert into public.${table} (owner, body) values ('${alice}', 'alice note'), ('${bob}', 'bob note');
    `);
  });

  afterAll(async () => {
    await adminPool().query(`drop table if exists public.${table}`);
    await adminPool().query('delete from auth.users where id = any($1)', [[alice, bob]]);
  });

  const rows = (claims: { role: string; sub?: string }) =>
    withRole(adminPool(), claims, async (c) =>
      (await c.query(`select body from public.${table} order by body`)).rows.map((r) => r.body),
    );

  it('shows anon nothing, each user their own rows, and service_role everything', async () => {
    expect(await rows({ role: 'anon' })).toEqual([]);
    expect(await rows({ role: 'authenticated', sub: alice })).toEqual(['alice note']);
    expect(await rows({ role: 'authenticated', sub: bob })).toEqual(['bob note']);
    expect(await rows({ role: 'service_role' })).toEqual(['alice note', 'bob note']);
  });

  it('holds on: postgres — fills auth.uid() from the JWT claims and refuses rows for someone else', async () => {
    const inserted = await withRole(
      adminPool(),
      { role: 'authenticated', sub: alice },
      async (c) =>
        (await c.query(`insert into public.${table} (body) values ('mine') returning owner`)).rows[0].owner,
    );
    expect(inserted).toBe(alice);
    await expect(
      withRole(adminPool(), { role: 'authenticated', sub: alice }, (c) =>
        c.query(`insert into public.${table} (owner, body) values ($1, 'forged')`, [bob]),
      ),
    ).rejects.toThrow(/row-level security/);
    await expect(
      withRole(adminPool(), { role: 'anon' }, (c) =>
        c.query(`insert into public.${table} (owner, body) values ($1, 'x')`, [bob]),
      ),
    ).rejects.toThrow(/row-level security/);
  });

  it('offers auth.role() and auth.jwt() to policies', async () => {
    const got = await withRole(
      adminPool(),
      { role: 'authenticated', sub: alice, email: 'a@example.com' },
      async (c) =>
        (await c.query(`select auth.role() as role, auth.jwt() ->> 'email' as email, auth.uid() as uid`))
          .rows[0],
    );
    expect(got).toEqual({ role: 'authenticated', email: 'a@example.com', uid: alice });
  });

  it('shapes storage path helpers as Supabase does', async () => {
    const { rows: r } = await adminPool().query(
      `select storage.foldername('a/b/c.png') as f, storage.filename('a/b/c.png') as n, storage.extension('a/b/c.png') as e`,
    );
    expect(r[0]).toEqual({ f: ['a', 'b'], n: 'c.png', e: 'png' });
  });
});

describe('migrations', () => {
  const dbName = unique('mig_');
  let pool: pg.Pool;
  let dir: string;

  beforeAll(async () => {
    await adminPool().query(`create database ${dbName}`);
    const url = new URL(stackEnv('DB_URL'));
    url.pathname = `/${dbName}`;
    pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
    // Dropping the scratch database ends its sessions; that is expected, not a failure.
    pool.on('error', () => undefined);
    await applyPlatform(pool);
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'migrations-'));
  });

  afterAll(async () => {
    await pool.end();
    await adminPool().query(`drop database if exists ${dbName} with (force)`);
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('applies pending migrations once each, in order, recorded as the CLI does', async () => {
    await fs.writeFile(
      path.join(dir, '20260101000000_first.sql'),
      'create table public.one (id int primary key);',
    );
    await fs.writeFile(path.join(dir, '20260102000000_second.sql'), 'insert into public.one values (1);');
    expect(await applyMigrations(pool, () => undefined, dir)).toBe(2);
    expect(await applyMigrations(pool, () => undefined, dir)).toBe(0);
    const { rows } = await pool.query(
      'select version, name from supabase_migrations.schema_migrations order by version',
    );
    expect(rows).toEqual([
      { version: '20260101000000', name: 'first' },
      { version: '20260102000000', name: 'second' },
    ]);
  });

  it('stops at a broken migration with its file and the Postgres error, and changes nothing', async () => {
    await fs.writeFile(
      path.join(dir, '20260103000000_broken.sql'),
      'create table public.two (id int);\ninsert into public.nope values (1);',
    );
    const err = await applyMigrations(pool, () => undefined, dir).catch((e) => e);
    expect(err).toBeInstanceOf(MigrationError);
    expect(err.message).toContain('supabase/migrations/20260103000000_broken.sql');
    expect(err.message).toContain('relation "public.nope" does not exist');
    const { rows } = await pool.query(
      `select to_regclass('public.two') as t, (select count(*)::int from supabase_migrations.schema_migrations) as n`,
    );
    expect(rows[0]).toEqual({ t: null, n: 2 });
  });
});

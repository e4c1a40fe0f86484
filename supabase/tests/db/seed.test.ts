/**
 * The seed gives a new developer a living product: demo logins that work, news, and reports across
 * every type, status and many countries over the past 18 months; the rollups agree with the data.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT_DIR } from '../../project/index.ts';
import { adminPool, seedUuidSql, stackEnv } from '../helpers.ts';

async function one<T = Record<string, unknown>>(sql: string): Promise<T> {
  return (await adminPool().query(sql)).rows[0] as T;
}

describe('seed data', () => {
  it('the demo logins in demo-logins.txt and the README sign in through Supabase Auth', async () => {
    const logins = await fs.readFile(path.join(ROOT_DIR, 'supabase/project/demo-logins.txt'), 'utf8');
    const readme = await fs.readFile(path.join(ROOT_DIR, 'README.md'), 'utf8');
    // The README's table of logins, with prettier's cell padding taken out.
    const table = readme.replace(/ +\|/g, ' |');
    const pairs = [...logins.matchAll(/(\S+@scamcheck\.local)\s*\/\s*(\S+)/g)].map((m) => [m[1], m[2]]);
    expect(pairs.map((p) => p[0])).toEqual(['admin@scamcheck.local', 'user@scamcheck.local']);
    for (const [email, password] of pairs) {
      expect(table).toContain(`\`${email}\` | \`${password}\``);
      const res = await fetch(`${stackEnv('API_URL')}/auth/v1/token?grant_type=password`, {
        method: 'POST',
        headers: { apikey: stackEnv('ANON_KEY'), 'content-type': 'application/json' },
        body: JSON.stringify({ email, password }),
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { access_token: string; user: { email: string } };
      expect(body.user.email).toBe(email);
    }
  });

  it('the admin holds the admin role, the user does not; both have profiles and an email identity', async () => {
    const r = await one(`select
      (select count(*)::int from public.user_roles ur join auth.users u on u.id = ur.user_id where u.email = 'admin@scamcheck.local') as admin_roles,
      (select count(*)::int from public.user_roles ur join auth.users u on u.id = ur.user_id where u.email = 'user@scamcheck.local') as user_roles,
      (select count(*)::int from public.profiles where email in ('admin@scamcheck.local', 'user@scamcheck.local')) as profiles,
      (select count(*)::int from auth.identities where provider = 'email' and email in ('admin@scamcheck.local', 'user@scamcheck.local')) as identities`);
    expect(r).toEqual({ admin_roles: 1, user_roles: 0, profiles: 2, identities: 2 });
  });

  it('has news and a few hundred realistic reports across every type, status and many countries', async () => {
    // Only the seed's own reports (ids seed_uuid('report' || n)): other tests file reports too, some from
    // localhost, which rightly has no location.
    const r = await one(`with seeded as (
        select * from public.reports where id in (select ${seedUuidSql("'report' || g")} from generate_series(1, 420) as g))
      select
      (select count(*)::int from public.news) as news,
      (select count(*)::int from seeded) as reports,
      (select count(distinct incident_type)::int from seeded) as types,
      (select count(distinct reported_account_type)::int from seeded) as account_types,
      (select count(distinct status)::int from seeded) as statuses,
      (select count(distinct country)::int from seeded) as countries,
      (select count(*)::int from seeded where loc is null) as without_loc,
      (select extract(month from age(max(created_at), min(created_at)))::int + 12 * extract(year from age(max(created_at), min(created_at)))::int from seeded) as months`);
    expect(r.news).toBeGreaterThanOrEqual(8);
    expect(r.reports).toBeGreaterThanOrEqual(300);
    expect(r).toMatchObject({ types: 3, account_types: 5, statuses: 4, without_loc: 0 });
    expect(r.countries).toBeGreaterThanOrEqual(10);
    expect(r.months).toBeGreaterThanOrEqual(15);
  });

  it('the demo user has reports (stats), watches identifiers (notifications) and a searchable history', async () => {
    const r = await one(`select
      (select count(*)::int from public.reports r join auth.users u on u.id = r.reporter_id where u.email = 'user@scamcheck.local') as reports,
      (select count(*)::int from public.notifications n join auth.users u on u.id = n.user_id where u.email = 'user@scamcheck.local') as notifications,
      (select count(distinct date_trunc('month', r.created_at))::int from public.reports r join auth.users u on u.id = r.reporter_id where u.email = 'user@scamcheck.local') as months`);
    expect(r.reports).toBeGreaterThanOrEqual(20);
    expect(r.notifications).toBeGreaterThan(0);
    expect(r.months).toBeGreaterThan(1);
    const { rows } = await adminPool().query(`select public.search_reports('0917 555 0142') as s`);
    expect(rows[0].s.count).toBeGreaterThan(10);
  });

  it('finds the demo number however it is written, country code in brackets too', async () => {
    const counts = [];
    for (const written of ['0917 555 0142', '(+63) 917 555 0142', '( +63 ) 917-555-0142', '+63 917 555 0142'])
      counts.push(
        (await adminPool().query(`select public.search_reports($1) as s`, [written])).rows[0].s
          .count as number,
      );
    expect(counts[0]).toBeGreaterThan(10);
    expect(new Set(counts).size).toBe(1);
  });
});

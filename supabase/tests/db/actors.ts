/**
 * Actors for database tests: anonymous visitors, signed-in users and admins, each running SQL exactly
 * as PostgREST would for their JWT (withRole: the JWT's role with request.jwt.claims set), so grants
 * and row-level security decide what they see.
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { type RequestClaims, withRole } from '../helpers.ts';
import { adminPool, unique } from '../helpers.ts';

export interface Actor {
  name: string;
  id: string | null;
  email: string | null;
  claims: RequestClaims;
}

export const anon: Actor = { name: 'anon', id: null, email: null, claims: { role: 'anon' } };
/** The edge functions' service-role client (they verify the caller and resolve locations first). */
export const serviceRole: Actor = {
  name: 'service_role',
  id: null,
  email: null,
  claims: { role: 'service_role' },
};

/** Creates a confirmed user the way GoTrue does (auth.users row; the profile comes from our trigger). */
export async function createUser(name = 'Test User', opts: { admin?: boolean } = {}): Promise<Actor> {
  const id = randomUUID();
  const email = `${unique('u')}@test.local`;
  await adminPool().query(
    `insert into auth.users (instance_id, id, aud, role, email, email_confirmed_at, raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
     values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', $2, now(),
             '{"provider":"email","providers":["email"]}', jsonb_build_object('name', $3::text), now(), now())`,
    [id, email, name],
  );
  if (opts.admin) await adminPool().query('select private.grant_admin($1)', [id]);
  return {
    name,
    id,
    email,
    claims: {
      role: 'authenticated',
      sub: id,
      email,
      aud: 'authenticated',
      aal: 'aal1',
      session_id: randomUUID(),
    },
  };
}

/** Runs one statement as the actor and returns its rows. */
export async function run<T extends pg.QueryResultRow = Record<string, unknown>>(
  actor: Actor,
  sql: string,
  params: unknown[] = [],
): Promise<T[]> {
  return withRole(adminPool(), actor.claims, async (c) => (await c.query<T>(sql, params)).rows);
}

/** Runs one statement as the actor and returns how many rows it touched (0 when RLS hides them). */
export async function affected(actor: Actor, sql: string, params: unknown[] = []): Promise<number> {
  return withRole(adminPool(), actor.claims, async (c) => (await c.query(sql, params)).rowCount ?? 0);
}

/** Errors that mean "not allowed": missing grant, RLS check, or our guards (SQLSTATE 42501). */
export const DENIED = /permission denied|row-level security|only admins|cannot be|42501/;

/**
 * A report row as a signed-in user files it (reporter_id and status left to their defaults). Its loc
 * and country, which no API role may write (issue 27), are then set as the server sets them
 * (public.locate_report's update, here as the database owner).
 */
export async function fileReport(
  actor: Actor,
  fields: Partial<Record<string, unknown>> = {},
): Promise<Record<string, unknown>> {
  const row = {
    incident_date: '2026-01-15',
    incident_type: 'scam',
    reported_account_type: 'mobile',
    reported_account: `0917 ${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`,
    incident_description: 'Seller took payment and blocked me.',
    location: 'Quezon City',
    loc: '14.6760,121.0437',
    country: 'PH',
    amount_lost: 1500,
    ...fields,
  };
  const { loc, country, ...filed } = row;
  const cols = Object.keys(filed);
  const [r] = await run(
    actor,
    `insert into public.reports (${cols.join(', ')}) values (${cols.map((_, i) => `$${i + 1}`).join(', ')}) returning *`,
    Object.values(filed),
  );
  if (loc == null && country == null) return r;
  const { rows } = await adminPool().query(
    'update public.reports set loc = $2, country = $3 where id = $1 returning *',
    [r.id, loc ?? null, country ?? null],
  );
  return rows[0];
}

/** Sets a report's status as the database owner (arranging data for a test, not an API call). */
export async function setStatus(reportId: unknown, status: string): Promise<void> {
  await adminPool().query('update public.reports set status = $2 where id = $1', [reportId, status]);
}

/**
 * A new mobile number ('0918...') with one verified report per entry of days, each from its own
 * reporter and back-dated that many days (for hand-computed risk: weight 0.5^(days/180) each).
 */
export async function verifiedAged(days: number[]): Promise<string> {
  const number = `0918${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
  for (const age of days) {
    const r = await fileReport(await createUser('Edge reporter'), { reported_account: number });
    await setStatus(r.id, 'verified');
    await adminPool().query(
      `update public.reports set created_at = now() - make_interval(days => $2) where id = $1`,
      [r.id, age],
    );
  }
  return number;
}

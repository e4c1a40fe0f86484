/**
 * ScamCheck's helpers for tests that run against the local stack started by global-setup.ts: the
 * stack's public test helpers (@scamcheck/local-supabase/testing) and the project's own. Product tests
 * import these from here, never from the stack's files.
 */
export {
  adminPool,
  signJwt,
  stackCa,
  stackEnv,
  unique,
  withRole,
  type RequestClaims,
} from '@scamcheck/local-supabase/testing';

/** SQL for the id supabase/seed.sql gives a label (its pg_temp.seed_uuid: md5 shaped as a version 4 UUID). */
export function seedUuidSql(label: string): string {
  return `overlay(overlay(md5(${label}) placing '4' from 13 for 1) placing substr('89ab', 1 + get_byte(decode(md5(${label}), 'hex'), 8) % 4, 1) from 17 for 1)::uuid`;
}

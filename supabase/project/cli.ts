/**
 * `npm start`, `npm run status`, `npm run db:reset`, `npm run db:types` and `npm run admin:grant|admin:revoke
 * -- <email>`: the local stack's command line (@scamcheck/local-supabase) with ScamCheck's adapter and
 * its own admin commands. SCAMCHECK_STACK=test runs them on the test ports (the tests of this CLI).
 */
import type { StackConfig } from '@scamcheck/local-supabase';
import { runCli, withDatabase } from '@scamcheck/local-supabase/cli';
import { projectDevConfig, projectTestConfig, scamcheck } from './index.ts';

/** Makes an account an admin, or no longer one (private.grant_admin / revoke_admin of the migrations). */
function admin(grant: boolean) {
  return async (config: StackConfig, [email]: string[]) => {
    if (!email) {
      console.error(`Usage: npm run admin:${grant ? 'grant' : 'revoke'} -- <email>`);
      process.exit(2);
    }
    await withDatabase(config, async (pool) => {
      const { rows } = await pool.query('select id from auth.users where lower(email) = lower($1)', [email]);
      if (!rows.length) {
        console.error(`No user with e-mail ${email}.`);
        process.exitCode = 1;
        return;
      }
      await pool.query(grant ? 'select private.grant_admin($1)' : 'select private.revoke_admin($1)', [
        rows[0].id,
      ]);
      console.log(grant ? `${email} is now an admin.` : `${email} is no longer an admin.`);
    });
  };
}

runCli({
  project: scamcheck,
  config: () =>
    process.env.SCAMCHECK_STACK === 'test'
      ? projectTestConfig({ withApp: true, verbose: true })
      : projectDevConfig(),
  commands: { 'admin-grant': admin(true), 'admin-revoke': admin(false) },
});

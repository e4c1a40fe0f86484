/**
 * What the stack needs to know of the project it runs, and nothing else: the stack itself holds no
 * project's names, schemas, secrets or data (README.md, "The project adapter"). Everything here is
 * optional; a stack without an adapter runs the project's migrations, seed, config.toml and functions
 * as the Supabase CLI does and nothing more.
 */
import type pg from 'pg';
import type { StackConfig } from './config.ts';

export interface LocalProject {
  /** The name people read: the CLI's banner and the default sender of Auth's e-mails. */
  name: string;
  /** The sender of e-mails that name none (Auth's, as GoTrue's SMTP_ADMIN_EMAIL and SENDER_NAME). */
  mailFrom?: string;
  /**
   * The project's own schemas besides `public` (created by its migrations), dropped by `db reset`
   * before the migrations run again. The platform's schemas are the stack's to drop.
   */
  schemas?: string[];
  /**
   * Vault secrets the migrations' scheduled jobs read (pg_cron + pg_net + Vault, as on Supabase):
   * stored once the database is ready, as an operator does once on a hosted project.
   */
  vaultSecrets?(
    config: StackConfig,
    keys: { apiUrl: string; serviceRoleKey: string },
  ): Record<string, string>;
  /** More environment for the edge functions (after the stack's own: SUPABASE_URL, keys, SMTP). */
  functionsEnv?(config: StackConfig): Record<string, string>;
  /** More environment for the app's Vite server or build (after VITE_SUPABASE_URL and _ANON_KEY). */
  appEnv?(config: StackConfig): Record<string, string>;
  /**
   * Work that needs the migrated database (loading reference data, say), started while the services
   * start; the stack is ready when it is done.
   */
  onDatabaseReady?(pool: pg.Pool, log: (line: string) => void, config: StackConfig): Promise<void>;
  /** Text the CLI prints once the stack is up (demo logins, a first thing to try). */
  banner?(): Promise<string> | string;
  /** Where `db-types` writes the generated types, from the project folder (else they are printed). */
  typesFile?: string;
}

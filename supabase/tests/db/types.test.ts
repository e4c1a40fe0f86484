/**
 * supabase/functions/_shared/database.types.ts (src/types re-exports it) must be what `npm run db:types` generates from the migrations with
 * Supabase's own generator (@supabase/postgres-meta, supabase/local/gen-types.ts), so the typed
 * supabase-js client never drifts from the schema.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateTypes } from '@scamcheck/local-supabase';
import { ROOT_DIR, TYPES_FILE } from '../../project/index.ts';
import { stackEnv } from '../helpers.ts';

describe('generated database types', { timeout: 120_000 }, () => {
  it(`${TYPES_FILE} is what the generator gives for the migrations (else run npm run db:types)`, async () => {
    const committed = await fs.readFile(path.join(ROOT_DIR, TYPES_FILE), 'utf8');
    const generated = await generateTypes(stackEnv('DB_URL'));
    expect(committed).toBe(generated);
    // What the app relies on is there: tables, enums, the jsonb entry points and the helper types.
    for (const needle of [
      'export type Database = {',
      'reports: {\n        Row: {',
      'search_reports: { Args: { search_string: string }; Returns: Json }',
      'incident_type: "scam" | "hacked" | "spam"',
      'export type Tables<',
      'export type Enums<',
      'export const Constants = {',
    ]) {
      expect(generated).toContain(needle);
    }
  });
});

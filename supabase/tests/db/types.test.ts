/**
 * src/types/database.types.ts must be what `npm run db:types` generates from the migrations, so the
 * typed supabase-js client never drifts from the schema.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT_DIR } from '../../local/config.ts';
import { TYPES_FILE, generateTypes } from '../../local/db-types.ts';
import { adminPool } from '../helpers.ts';

describe('generated database types', () => {
  it(`${TYPES_FILE} is up to date with the migrations (run npm run db:types)`, async () => {
    const committed = await fs.readFile(path.join(ROOT_DIR, TYPES_FILE), 'utf8');
    expect(committed).toBe(await generateTypes(adminPool()));
  });

  it('has the shape supabase gen types writes: tables, views, functions, enums and the helper types', async () => {
    const text = await generateTypes(adminPool());
    for (const needle of [
      'export type Database = {',
      'reports: {\n        Row: {',
      'report_cards: {\n        Row: {',
      'search_reports: { Args: { search_string: string }; Returns: Json }',
      'incident_type: "scam" | "hacked" | "spam"',
      'export type Tables<',
      'export type TablesInsert<',
      'export type TablesUpdate<',
      'export type Enums<',
      'export type CompositeTypes<',
      'export const Constants = {',
    ]) {
      expect(text).toContain(needle);
    }
    // Columns users may not send (defaults) are optional on insert; required ones are not.
    expect(text).toMatch(/Insert: \{\n(?:\s+\w+\??: [^\n]+\n)*?\s+reported_account: string\n/);
    expect(text).toMatch(
      /Insert: \{\n(?:\s+\w+\??: [^\n]+\n)*?\s+status\?: Database\["public"\]\["Enums"\]\["report_status"\]\n/,
    );
  });
});

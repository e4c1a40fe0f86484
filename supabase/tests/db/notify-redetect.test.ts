/**
 * Migration 20261124170000: kind detection now reads '(+63) 917 123 4567' as a mobile number. Notify Me
 * registrations stored under the old reading get their kind and canonical form again, and none of a
 * user's watches is lost: two rows that become one watch leave one row, and a row whose new reading is
 * no identifier stays as it was. The migration's data step is replayed here on rows written the old way.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { adminPool } from '../helpers.ts';
import { createUser } from './actors.ts';

const MIGRATION = path.resolve(
  import.meta.dirname,
  '../../migrations/20261124170000_detect_bracketed_country_code.sql',
);

describe('notify registrations after the detection change', () => {
  it('are read again, one watch per identifier and user, nothing unreadable dropped', async () => {
    const sql = readFileSync(MIGRATION, 'utf8');
    const dataStep = sql.slice(sql.indexOf('-- A registration whose asset detection'));
    const [a, b, c] = await Promise.all([
      createUser('redetect a'),
      createUser('redetect b'),
      createUser('redetect c'),
    ]);
    const rows: [string, string, string, string][] = [
      [a.id!, '(+63) 917 123 4567', 'ewallet', '(+63) 917 123 4567'],
      [a.id!, '( +63 ) 917-123-4567', 'ewallet', '( +63 ) 917-123-4567'],
      [b.id!, '(+63) 917 123 4567', 'ewallet', '(+63) 917 123 4567'],
      [b.id!, '09171234567', 'mobile', '+639171234567'],
      [c.id!, '(+00) 0000 000', 'ewallet', '(+00) 0000 000'],
    ];
    const client = await adminPool().connect();
    try {
      await client.query('begin');
      // As the old trigger wrote them.
      await client.query(
        'alter table public.notify_registrations disable trigger notify_registrations_before_write',
      );
      for (const [user, asset, kind, canonical] of rows)
        await client.query(
          'insert into public.notify_registrations (user_id, asset_name, identifier_kind, identifier_canonical) values ($1, $2, $3, $4)',
          [user, asset, kind, canonical],
        );
      await client.query(
        'alter table public.notify_registrations enable trigger notify_registrations_before_write',
      );
      await client.query(dataStep);
      const { rows: after } = await client.query<{
        user_id: string;
        asset_name: string;
        kind: string;
        canonical: string;
      }>(
        `select user_id, asset_name, identifier_kind as kind, identifier_canonical as canonical
         from public.notify_registrations where user_id = any($1) order by user_id, created_at, asset_name`,
        [[a.id, b.id, c.id]],
      );
      const of = (u: string) => after.filter((r) => r.user_id === u).map((r) => [r.kind, r.canonical]);
      expect(of(a.id!)).toEqual([['mobile', '+639171234567']]);
      expect(of(b.id!)).toEqual([['mobile', '+639171234567']]);
      expect(of(c.id!)).toEqual([['ewallet', '(+00) 0000 000']]);
    } finally {
      await client.query('rollback');
      client.release();
    }
  });
});

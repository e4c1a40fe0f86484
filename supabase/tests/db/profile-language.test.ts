/**
 * Issue 15: profiles.language. Sign-up's `locale` sets it, only the owner changes it, only 'en' and
 * 'fil' are accepted, and every change is copied to the user's metadata, where the Auth e-mail
 * templates read it (`.Data.locale`).
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { affected, createUser, run, type Actor } from './actors.ts';
import { adminPool, unique } from '../helpers.ts';

let owner: Actor;
let stranger: Actor;

beforeAll(async () => {
  [owner, stranger] = await Promise.all([createUser('Owner'), createUser('Stranger')]);
});

async function metadataLocale(id: string | null): Promise<unknown> {
  const { rows } = await adminPool().query(
    `select raw_user_meta_data ->> 'locale' as locale from auth.users where id = $1`,
    [id],
  );
  return rows[0]?.locale;
}

describe('holds on: postgres — profiles.language', () => {
  it('is English for a sign-up without a locale, and Filipino for one that signed up in Filipino', async () => {
    expect(await run(owner, 'select language from public.profiles where id = $1', [owner.id])).toEqual([
      { language: 'en' },
    ]);
    const id = randomUUID();
    await adminPool().query(
      `insert into auth.users (instance_id, id, aud, role, email, raw_user_meta_data, created_at, updated_at)
       values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', $2,
               '{"name":"Juan","locale":"fil"}', now(), now())`,
      [id, `${unique('fil')}@test.local`],
    );
    const { rows } = await adminPool().query('select language from public.profiles where id = $1', [id]);
    expect(rows).toEqual([{ language: 'fil' }]);
  });

  it('a sign-up locale other than fil gives English', async () => {
    const id = randomUUID();
    await adminPool().query(
      `insert into auth.users (instance_id, id, aud, role, email, raw_user_meta_data, created_at, updated_at)
       values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', $2,
               '{"locale":"<script>"}', now(), now())`,
      [id, `${unique('xx')}@test.local`],
    );
    const { rows } = await adminPool().query('select language from public.profiles where id = $1', [id]);
    expect(rows).toEqual([{ language: 'en' }]);
  });

  it('the owner changes it, and the change reaches the metadata the Auth e-mails read', async () => {
    expect(
      await affected(owner, `update public.profiles set language = 'fil' where id = $1`, [owner.id]),
    ).toBe(1);
    expect(await metadataLocale(owner.id)).toBe('fil');
    expect(
      await affected(owner, `update public.profiles set language = 'en' where id = $1`, [owner.id]),
    ).toBe(1);
    expect(await metadataLocale(owner.id)).toBe('en');
  });

  it('only English and Filipino are accepted, and nothing changes on a refusal', async () => {
    await expect(
      run(owner, `update public.profiles set language = 'de' where id = $1`, [owner.id]),
    ).rejects.toThrow(/profiles_language_check/);
    expect(await run(owner, 'select language from public.profiles where id = $1', [owner.id])).toEqual([
      { language: 'en' },
    ]);
  });

  it("a stranger cannot change someone else's language", async () => {
    expect(
      await affected(stranger, `update public.profiles set language = 'fil' where id = $1`, [owner.id]),
    ).toBe(0);
    expect(await metadataLocale(owner.id)).toBe('en');
  });
});

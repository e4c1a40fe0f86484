/**
 * Storage policies of the evidence, avatars and news-banners buckets, tested on storage.objects rows
 * as the Storage API writes them (it runs as the caller's role, so these policies decide). Nobody writes
 * to these buckets as themselves (issue 11): images arrive only through the functions that clean them,
 * which store with the service role (`stored` below); users read and delete in their own folder.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { affected, anon, createUser, run, type Actor } from './actors.ts';
import { withRole } from '../helpers.ts';
import { adminPool } from '../helpers.ts';

let owner: Actor;
let stranger: Actor;
let admin: Actor;

beforeAll(async () => {
  [owner, stranger, admin] = await Promise.all([
    createUser('Owner'),
    createUser('Stranger'),
    createUser('Admin', { admin: true }),
  ]);
});

function put(actor: Actor, bucket: string, name: string) {
  return run(
    actor,
    `insert into storage.objects (bucket_id, name, owner, owner_id, metadata) values ($1, $2, $3::uuid, $3::text, '{"size": 1000, "mimetype": "image/png"}') returning id`,
    [bucket, name, actor.id],
  );
}
/** An object as the upload-image function stores it: with the service role, which bypasses RLS. */
async function stored(bucket: string, name: string) {
  await adminPool().query(
    `insert into storage.objects (bucket_id, name, metadata) values ($1, $2, '{"size": 1000, "mimetype": "image/png"}')`,
    [bucket, name],
  );
}
const see = (actor: Actor, bucket: string, name: string) =>
  run(actor, 'select name from storage.objects where bucket_id = $1 and name = $2', [bucket, name]);
const rename = (actor: Actor, bucket: string, name: string) =>
  affected(actor, `update storage.objects set metadata = '{"size": 2}' where bucket_id = $1 and name = $2`, [
    bucket,
    name,
  ]);
// The Storage API marks its own deletes (storage.allow_delete_query); plain SQL deletes are refused.
const remove = (actor: Actor, bucket: string, name: string) =>
  withRole(adminPool(), actor.claims, async (c) => {
    await c.query(`select set_config('storage.allow_delete_query', 'true', true)`);
    return (await c.query('delete from storage.objects where bucket_id = $1 and name = $2', [bucket, name]))
      .rowCount;
  });

const RLS = /row-level security/;

describe('holds on: postgres — no direct writes to the image buckets, by anyone (uploads go through the cleaning functions)', () => {
  it.each(['evidence', 'avatars', 'news-banners'])(
    '%s: owner, stranger, admin and anon can neither insert nor update',
    async (bucket) => {
      for (const actor of [owner, stranger, admin, anon]) {
        await expect(
          put(actor, bucket, `${actor.id ?? 'anon'}/${randomUUID()}.png`),
          `${actor.name} ${bucket}`,
        ).rejects.toThrow(RLS);
      }
      const name = `${owner.id}/${randomUUID()}.png`;
      await stored(bucket, name);
      for (const actor of [owner, stranger, admin])
        expect(await rename(actor, bucket, name), `${actor.name} ${bucket}`).toBe(0);
    },
  );
});

describe('evidence bucket (private, owner folder)', () => {
  it('the reporter reads and deletes evidence in their own folder', async () => {
    const name = `${owner.id}/${randomUUID()}.png`;
    await stored('evidence', name);
    expect(await see(owner, 'evidence', name)).toEqual([{ name }]);
    expect(await remove(owner, 'evidence', name)).toBe(1);
  });

  it('a stranger and anon neither read nor delete it; an admin reads it', async () => {
    const name = `${owner.id}/${randomUUID()}.png`;
    await stored('evidence', name);
    expect(await see(stranger, 'evidence', name)).toEqual([]);
    expect(await see(anon, 'evidence', name)).toEqual([]);
    expect(await remove(stranger, 'evidence', name)).toBe(0);
    expect(await remove(anon, 'evidence', name)).toBe(0);
    expect(await see(admin, 'evidence', name)).toEqual([{ name }]);
  });
});

describe('avatars bucket (public URL read, owner folder)', () => {
  it('a user lists and deletes their avatar; others cannot list the bucket (files are served by public URL)', async () => {
    const name = `${owner.id}/avatar.png`;
    await stored('avatars', name);
    expect(await see(owner, 'avatars', name)).toEqual([{ name }]);
    expect(await see(anon, 'avatars', name)).toEqual([]);
    expect(await see(stranger, 'avatars', name)).toEqual([]);
    expect(await remove(stranger, 'avatars', name)).toBe(0);
    expect(await remove(anon, 'avatars', name)).toBe(0);
    expect(await remove(owner, 'avatars', name)).toBe(1);
  });
});

describe('news-banners bucket (public URL read, admin)', () => {
  it('an admin lists and deletes banners; others can neither list nor delete them', async () => {
    const name = `${randomUUID()}.webp`;
    await stored('news-banners', name);
    expect(await see(admin, 'news-banners', name)).toEqual([{ name }]);
    expect(await see(anon, 'news-banners', name)).toEqual([]);
    expect(await see(owner, 'news-banners', name)).toEqual([]);
    expect(await remove(owner, 'news-banners', name)).toBe(0);
    expect(await remove(admin, 'news-banners', name)).toBe(1);
  });
});

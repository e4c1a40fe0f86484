/**
 * Storage policies of the evidence, avatars and news-banners buckets, tested on storage.objects rows
 * as the Storage API writes them (it runs as the caller's role, so these policies decide).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { affected, anon, createUser, run, type Actor } from './actors.ts';
import { withRole } from '../../local/db.ts';
import { adminPool } from '../helpers.ts';

let owner: Actor;
let stranger: Actor;
let admin: Actor;

beforeAll(async () => {
  [owner, stranger, admin] = await Promise.all([createUser('Owner'), createUser('Stranger'), createUser('Admin', { admin: true })]);
});

function put(actor: Actor, bucket: string, name: string) {
  return run(actor, `insert into storage.objects (bucket_id, name, owner, owner_id, metadata) values ($1, $2, $3::uuid, $3::text, '{"size": 1000, "mimetype": "image/png"}') returning id`, [
    bucket,
    name,
    actor.id,
  ]);
}
const see = (actor: Actor, bucket: string, name: string) =>
  run(actor, 'select name from storage.objects where bucket_id = $1 and name = $2', [bucket, name]);
const rename = (actor: Actor, bucket: string, name: string) =>
  affected(actor, `update storage.objects set metadata = '{"size": 2}' where bucket_id = $1 and name = $2`, [bucket, name]);
// The Storage API marks its own deletes (storage.allow_delete_query); plain SQL deletes are refused.
const remove = (actor: Actor, bucket: string, name: string) =>
  withRole(adminPool(), actor.claims, async (c) => {
    await c.query(`select set_config('storage.allow_delete_query', 'true', true)`);
    return (await c.query('delete from storage.objects where bucket_id = $1 and name = $2', [bucket, name])).rowCount;
  });

describe('evidence bucket (private, owner folder)', () => {
  it('the reporter uploads, reads, replaces and deletes evidence in their own folder', async () => {
    const name = `${owner.id}/${randomUUID()}.png`;
    await put(owner, 'evidence', name);
    expect(await see(owner, 'evidence', name)).toEqual([{ name }]);
    expect(await rename(owner, 'evidence', name)).toBe(1);
    expect(await remove(owner, 'evidence', name)).toBe(1);
  });

  it('nobody uploads into someone else\'s folder', async () => {
    await expect(put(stranger, 'evidence', `${owner.id}/planted.png`)).rejects.toThrow(/row-level security/);
    await expect(put(stranger, 'evidence', `planted.png`)).rejects.toThrow(/row-level security/);
  });

  it('a stranger and anon neither read, change nor delete it; an admin reads it', async () => {
    const name = `${owner.id}/${randomUUID()}.png`;
    await put(owner, 'evidence', name);
    expect(await see(stranger, 'evidence', name)).toEqual([]);
    expect(await see(anon, 'evidence', name)).toEqual([]);
    expect(await rename(stranger, 'evidence', name)).toBe(0);
    expect(await remove(stranger, 'evidence', name)).toBe(0);
    expect(await remove(anon, 'evidence', name)).toBe(0);
    expect(await see(admin, 'evidence', name)).toEqual([{ name }]);
  });

  it('anon cannot upload evidence', async () => {
    await expect(put(anon, 'evidence', `${owner.id}/anon.png`)).rejects.toThrow(/row-level security/);
  });
});

describe('avatars bucket (public URL read, owner folder write)', () => {
  it('a user uploads, lists and replaces their avatar; others cannot list the bucket (files are served by public URL)', async () => {
    const name = `${owner.id}/avatar.png`;
    await put(owner, 'avatars', name);
    expect(await see(owner, 'avatars', name)).toEqual([{ name }]);
    expect(await see(anon, 'avatars', name)).toEqual([]);
    expect(await see(stranger, 'avatars', name)).toEqual([]);
    expect(await rename(owner, 'avatars', name)).toBe(1);
  });

  it('nobody else changes, deletes or plants an avatar in a user\'s folder', async () => {
    const name = `${owner.id}/keep.png`;
    await put(owner, 'avatars', name);
    expect(await rename(stranger, 'avatars', name)).toBe(0);
    expect(await remove(stranger, 'avatars', name)).toBe(0);
    expect(await remove(anon, 'avatars', name)).toBe(0);
    await expect(put(stranger, 'avatars', `${owner.id}/fake.png`)).rejects.toThrow(/row-level security/);
    await expect(put(anon, 'avatars', `${owner.id}/fake.png`)).rejects.toThrow(/row-level security/);
    expect(await remove(owner, 'avatars', name)).toBe(1);
  });
});

describe('news-banners bucket (public URL read, admin write)', () => {
  it('an admin uploads, lists, replaces and deletes banners; others cannot list them', async () => {
    const name = `${randomUUID()}.webp`;
    await put(admin, 'news-banners', name);
    expect(await see(admin, 'news-banners', name)).toEqual([{ name }]);
    expect(await see(anon, 'news-banners', name)).toEqual([]);
    expect(await see(owner, 'news-banners', name)).toEqual([]);
    expect(await rename(admin, 'news-banners', name)).toBe(1);
    expect(await remove(owner, 'news-banners', name)).toBe(0);
    expect(await rename(owner, 'news-banners', name)).toBe(0);
    expect(await remove(admin, 'news-banners', name)).toBe(1);
  });

  it('users and anon cannot upload banners', async () => {
    await expect(put(owner, 'news-banners', `${owner.id}/b.png`)).rejects.toThrow(/row-level security/);
    await expect(put(anon, 'news-banners', 'b.png')).rejects.toThrow(/row-level security/);
  });
});

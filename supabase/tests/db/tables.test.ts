/**
 * Row-level security of every table besides reports, acting as anon, the owner, a stranger and an admin
 * for select, insert, update and delete.
 */
import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { beforeAll, describe, expect, it } from 'vitest';
import { affected, anon, createUser, fileReport, run, serviceRole, setStatus, type Actor } from './actors.ts';
import { anonClient, serviceClient } from '../auth-helpers.ts';
import { adminPool, unique } from '../helpers.ts';

let owner: Actor;
let stranger: Actor;
let admin: Actor;

beforeAll(async () => {
  [owner, stranger, admin] = await Promise.all([
    createUser('Maria <b>Owner</b>'),
    createUser('Stranger'),
    createUser('Admin', { admin: true }),
  ]);
});

describe('holds on: postgres — profiles', () => {
  it('sign-up creates a profile with the name from the sign-up metadata, stored as plain text', async () => {
    expect(await run(owner, 'select id, name, email from public.profiles where id = $1', [owner.id])).toEqual(
      [{ id: owner.id, name: 'Maria <b>Owner</b>', email: owner.email }],
    );
  });

  it('a user updates their own name and avatar path', async () => {
    expect(
      await affected(owner, `update public.profiles set name = 'Maria', avatar_path = $2 where id = $1`, [
        owner.id,
        `${owner.id}/a.png`,
      ]),
    ).toBe(1);
  });

  it("an avatar path must be in the user's own avatars folder", async () => {
    await expect(
      run(owner, 'update public.profiles set avatar_path = $2 where id = $1', [
        owner.id,
        `${stranger.id}/a.png`,
      ]),
    ).rejects.toThrow(/row-level security/);
  });

  it('a user cannot change their e-mail copy or id', async () => {
    await expect(
      run(owner, `update public.profiles set email = 'x@y.z' where id = $1`, [owner.id]),
    ).rejects.toThrow(/permission denied/);
  });

  it("a stranger neither reads nor updates someone else's profile", async () => {
    expect(await run(stranger, 'select * from public.profiles where id = $1', [owner.id])).toEqual([]);
    expect(
      await affected(stranger, `update public.profiles set name = 'pwned' where id = $1`, [owner.id]),
    ).toBe(0);
  });

  it('users cannot insert or delete profiles (the auth trigger and cascade do)', async () => {
    await expect(
      run(owner, `insert into public.profiles (id, name) values (gen_random_uuid(), 'x')`),
    ).rejects.toThrow(/permission denied/);
    await expect(run(owner, 'delete from public.profiles where id = $1', [owner.id])).rejects.toThrow(
      /permission denied/,
    );
  });

  it('anon reads no profiles', async () => {
    await expect(run(anon, 'select * from public.profiles')).rejects.toThrow(/permission denied/);
  });

  it('an admin reads every profile (Registered Users)', async () => {
    const rows = await run(admin, 'select id from public.profiles where id in ($1, $2)', [
      owner.id,
      stranger.id,
    ]);
    expect(rows).toHaveLength(2);
  });

  it('an e-mail change in auth is copied to the profile', async () => {
    const u = await createUser('Mover');
    await adminPool().query(`update auth.users set email = 'moved-' || email where id = $1`, [u.id]);
    const [p] = await run(u, 'select email from public.profiles where id = $1', [u.id]);
    expect(p.email).toBe(`moved-${u.email}`);
  });
});

describe('holds on: postgres — user_roles', () => {
  it('a user reads only their own roles; an admin sees that they are admin', async () => {
    expect(await run(owner, 'select role from public.user_roles')).toEqual([]);
    expect(await run(admin, 'select role from public.user_roles where user_id = $1', [admin.id])).toEqual([
      { role: 'admin' },
    ]);
  });

  it('nobody grants themselves admin through the API', async () => {
    await expect(
      run(owner, `insert into public.user_roles (user_id, role) values ($1, 'admin')`, [owner.id]),
    ).rejects.toThrow(/permission denied/);
    await expect(
      run(admin, `insert into public.user_roles (user_id, role) values ($1, 'admin')`, [owner.id]),
    ).rejects.toThrow(/permission denied/);
    await expect(run(owner, `select private.grant_admin($1)`, [owner.id])).rejects.toThrow(
      /permission denied/,
    );
  });

  it('nobody changes or drops roles through the API, not even an admin', async () => {
    await expect(run(admin, `update public.user_roles set user_id = $1`, [owner.id])).rejects.toThrow(
      /permission denied/,
    );
    await expect(run(admin, 'delete from public.user_roles where user_id = $1', [admin.id])).rejects.toThrow(
      /permission denied/,
    );
    await expect(run(admin, `select private.revoke_admin($1)`, [admin.id])).rejects.toThrow(
      /permission denied/,
    );
  });

  it('anon reads no roles', async () => {
    await expect(run(anon, 'select * from public.user_roles')).rejects.toThrow(/permission denied/);
  });

  it('private.grant_admin and revoke_admin switch admin rights on and off', async () => {
    const u = await createUser('Temp admin');
    await expect(run(u, 'select public.admin_app_stats()')).rejects.toThrow(/only admins/);
    await adminPool().query('select private.grant_admin($1)', [u.id]);
    await adminPool().query('select private.grant_admin($1)', [u.id]); // granting twice is harmless
    expect(await run(u, 'select public.admin_app_stats() is not null as ok')).toEqual([{ ok: true }]);
    await adminPool().query('select private.revoke_admin($1)', [u.id]);
    await expect(run(u, 'select public.admin_app_stats()')).rejects.toThrow(/only admins/);
  });
});

describe('holds on: postgres — news', () => {
  const insertNews = `insert into public.news (news_title, news_description, tags) values ($1, 'Body', '{sms}') returning id, author_id`;

  it('an admin adds, edits and deletes news, signed as the author', async () => {
    const [n] = await run(admin, insertNews, ['Admin article']);
    expect(n.author_id).toBe(admin.id);
    expect(await affected(admin, `update public.news set news_title = 'Edited' where id = $1`, [n.id])).toBe(
      1,
    );
    expect(await affected(admin, 'delete from public.news where id = $1', [n.id])).toBe(1);
  });

  it('a regular user cannot add news', async () => {
    await expect(run(owner, insertNews, ['Fake news'])).rejects.toThrow(/row-level security/);
  });

  it('anon cannot add news', async () => {
    await expect(run(anon, insertNews, ['Fake news'])).rejects.toThrow(/permission denied/);
  });

  it('anyone reads news; users cannot edit or delete it', async () => {
    const [n] = await run(admin, insertNews, ['Public article']);
    expect(await run(anon, 'select news_title from public.news where id = $1', [n.id])).toEqual([
      { news_title: 'Public article' },
    ]);
    expect(await run(owner, 'select news_title from public.news where id = $1', [n.id])).toEqual([
      { news_title: 'Public article' },
    ]);
    expect(await affected(owner, `update public.news set news_title = 'x' where id = $1`, [n.id])).toBe(0);
    expect(await affected(owner, 'delete from public.news where id = $1', [n.id])).toBe(0);
    await expect(run(anon, 'delete from public.news where id = $1', [n.id])).rejects.toThrow(
      /permission denied/,
    );
  });

  describe('through supabase-js, as the app calls it', () => {
    /** A 1x1 PNG: the news-banners bucket takes images only. */
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64',
    );

    /** A user who signs in with a password, as in the browser; `admin` also gets the admin role. */
    async function signedIn({ admin: isAdmin = false } = {}): Promise<{
      client: SupabaseClient;
      id: string;
    }> {
      const email = `${unique('news')}@example.com`;
      const password = 'a plain user password';
      const created = await serviceClient().auth.admin.createUser({ email, password, email_confirm: true });
      expect(created.error).toBeNull();
      const id = created.data.user!.id;
      if (isAdmin) await adminPool().query('select private.grant_admin($1)', [id]);
      const client = anonClient();
      expect((await client.auth.signInWithPassword({ email, password })).error).toBeNull();
      return { client, id };
    }

    /** An article with a banner in storage, arranged as the admin actor and the service role. */
    async function articleWithBanner() {
      const bannerPath = `${admin.id}/${randomUUID()}.png`;
      expect(
        (
          await serviceClient()
            .storage.from('news-banners')
            .upload(bannerPath, png, { contentType: 'image/png' })
        ).error,
      ).toBeNull();
      const [n] = await run(
        admin,
        `insert into public.news (news_title, news_description, banner_path) values ('Kept article', 'Body', $1) returning id`,
        [bannerPath],
      );
      return { id: n.id as string, bannerPath };
    }

    const bannerExists = async (path: string) =>
      (
        await adminPool().query(
          `select 1 from storage.objects where bucket_id = 'news-banners' and name = $1`,
          [path],
        )
      ).rowCount === 1;

    it('a signed-in user who is not an admin can neither edit nor delete an article, nor touch its banner', async () => {
      const { client } = await signedIn();
      const { id, bannerPath } = await articleWithBanner();

      // RLS hides the row from the update and the delete: PostgREST answers with no rows, not an error.
      const updated = await client.from('news').update({ news_title: 'Hijacked' }).eq('id', id).select('id');
      expect(updated.error).toBeNull();
      expect(updated.data).toEqual([]);
      const deleted = await client.from('news').delete().eq('id', id).select('id');
      expect(deleted.error).toBeNull();
      expect(deleted.data).toEqual([]);
      const removed = await client.storage.from('news-banners').remove([bannerPath]);
      expect(removed.data ?? []).toEqual([]);
      const replaced = await client.storage
        .from('news-banners')
        .upload(bannerPath, png, { contentType: 'image/png', upsert: true });
      expect(replaced.error?.message).toMatch(/row-level security/);

      expect(await run(anon, 'select news_title, banner_path from public.news where id = $1', [id])).toEqual([
        { news_title: 'Kept article', banner_path: bannerPath },
      ]);
      expect(await bannerExists(bannerPath)).toBe(true);
    });

    it('an admin edits an article, then deletes it and its banner', async () => {
      const { client } = await signedIn({ admin: true });
      const { id, bannerPath } = await articleWithBanner();

      const updated = await client
        .from('news')
        .update({ news_title: 'Edited by an admin', tags: ['sms'] })
        .eq('id', id)
        .select('id, news_title');
      expect(updated.error).toBeNull();
      expect(updated.data).toEqual([{ id, news_title: 'Edited by an admin' }]);
      const deleted = await client.from('news').delete().eq('id', id).select('id, banner_path');
      expect(deleted.data).toEqual([{ id, banner_path: bannerPath }]);
      const removed = await client.storage.from('news-banners').remove([bannerPath]);
      expect(removed.error).toBeNull();
      expect(removed.data).toHaveLength(1);

      expect(await run(anon, 'select id from public.news where id = $1', [id])).toEqual([]);
      expect(await bannerExists(bannerPath)).toBe(false);
    });
  });

  it("an admin cannot post news in another admin's name", async () => {
    await expect(
      run(admin, `insert into public.news (news_title, news_description, author_id) values ('t', 'b', $1)`, [
        owner.id,
      ]),
    ).rejects.toThrow(/row-level security/);
  });
});

describe('holds on: postgres — contact_messages', () => {
  it('anon sends a message; script is kept as plain text', async () => {
    const msg = '<script>steal()</script>';
    expect(
      await affected(
        anon,
        `insert into public.contact_messages (nickname, email, subject, message) values ('n', 'n@x.y', 's', $1)`,
        [msg],
      ),
    ).toBe(1);
    const { rows } = await adminPool().query(
      'select message, user_id from public.contact_messages where message = $1',
      [msg],
    );
    expect(rows[0]).toEqual({ message: msg, user_id: null });
  });

  it('a signed-in user sends as themselves', async () => {
    await run(owner, `insert into public.contact_messages (message) values ('from owner')`);
    const { rows } = await adminPool().query(
      `select user_id from public.contact_messages where message = 'from owner'`,
    );
    expect(rows[0].user_id).toBe(owner.id);
  });

  it('a message must have text', async () => {
    await expect(run(anon, `insert into public.contact_messages (message) values ('   ')`)).rejects.toThrow(
      /check constraint/,
    );
  });

  it('nobody but admins reads the inbox', async () => {
    await expect(run(anon, 'select * from public.contact_messages')).rejects.toThrow(/permission denied/);
    expect(await run(owner, 'select * from public.contact_messages')).toEqual([]);
    expect((await run(admin, 'select id from public.contact_messages')).length).toBeGreaterThan(0);
  });

  it('only admins mark messages handled or delete them', async () => {
    const { rows } = await adminPool().query(
      `insert into public.contact_messages (message) values ('to handle') returning id`,
    );
    expect(
      await affected(owner, 'update public.contact_messages set handled_at = now() where id = $1', [
        rows[0].id,
      ]),
    ).toBe(0);
    expect(await affected(owner, 'delete from public.contact_messages where id = $1', [rows[0].id])).toBe(0);
    await expect(run(anon, 'update public.contact_messages set handled_at = now()')).rejects.toThrow(
      /permission denied/,
    );
    expect(
      await affected(admin, 'update public.contact_messages set handled_at = now() where id = $1', [
        rows[0].id,
      ]),
    ).toBe(1);
    expect(await affected(admin, 'delete from public.contact_messages where id = $1', [rows[0].id])).toBe(1);
  });

  it('a sender cannot pretend to be someone else or pre-mark a message handled', async () => {
    await expect(
      run(anon, `insert into public.contact_messages (message, handled_at) values ('x', now())`),
    ).rejects.toThrow(/permission denied/);
  });
});

describe('holds on: postgres — notify_registrations and notifications', () => {
  it('a user registers identifiers; one row per canonical identifier', async () => {
    const rows = await run(
      owner,
      `insert into public.notify_registrations (asset_name) values ('0917 888 1234') returning identifier_kind, identifier_canonical, user_id`,
    );
    expect(rows).toEqual([
      { identifier_kind: 'mobile', identifier_canonical: '+639178881234', user_id: owner.id },
    ]);
    await expect(
      run(owner, `insert into public.notify_registrations (asset_name) values ('+63-917-888-1234')`),
    ).rejects.toThrow(/duplicate key/);
  });

  it('registrations are private to their owner', async () => {
    const [r] = await run(
      owner,
      `insert into public.notify_registrations (asset_name) values ('watch@example.com') returning id`,
    );
    expect(await run(stranger, 'select * from public.notify_registrations where id = $1', [r.id])).toEqual(
      [],
    );
    expect(await run(admin, 'select * from public.notify_registrations where id = $1', [r.id])).toEqual([]);
    expect(
      await affected(stranger, `update public.notify_registrations set asset_name = 'x@y.z' where id = $1`, [
        r.id,
      ]),
    ).toBe(0);
    expect(await affected(stranger, 'delete from public.notify_registrations where id = $1', [r.id])).toBe(0);
    await expect(run(anon, 'select * from public.notify_registrations')).rejects.toThrow(/permission denied/);
    await expect(
      run(anon, `insert into public.notify_registrations (asset_name) values ('x')`),
    ).rejects.toThrow(/permission denied/);
    expect(
      await affected(
        owner,
        `update public.notify_registrations set asset_name = 'Watch2@Example.com' where id = $1`,
        [r.id],
      ),
    ).toBe(1);
    expect(await affected(owner, 'delete from public.notify_registrations where id = $1', [r.id])).toBe(1);
  });

  it('a user cannot register identifiers for someone else', async () => {
    await expect(
      run(owner, `insert into public.notify_registrations (user_id, asset_name) values ($1, 'a@b.cd')`, [
        stranger.id,
      ]),
    ).rejects.toThrow(/row-level security/);
  });

  it('a new report on a registered identifier notifies the watcher, privately', async () => {
    const watcher = await createUser('Watcher');
    await run(
      watcher,
      `insert into public.notify_registrations (asset_name) values ('HTTPS://www.Watched-Scam.example/x')`,
    );
    const r = await fileReport(stranger, {
      reported_account_type: 'website',
      reported_account: 'watched-scam.example',
    });
    const notes = await run(watcher, 'select id, kind, report_id, identifier from public.notifications');
    expect(notes).toEqual([
      {
        id: expect.any(String),
        kind: 'identifier_reported',
        report_id: r.id,
        identifier: 'watched-scam.example',
      },
    ]);
    expect(await run(stranger, 'select * from public.notifications where id = $1', [notes[0].id])).toEqual(
      [],
    );
    expect(await run(admin, 'select * from public.notifications where id = $1', [notes[0].id])).toEqual([]);
    await expect(run(anon, 'select * from public.notifications')).rejects.toThrow(/permission denied/);
    expect(
      await affected(stranger, 'update public.notifications set read_at = now() where id = $1', [
        notes[0].id,
      ]),
    ).toBe(0);
    expect(await affected(stranger, 'delete from public.notifications where id = $1', [notes[0].id])).toBe(0);
    expect(
      await affected(watcher, 'update public.notifications set read_at = now() where id = $1', [notes[0].id]),
    ).toBe(1);
    await expect(
      run(watcher, `update public.notifications set kind = 'removal_requested' where id = $1`, [notes[0].id]),
    ).rejects.toThrow(/permission denied/);
    await expect(
      run(watcher, `insert into public.notifications (user_id, kind) values ($1, 'identifier_reported')`, [
        watcher.id,
      ]),
    ).rejects.toThrow(/permission denied/);
    expect(await affected(watcher, 'delete from public.notifications where id = $1', [notes[0].id])).toBe(1);
  });
});

describe('a reporter who also watches the identifier', () => {
  it('is not notified of their own report, when filed or verified; another watcher is, both times', async () => {
    const reporter = await createUser('Watching reporter');
    const other = await createUser('Other watcher');
    const site = `own-${randomUUID().slice(0, 8)}.example`;
    for (const u of [reporter, other])
      await run(u, 'insert into public.notify_registrations (asset_name) values ($1)', [site]);
    const r = await fileReport(reporter, { reported_account_type: 'website', reported_account: site });
    const notes = (u: Actor) =>
      run(u, 'select kind, report_id from public.notifications where identifier = $1', [site]);
    expect(await notes(reporter)).toEqual([]);
    expect(await notes(other)).toEqual([{ kind: 'identifier_reported', report_id: r.id }]);
    await setStatus(r.id, 'verified');
    expect(await notes(reporter)).toEqual([]);
    expect(await notes(other)).toEqual([
      { kind: 'identifier_reported', report_id: r.id },
      { kind: 'identifier_reported', report_id: r.id },
    ]);
  });
});

describe('holds on: postgres — removal_requests', () => {
  it('a signed-in user requests removal; the reporter is notified once the contact address is confirmed, and can answer', async () => {
    const r = await fileReport(owner);
    const [req] = await run(
      stranger,
      `insert into public.removal_requests (report_id, reason, contact_email) values ($1, 'Not a scammer', 'me@x.ph') returning id, status, requester_id`,
      [r.id],
    );
    expect(req).toMatchObject({ status: 'open', requester_id: stranger.id });
    expect(await run(owner, `select kind from public.notifications where report_id = $1`, [r.id])).toEqual(
      [],
    );
    await adminPool().query('update public.removal_requests set contact_confirmed_at = now() where id = $1', [
      req.id,
    ]);
    expect(await run(owner, `select kind from public.notifications where report_id = $1`, [r.id])).toEqual([
      { kind: 'removal_requested' },
    ]);
    // The reporter reads it through my_report_removal_requests (never the table, which holds the
    // requester's address: reporter-answers.test.ts) and answers through answer_removal_request.
    expect(
      await run(owner, 'select id from public.my_report_removal_requests() where id = $1', [req.id]),
    ).toEqual([{ id: req.id }]);
    const [ans] = await run(
      owner,
      `select public.answer_removal_request($1, 'I was scammed, see evidence') ->> 'responded_at' is not null as answered`,
      [req.id],
    );
    expect(ans).toEqual({ answered: true });
  });

  it('the reporter cannot resolve the request and a third user sees nothing', async () => {
    const r = await fileReport(owner);
    const [req] = await run(
      stranger,
      `insert into public.removal_requests (report_id, reason, contact_email) values ($1, 'r', 'me@x.ph') returning id`,
      [r.id],
    );
    expect(
      await affected(owner, `update public.removal_requests set status = 'dismissed' where id = $1`, [
        req.id,
      ]),
    ).toBe(0);
    const { rows } = await adminPool().query('select status from public.removal_requests where id = $1', [
      req.id,
    ]);
    expect(rows).toEqual([{ status: 'open' }]);
    const third = await createUser('Third');
    expect(await run(third, 'select * from public.removal_requests where id = $1', [req.id])).toEqual([]);
    expect(
      await affected(third, `update public.removal_requests set reporter_response = 'x' where id = $1`, [
        req.id,
      ]),
    ).toBe(0);
    expect(await affected(owner, 'delete from public.removal_requests where id = $1', [req.id])).toBe(0);
  });

  it('anon cannot file or read removal requests; nobody files one as resolved', async () => {
    const r = await fileReport(owner);
    await expect(
      run(
        anon,
        `insert into public.removal_requests (report_id, reason, contact_email) values ($1, 'r', 'a@b.c')`,
        [r.id],
      ),
    ).rejects.toThrow(/permission denied/);
    await expect(run(anon, 'select * from public.removal_requests')).rejects.toThrow(/permission denied/);
    await expect(
      run(
        stranger,
        `insert into public.removal_requests (report_id, reason, contact_email, status) values ($1, 'r', 'a@b.c', 'report_removed')`,
        [r.id],
      ),
    ).rejects.toThrow(/permission denied/);
  });

  it('an admin resolves and deletes requests', async () => {
    const r = await fileReport(owner);
    const [req] = await run(
      stranger,
      `insert into public.removal_requests (report_id, reason, contact_email) values ($1, 'r', 'me@x.ph') returning id`,
      [r.id],
    );
    const [res] = await run(
      admin,
      `update public.removal_requests set status = 'dismissed' where id = $1 returning resolved_at is not null as resolved`,
      [req.id],
    );
    expect(res).toEqual({ resolved: true });
    expect(await affected(admin, 'delete from public.removal_requests where id = $1', [req.id])).toBe(1);
  });

  it('the removal window is exactly 7 days from the confirmed contact address: 6 days and 6 days 23 hours stay, 7 days 1 hour and 8 days go; a dismissed request never expires', async () => {
    // The last one is 8 days old but an admin dismissed it: only open requests expire.
    const ages = ['6 days', '6 days 23 hours', '7 days 1 hour', '8 days', '8 days'];
    const reports = [];
    for (const [i, age] of ages.entries()) {
      const r = await fileReport(owner);
      await adminPool().query(
        `insert into public.removal_requests (report_id, requester_id, reason, contact_email, created_at, contact_confirmed_at, status)
         values ($1, $2, 'window', 'a@b.cd', now() - interval '30 days', now() - $3::interval, $4)`,
        [r.id, stranger.id, age, i === 4 ? 'dismissed' : 'open'],
      );
      reports.push(r.id);
    }
    const service: Actor = { name: 'service', id: null, email: null, claims: { role: 'service_role' } };
    await run(service, 'select public.expire_removal_requests()');
    const { rows } = await adminPool().query(
      `select r.status as report, rr.status as request from unnest($1::uuid[]) with ordinality as t(id, n)
       join public.reports r on r.id = t.id join public.removal_requests rr on rr.report_id = t.id order by t.n`,
      [reports],
    );
    expect(rows).toEqual([
      { report: 'pending', request: 'open' },
      { report: 'pending', request: 'open' },
      { report: 'removed', request: 'report_removed' },
      { report: 'removed', request: 'report_removed' },
      { report: 'pending', request: 'dismissed' },
    ]);
  });

  it('an unanswered request older than a week removes the report; an answered one waits for an admin', async () => {
    const quiet = await fileReport(owner);
    const answered = await fileReport(owner);
    const { rows } = await adminPool().query(
      `insert into public.removal_requests (report_id, requester_id, reason, contact_email, created_at, contact_confirmed_at, reporter_response, responded_at)
       values ($1, $3, 'old', 'a@b.cd', now() - interval '8 days', now() - interval '8 days', null, null),
              ($2, $3, 'old', 'a@b.cd', now() - interval '8 days', now() - interval '8 days', 'no', now() - interval '1 day') returning id`,
      [quiet.id, answered.id, stranger.id],
    );
    await expect(run(admin, 'select public.expire_removal_requests()')).rejects.toThrow(/permission denied/);
    const service: Actor = { name: 'service', id: null, email: null, claims: { role: 'service_role' } };
    // The count is not asserted: the removal-expiry job of a concurrently running test may have
    // expired this request first. What matters is the outcome for both reports.
    await run(service, 'select public.expire_removal_requests() as n');
    const { rows: st } = await adminPool().query(
      'select id, status from public.reports where id in ($1, $2) order by id = $1 desc',
      [quiet.id, answered.id],
    );
    expect(st).toEqual([
      { id: quiet.id, status: 'removed' },
      { id: answered.id, status: 'pending' },
    ]);
    expect(rows).toHaveLength(2);
  });
  it("an answer holds off only the requests it could answer: an old answer to a closed request does not, and a removed report's other open requests close with it", async () => {
    const service: Actor = { name: 'service', id: null, email: null, claims: { role: 'service_role' } };
    const second = await createUser('Second requester');
    const request = (report: unknown, requester: Actor, fields: Record<string, string | null>) =>
      adminPool().query<{ id: string }>(
        `insert into public.removal_requests (report_id, requester_id, reason, contact_email, status, created_at,
                                              contact_confirmed_at, reporter_response, responded_at)
         values ($1, $2, 'r', 'a@b.cd', $3, now() - $4::interval, now() - $5::interval, $6, now() - $7::interval)
         returning id`,
        [
          report,
          requester.id,
          fields.status,
          fields.created,
          fields.confirmed,
          fields.response,
          fields.responded,
        ],
      );
    // Reported long ago: the reporter answered a request 39 days ago, and an admin dismissed it. A new
    // request, confirmed 8 days ago, has no answer: the old answer is not one to it, so it expires.
    const old = await fileReport(owner);
    const dismissed = await request(old.id, stranger, {
      status: 'dismissed',
      created: '40 days',
      confirmed: '40 days',
      response: 'I was scammed',
      responded: '39 days',
    });
    const fresh = await request(old.id, second, {
      status: 'open',
      created: '8 days',
      confirmed: '8 days',
      response: null,
      responded: null,
    });
    // Two open requests on one report: the expired one removes it, and the newer, unconfirmed one is
    // settled with it.
    const both = await fileReport(owner);
    const expired = await request(both.id, stranger, {
      status: 'open',
      created: '9 days',
      confirmed: '8 days',
      response: null,
      responded: null,
    });
    const newer = await request(both.id, second, {
      status: 'open',
      created: '1 day',
      confirmed: null,
      response: null,
      responded: null,
    });
    await run(service, 'select public.expire_removal_requests()');
    const status = async (table: string, id: unknown) =>
      (await adminPool().query(`select status from public.${table} where id = $1`, [id])).rows[0].status;
    expect(await status('reports', old.id)).toBe('removed');
    expect(await status('removal_requests', dismissed.rows[0].id)).toBe('dismissed');
    expect(await status('removal_requests', fresh.rows[0].id)).toBe('report_removed');
    expect(await status('reports', both.id)).toBe('removed');
    expect(await status('removal_requests', expired.rows[0].id)).toBe('report_removed');
    expect(await status('removal_requests', newer.rows[0].id)).toBe('report_removed');
  });
});

describe('holds on: postgres — search_log, visitor_log and identifier_report_counts', () => {
  it('nobody writes the visitor log through the API: location and address hash come from the server (issue 11)', async () => {
    for (const actor of [anon, owner, admin]) {
      await expect(
        run(
          actor,
          `insert into public.visitor_log (path, city, country, loc, ip_hash) values ('/', 'Fakeville', 'XX', '10.3157,123.8854', 'ab12cd34ef56ab78')`,
        ),
      ).rejects.toThrow(/permission denied/);
      await expect(
        run(actor, `select public.record_visits(array['/'], null, '{"city": "Fakeville"}', null)`),
      ).rejects.toThrow(/permission denied/);
    }
  });

  it("record_visits (service role, for the visitor function) records each path with the verified user and the server's location", async () => {
    const marker = `/${Date.now()}-visits`;
    const visit = {
      city: 'Cebu City',
      region: 'Central Visayas',
      country: 'PH',
      loc: '10.3157,123.8854',
      org: null,
      postal: '6000',
      ip_hash: 'ab12cd34ef56ab78',
    };
    const [{ n }] = await run<{ n: number }>(
      serviceRole,
      'select public.record_visits($1, $2, $3, null) as n',
      [[marker, `${marker}/about`, 'https://evil.example/', null], owner.id, visit],
    );
    expect(n).toBe(4);
    const { rows } = await adminPool().query(
      `select path, city, region, country, loc, postal, ip_hash, user_id from public.visitor_log
       where user_id = $1 and (path like $2 or path is null) and created_at > now() - interval '1 minute' order by path nulls last`,
      [owner.id, `${marker}%`],
    );
    const located = {
      city: 'Cebu City',
      region: 'Central Visayas',
      country: 'PH',
      loc: '10.3157,123.8854',
      postal: '6000',
      ip_hash: 'ab12cd34ef56ab78',
      user_id: owner.id,
    };
    // A URL or nothing is not a site path: the visit counts, the path is not kept.
    expect(rows).toEqual([
      { path: marker, ...located },
      { path: `${marker}/about`, ...located },
      { path: null, ...located },
      { path: null, ...located },
    ]);
    await expect(run(serviceRole, 'select public.record_visits($1, null, null, null)', [[]])).rejects.toThrow(
      /1 to 20 visits/,
    );
    await expect(
      run(serviceRole, 'select public.record_visits($1, null, null, null)', [Array(21).fill('/')]),
    ).rejects.toThrow(/1 to 20 visits/);
  });

  it('record_visits takes each view from the visit limits per address and per user (429 past 60 a minute)', async () => {
    const ip = `81.2.${Math.floor(Math.random() * 200) + 10}.${Math.floor(Math.random() * 200) + 10}`;
    const twenty = Array(20).fill(`/${Date.now()}-limit`);
    for (let i = 0; i < 3; i++)
      await run(serviceRole, 'select public.record_visits($1, null, null, $2)', [twenty, ip]);
    await expect(
      run(serviceRole, 'select public.record_visits($1, null, null, $2)', [twenty, ip]),
    ).rejects.toThrow(/Too many visits recorded from your address/);
    const { rows } = await adminPool().query(
      'select count(*)::int as n from public.visitor_log where path = $1',
      [twenty[0]],
    );
    expect(rows[0].n).toBe(60);
    // Another address is not held back; a user is limited whatever address they come from.
    await run(serviceRole, 'select public.record_visits($1, null, null, $2)', [['/other'], '81.2.69.160']);
    const user = await createUser('Visitor');
    for (let i = 0; i < 3; i++)
      await run(serviceRole, 'select public.record_visits($1, $2, null, null)', [twenty, user.id]);
    await expect(
      run(serviceRole, 'select public.record_visits($1, $2, null, null)', [twenty, user.id]),
    ).rejects.toThrow(/from your account/);
  });

  it('raw IP addresses cannot be stored: only a hex hash is kept', async () => {
    const marker = `/${Date.now()}-raw-ip`;
    await run(serviceRole, 'select public.record_visits($1, null, $2, null)', [
      [marker],
      { ip_hash: '203.0.113.9', loc: 'here' },
    ]);
    const { rows } = await adminPool().query('select ip_hash, loc from public.visitor_log where path = $1', [
      marker,
    ]);
    expect(rows).toEqual([{ ip_hash: null, loc: null }]);
    await expect(
      adminPool().query(`insert into public.visitor_log (ip_hash) values ('203.0.113.9')`),
    ).rejects.toThrow(/check constraint/);
  });

  it('only admins read the logs; nobody edits or deletes them through the API', async () => {
    await run(anon, `select public.search_reports('0917 000 0000')`);
    await run(serviceRole, `select public.record_visits(array['/'], null, null, null)`);
    await expect(run(anon, 'select * from public.search_log')).rejects.toThrow(/permission denied/);
    await expect(run(anon, 'select * from public.visitor_log')).rejects.toThrow(/permission denied/);
    expect(await run(owner, 'select * from public.search_log')).toEqual([]);
    expect(await run(owner, 'select * from public.visitor_log')).toEqual([]);
    expect((await run(admin, 'select id from public.search_log limit 1')).length).toBe(1);
    expect((await run(admin, 'select id from public.visitor_log limit 1')).length).toBe(1);
    await expect(run(owner, `insert into public.search_log (search_string) values ('x')`)).rejects.toThrow(
      /permission denied/,
    );
    await expect(run(admin, 'delete from public.search_log')).rejects.toThrow(/permission denied/);
    await expect(run(admin, `update public.visitor_log set city = 'x'`)).rejects.toThrow(/permission denied/);
  });

  it('report counts per identifier count only visible reports and are reached through search, not listed', async () => {
    const account = `0917 ${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
    const a = await fileReport(owner, { reported_account: account });
    await fileReport(stranger, { reported_account: account });
    const c = await fileReport(stranger, { reported_account: account });
    await setStatus(c.id, 'rejected');
    await setStatus(a.id, 'verified');
    // The attack: anon listing every reported identifier, unreviewed ones included (issue 11).
    await expect(
      run(anon, 'select identifier_canonical from public.identifier_report_counts'),
    ).rejects.toThrow(/permission denied/);
    const search = await run<{ r: { count: number } }>(anon, 'select public.search_reports($1) as r', [
      account,
    ]);
    expect(search[0].r.count).toBe(2);
    // A reporter sees the count of what they reported (their report cards); nobody else's identifiers.
    expect(
      await run(
        owner,
        'select report_count, verified_count from public.identifier_report_counts where identifier_canonical = $1',
        [a.reported_account_canonical],
      ),
    ).toEqual([{ report_count: 2, verified_count: 1 }]);
    const other = await createUser('Lister');
    expect(await run(other, 'select identifier_canonical from public.identifier_report_counts')).toEqual([]);
    expect(
      (
        await run(admin, 'select 1 from public.identifier_report_counts where identifier_canonical = $1', [
          a.reported_account_canonical,
        ])
      ).length,
    ).toBe(1);
    await expect(run(owner, `update public.identifier_report_counts set report_count = 0`)).rejects.toThrow(
      /permission denied/,
    );
    await expect(run(anon, `delete from public.identifier_report_counts`)).rejects.toThrow(
      /permission denied/,
    );
  });
});

describe('holds on: postgres — stored object paths', () => {
  it('avatar_path, evidence_path and banner_path refuse "..", "." and empty segments with a clear message', async () => {
    const [before] = await run(owner, 'select avatar_path from public.profiles where id = $1', [owner.id]);
    const traversals = [
      `${owner.id}/../${stranger.id}/a.png`,
      `${owner.id}/./a.png`,
      `${owner.id}//a.png`,
      `${owner.id}/..`,
      `${owner.id}/a\\..\\b.png`,
    ];
    for (const path of traversals) {
      await expect(
        run(owner, 'update public.profiles set avatar_path = $1 where id = $2', [path, owner.id]),
        path,
      ).rejects.toThrow(/avatar_path must be a storage object name/);
      await expect(fileReport(owner, { evidence_path: path }), path).rejects.toThrow(
        /evidence_path must be a storage object name/,
      );
      await expect(
        run(
          admin,
          `insert into public.news (news_title, news_description, banner_path, author_id) values ('t', 'd', $1, $2)`,
          [path, admin.id],
        ),
        path,
      ).rejects.toThrow(/banner_path must be a storage object name/);
    }
    // Through REST the same answer is a 400 with the message.
    const { error } = await serviceClient()
      .from('profiles')
      .update({ avatar_path: `${owner.id}/../x.png` })
      .eq('id', owner.id);
    expect(error).toMatchObject({
      code: '23514',
      message:
        'avatar_path must be a storage object name such as <folder>/<file>: empty, "." and ".." segments are not allowed',
    });
    expect(await run(owner, 'select avatar_path from public.profiles where id = $1', [owner.id])).toEqual([
      before,
    ]);
    // Plain names still pass.
    expect(
      await affected(owner, 'update public.profiles set avatar_path = $1 where id = $2', [
        `${owner.id}/${randomUUID()}.png`,
        owner.id,
      ]),
    ).toBe(1);
  });
});

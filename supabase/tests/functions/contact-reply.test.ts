/**
 * Admins reply by e-mail to contact messages (issue 31 item 4): the `contact-reply` function as anon, a
 * signed-in user and an admin; the reply is stored with its author and outcome, the message is marked
 * handled by that admin, and the e-mail reaches the sender with their message quoted. The database
 * functions behind it as every role: replies are read by admins only and written by nobody through the
 * API; the extras list who handled a message, its replies and the reports it names by id.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { adminPool, stackEnv, unique } from '../helpers.ts';
import { mailsTo } from '../auth-helpers.ts';
import { createUser, type TestUser } from './helpers.ts';
import { anon, createUser as createActor, fileReport, run, type Actor } from '../db/actors.ts';

let admin: TestUser;
let user: TestUser;

async function reply(token: string | null, body: Record<string, unknown>) {
  const res = await fetch(`${stackEnv('API_URL')}/functions/v1/contact-reply`, {
    method: 'POST',
    headers: {
      apikey: stackEnv('ANON_KEY'),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      'content-type': 'application/json',
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function message(email: string | null, text: string, subject = 'About a report'): Promise<string> {
  const { rows } = await adminPool().query(
    `insert into public.contact_messages (nickname, email, subject, message) values ('Juan', $1, $2, $3) returning id`,
    [email, subject, text],
  );
  return rows[0].id as string;
}

beforeAll(async () => {
  [admin, user] = await Promise.all([createUser('cr-adm', { admin: true }), createUser('cr-usr')]);
});

describe('holds on: edge function + postgres — contact-reply', () => {
  it('an admin replies: the sender gets the e-mail with their message quoted; the reply and its author are kept', async () => {
    const sender = `${unique('sender')}@example.com`;
    const id = await message(sender, 'Why was my report about 0917 rejected? See https://evil.example/x');
    const r = await reply(admin.token, {
      message: id,
      body: '  Hello Juan,\n\nIt had no evidence; add a screenshot.  ',
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({ sent: true, to: sender });

    const [mail] = await mailsTo(sender, 1, 20_000);
    expect(mail.Subject).toBe('Re: About a report');
    expect(mail.Text).toContain('Hello Juan,\n\nIt had no evidence; add a screenshot.');
    // The sender's own words come back quoted and inert (no live link).
    expect(mail.Text).toContain('> Why was my report about 0917 rejected?');
    expect(mail.Text).not.toContain('https://evil.example');

    const { rows } = await adminPool().query(
      `select r.admin_id, r.sent_to, r.body, r.sent_at is not null as sent, r.send_error,
              m.handled_at is not null as handled, m.handled_by
       from public.contact_message_replies r join public.contact_messages m on m.id = r.message_id
       where r.message_id = $1`,
      [id],
    );
    expect(rows).toEqual([
      {
        admin_id: admin.id,
        sent_to: sender,
        body: 'Hello Juan,\n\nIt had no evidence; add a screenshot.',
        sent: true,
        send_error: null,
        handled: true,
        handled_by: admin.id,
      },
    ]);
  });

  it('refuses anon (401), a signed-in user (403), bad input (400), an unknown message (404); nothing is stored', async () => {
    const sender = `${unique('sender')}@example.com`;
    const id = await message(sender, 'Hello?');
    expect((await reply(null, { message: id, body: 'x' })).status).toBe(401);
    expect((await reply(user.token, { message: id, body: 'I am not an admin' })).status).toBe(403);
    expect((await reply(admin.token, { message: id, body: '   ' })).status).toBe(400);
    expect((await reply(admin.token, { message: id, body: 'x'.repeat(5001) })).status).toBe(400);
    expect((await reply(admin.token, { message: 'nope', body: 'x' })).status).toBe(400);
    expect((await reply(admin.token, { message: id })).status).toBe(400);
    expect(
      (await reply(admin.token, { message: '00000000-0000-4000-8000-000000000000', body: 'x' })).status,
    ).toBe(404);
    const noAddress = await message(null, 'No address given');
    expect((await reply(admin.token, { message: noAddress, body: 'Thanks' })).status).toBe(400);
    const { rows } = await adminPool().query(
      `select count(*)::int as n from public.contact_message_replies where message_id = any($1)`,
      [[id, noAddress]],
    );
    expect(rows[0].n).toBe(0);
    const { rows: msg } = await adminPool().query(
      'select handled_at, handled_by from public.contact_messages where id = $1',
      [id],
    );
    expect(msg).toEqual([{ handled_at: null, handled_by: null }]);
  });
});

describe('holds on: postgres — contact message replies in the database', () => {
  let dbAdmin: Actor;
  let dbUser: Actor;
  beforeAll(async () => {
    [dbAdmin, dbUser] = await Promise.all([createActor('Admin', { admin: true }), createActor('User')]);
  });

  it('only admins read replies and extras; nobody writes replies through the API; marking handled records who', async () => {
    const id = await message(`${unique('x')}@example.com`, 'Please look at it');
    const report = await fileReport(dbUser);
    const named = await message(
      `${unique('y')}@example.com`,
      `My report ${String(report.id).toUpperCase()} is wrong`,
    );
    await run(dbAdmin, `select public.admin_reply_contact_message($1, 'We are looking into it')`, [id]);

    const sql = 'select body from public.contact_message_replies where message_id = $1';
    expect(await run(dbAdmin, sql, [id])).toEqual([{ body: 'We are looking into it' }]);
    expect(await run(dbUser, sql, [id])).toEqual([]);
    await expect(run(anon, sql, [id])).rejects.toThrow(/permission denied/);
    for (const actor of [dbAdmin, dbUser])
      await expect(
        run(
          actor,
          `insert into public.contact_message_replies (message_id, sent_to, body) values ($1, 'a@b.c', 'forged')`,
          [id],
        ),
      ).rejects.toThrow(/permission denied/);
    await expect(
      run(dbAdmin, `update public.contact_message_replies set body = 'edited' where message_id = $1`, [id]),
    ).rejects.toThrow(/permission denied/);
    await expect(run(dbUser, `select public.admin_reply_contact_message($1, 'hi')`, [id])).rejects.toThrow(
      /only admins/,
    );
    await expect(run(anon, `select public.admin_reply_contact_message($1, 'hi')`, [id])).rejects.toThrow(
      /permission denied/,
    );
    for (const actor of [dbAdmin, dbUser, anon])
      await expect(run(actor, `select public.record_contact_reply_sent(gen_random_uuid())`)).rejects.toThrow(
        /permission denied/,
      );

    await expect(run(dbUser, 'select public.admin_contact_message_extras($1)', [[id]])).rejects.toThrow(
      /only admins/,
    );
    await expect(run(anon, 'select public.admin_contact_message_extras($1)', [[id]])).rejects.toThrow(
      /permission denied/,
    );
    const [{ e }] = await run(dbAdmin, 'select public.admin_contact_message_extras($1) as e', [[id, named]]);
    const extras = e as Record<
      string,
      {
        handled_by_email: string | null;
        replies: { body: string; admin_email: string; sent_at: string | null }[];
        reports: { id: string }[];
      }
    >;
    expect(extras[id].handled_by_email).toBe(dbAdmin.email);
    expect(extras[id].replies).toMatchObject([
      { body: 'We are looking into it', admin_email: dbAdmin.email, sent_at: null },
    ]);
    expect(extras[named].reports).toEqual([expect.objectContaining({ id: report.id })]);
    expect(extras[named].handled_by_email).toBeNull();

    // Marking handled through the table records the admin; back to the inbox clears it.
    await run(dbAdmin, 'update public.contact_messages set handled_at = now() where id = $1', [named]);
    const who = async () =>
      (await adminPool().query('select handled_by from public.contact_messages where id = $1', [named]))
        .rows[0].handled_by;
    expect(await who()).toBe(dbAdmin.id);
    await run(dbAdmin, 'update public.contact_messages set handled_at = null where id = $1', [named]);
    expect(await who()).toBeNull();
    await expect(
      run(dbAdmin, 'update public.contact_messages set handled_by = $2 where id = $1', [named, dbUser.id]),
    ).rejects.toThrow(/permission denied/);
  });
});

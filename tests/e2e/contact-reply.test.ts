/**
 * Issue 31, admin lists: in a browser, an admin opens a contact message in the inbox, writes a reply and
 * sends it (the SPA calls the `contact-reply` function); the message then shows as handled with the
 * reply under it, the database keeps the reply as sent by that admin, and the sender finds the reply,
 * with their own message quoted, in the local mail sink.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { adminPool } from '../../supabase/tests/helpers.ts';
import { createUser, type TestUser } from '../../supabase/tests/functions/helpers.ts';
import { appUrl, latestMailTo, launchBrowser, newTrackedPage } from './helpers.ts';

let browser: Browser;
let admin: TestUser;

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await createUser('reply-admin', { admin: true, name: 'Rosa' });
});
afterAll(async () => {
  await browser?.close();
});

describe('reply to a contact message', () => {
  it('an admin replies from the inbox: the message is handled, the reply kept and e-mailed to the sender', async () => {
    const token = randomBytes(4).toString('hex');
    const sender = `sender-${token}@example.com`;
    const subject = `My report ${token}`;
    const {
      rows: [{ id }],
    } = await adminPool().query<{ id: string }>(
      `insert into public.contact_messages (nickname, email, subject, message)
       values ('Juan', $1, $2, 'Why was my report rejected? See https://evil.example') returning id`,
      [sender, subject],
    );
    const body = `Hello Juan,\n\nIt had no evidence (${token}); add a screenshot and file it again.`;
    const sentAfter = new Date();

    const { page, context, errors } = await newTrackedPage(browser, { width: 1280 });
    try {
      await page.goto(appUrl('/login'));
      await page.getByLabel('Email').fill(admin.email);
      await page.getByLabel('Password').fill(admin.password);
      await page.getByRole('button', { name: 'Login' }).click();
      await page.waitForURL(/\/dashboard/, { timeout: 30_000 });
      await page.goto(appUrl('/dashboard/admin/messages'));

      // The message, newest first in the inbox: open the reply form, write, send.
      const row = page.getByRole('row').filter({ hasText: subject });
      await row.getByRole('button', { name: 'Reply by e-mail' }).click({ timeout: 30_000 });
      await row.getByLabel(`Your reply to ${sender}`).fill(body);
      await row.getByRole('button', { name: 'Send the reply' }).click();

      // The row now shows it handled, by whom, and the reply as sent.
      await row.getByText('handled', { exact: true }).waitFor({ timeout: 30_000 });
      await row.getByText(`Handled by ${admin.email}`).waitFor();
      const reply = row.getByTestId('message-reply');
      await reply.getByText(/no evidence/).waitFor();
      expect(await reply.textContent()).toContain(`${admin.email} replied to ${sender}`);
      expect(await row.getByRole('button', { name: 'Reply by e-mail' }).isVisible()).toBe(true);
      expect(errors.filter((e) => e.startsWith('uncaught'))).toEqual([]);
    } finally {
      await context.close();
    }

    const {
      rows: [stored],
    } = await adminPool().query<{ handled: boolean; handled_by: string; replies: unknown }>(
      `select m.handled_at is not null as handled, m.handled_by,
              (select jsonb_agg(jsonb_build_object('admin_id', r.admin_id, 'sent_to', r.sent_to, 'body', r.body,
                                                   'sent', r.sent_at is not null, 'send_error', r.send_error))
               from public.contact_message_replies r where r.message_id = m.id) as replies
       from public.contact_messages m where m.id = $1`,
      [id],
    );
    expect(stored).toEqual({
      handled: true,
      handled_by: admin.id,
      replies: [{ admin_id: admin.id, sent_to: sender, body, sent: true, send_error: null }],
    });

    // The sender reads it: the reply, then their own message quoted as inert text.
    const mail = await latestMailTo(sender, { after: new Date(sentAfter.getTime() - 5_000) });
    expect(mail.subject).toBe(`Re: ${subject}`);
    expect(mail.text).toContain(body);
    expect(mail.text).toContain('> Why was my report rejected?');
    expect(mail.text).not.toContain('https://evil.example');
  }, 120_000);
});

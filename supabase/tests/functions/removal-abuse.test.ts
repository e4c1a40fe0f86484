/**
 * Issue 11, forced removal: a requester flooding removal requests for one report, an unconfirmed
 * contact address being mailed, and a report removed because one of many requests went unanswered
 * although the reporter answered another. Each attack is run through the legacy API (and REST).
 * Issue 27: an unanswered request never removes a verified report (it goes to the admins' queue), and
 * the reporter's notice comes on its own, with the deadline, quoting the requester link-free.
 */
import { describe, expect, it } from 'vitest';
import { withRole } from '../helpers.ts';
import { adminPool, stackEnv, unique } from '../helpers.ts';
import { mailsTo } from '../auth-helpers.ts';
import { api, confirmRemovalByMail, createUser, reportFields, runJob, type TestUser } from './helpers.ts';

async function fileReport() {
  const reporter = await createUser('rra');
  const account = `${unique('removal')}@example.com`;
  const filed = await api<{ report: { _id: string } }>('POST', '/reports', {
    token: reporter.token,
    json: reportFields({ reportedAccountType: 'email', reportedAccount: account }),
  });
  expect(filed.status).toBe(201);
  return { reporter, account, reportId: filed.body.report._id };
}

function requestRemoval(holder: TestUser, reportId: string, contactEmail: string, reason = 'Not a scam') {
  return api<{
    request: { _id: string; contactConfirmed: boolean; expiresAt: string | null };
    msg: string;
    existingRequestId?: string;
  }>('POST', '/removal-requests', { token: holder.token, json: { reportId, reason, contactEmail } });
}

async function notificationsOf(userId: string): Promise<number> {
  const { rows } = await adminPool().query(
    `select count(*)::int as n from public.notifications where user_id = $1 and kind = 'removal_requested'`,
    [userId],
  );
  return rows[0].n;
}

async function reportStatus(id: string): Promise<string> {
  return (await adminPool().query('select status from public.reports where id = $1', [id])).rows[0].status;
}

describe('forced removal', () => {
  it('one open request per report per requester, through the legacy API and REST', async () => {
    const { reportId } = await fileReport();
    const holder = await createUser('rrh');
    const contact = `${unique('c')}@example.com`;
    expect((await requestRemoval(holder, reportId, contact)).status).toBe(201);
    const again = await requestRemoval(holder, reportId, contact, 'Please, again');
    expect(again.status).toBe(409);
    expect(again.body.msg).toMatch(
      /^You already asked for this report to be removed on \w+ \d+, \d{4}; that request is still open\.$/,
    );
    const rest = await fetch(`${stackEnv('API_URL')}/rest/v1/removal_requests`, {
      method: 'POST',
      headers: {
        apikey: stackEnv('ANON_KEY'),
        authorization: `Bearer ${holder.token}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        report_id: reportId,
        requester_id: holder.id,
        reason: 'REST flood',
        contact_email: contact,
      }),
    });
    expect(rest.status).toBe(409);
    expect(await rest.json()).toMatchObject({ code: 'PT409' });
    const { rows } = await adminPool().query(
      'select count(*)::int as n from public.removal_requests where report_id = $1',
      [reportId],
    );
    expect(rows[0].n).toBe(1);
  });

  it('nothing reaches the reporter until the contact address is confirmed by its e-mailed link', async () => {
    const { reporter, reportId } = await fileReport();
    const holder = await createUser('rrh');
    const contact = `${unique('c')}@example.com`;
    const filed = await requestRemoval(holder, reportId, contact, 'Attacker-written text');
    expect(filed.body.request).toMatchObject({ contactConfirmed: false, expiresAt: null });
    expect(filed.body.msg).toContain('confirm your contact e-mail');
    await runJob('notify-dispatch');
    const [confirmation] = await mailsTo(contact, 1, 20_000);
    expect(confirmation.Subject).toBe('ScamCheck: confirm your removal request');
    // The confirmation mail carries nothing the requester wrote.
    expect(confirmation.Text).not.toContain('Attacker-written');
    expect(await notificationsOf(reporter.id!)).toBe(0);
    // A wrong token does nothing.
    const wrong = await api(
      'GET',
      `/removal-requests/${filed.body.request._id}/confirm?token=${'0'.repeat(48)}`,
    );
    expect(wrong.status).toBe(404);
    expect(await notificationsOf(reporter.id!)).toBe(0);
    expect((await confirmRemovalByMail(contact)).status).toBe(200);
    expect(await notificationsOf(reporter.id!)).toBe(1);
    const [told] = await mailsTo(reporter.email, 1, 20_000);
    expect(told.Subject).toMatch(/^ScamCheck: removal requested for your report about /);
    // Following the link again changes nothing more.
    expect((await confirmRemovalByMail(contact)).status).toBe(200);
    expect(await notificationsOf(reporter.id!)).toBe(1);
  });

  it('confirmation e-mails to one address stop after 3 a day, whoever files the requests', async () => {
    const victim = `${unique('victim')}@example.com`;
    for (let i = 0; i < 5; i++) {
      const { reportId } = await fileReport();
      const holder = await createUser('rrf');
      expect((await requestRemoval(holder, reportId, victim)).status).toBe(201);
    }
    await runJob('notify-dispatch');
    await runJob('notify-dispatch');
    await mailsTo(victim, 3, 20_000);
    await new Promise((r) => setTimeout(r, 1000));
    expect(await mailsTo(victim, 3)).toHaveLength(3);
  });

  it('the reporter answering one request answers the dispute: no other request removes the report', async () => {
    const { reporter, reportId } = await fileReport();
    const first = await createUser('rr1');
    const second = await createUser('rr2');
    const a = await requestRemoval(first, reportId, `${unique('a')}@example.com`);
    const b = await requestRemoval(second, reportId, `${unique('b')}@example.com`);
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    await adminPool().query(
      `update public.removal_requests set contact_confirmed_at = now() - interval '8 days', created_at = now() - interval '8 days' where report_id = $1`,
      [reportId],
    );
    const answer = await api('POST', `/removal-requests/${a.body.request._id}/response`, {
      token: reporter.token,
      json: { response: 'I have the receipts.' },
    });
    expect(answer.status).toBe(200);
    await runJob('removal-expiry');
    expect(await reportStatus(reportId)).toBe('pending');
  });

  it('an unconfirmed request never removes a report; a single confirmed, unanswered one does after 7 days', async () => {
    const unconfirmed = await fileReport();
    const holder = await createUser('rru');
    const r1 = await requestRemoval(holder, unconfirmed.reportId, `${unique('u')}@example.com`);
    await adminPool().query(
      `update public.removal_requests set created_at = now() - interval '30 days' where id = $1`,
      [r1.body.request._id],
    );
    const confirmed = await fileReport();
    const r2 = await requestRemoval(holder, confirmed.reportId, `${unique('k')}@example.com`);
    await adminPool().query(
      `update public.removal_requests set created_at = now() - interval '9 days', contact_confirmed_at = now() - interval '6 days' where id = $1`,
      [r2.body.request._id],
    );
    await runJob('removal-expiry');
    expect(await reportStatus(unconfirmed.reportId)).toBe('pending');
    // Confirmed 6 days ago: the week runs from confirmation, not from filing.
    expect(await reportStatus(confirmed.reportId)).toBe('pending');
    await adminPool().query(
      `update public.removal_requests set contact_confirmed_at = now() - interval '8 days' where id = $1`,
      [r2.body.request._id],
    );
    await runJob('removal-expiry');
    expect(await reportStatus(confirmed.reportId)).toBe('removed');
    expect(await reportStatus(unconfirmed.reportId)).toBe('pending');
  });
});

/** Rows of the admins' removal queue for one request, read as an admin through the database. */
async function queueRow(admin: TestUser, requestId: string) {
  return withRole(
    adminPool(),
    { role: 'authenticated', sub: admin.id },
    async (c) =>
      (await c.query('select * from public.admin_removal_queue() where request_id = $1', [requestId])).rows,
  );
}

async function decide(admin: TestUser, requestId: string, decision: 'remove' | 'keep') {
  return withRole(adminPool(), { role: 'authenticated', sub: admin.id }, async (c) => {
    // Issue 31: every decision carries a reason from the list.
    await c.query('select public.decide_removal_request($1, $2, $3)', [
      requestId,
      decision,
      decision === 'remove' ? 'owner_request' : 'not_a_scam',
    ]);
  });
}

describe('no removal without a hearing (issue 27)', () => {
  it('holds on: edge function + postgres — one account and one mailbox cannot remove a verified report: after 7 unanswered days it waits for an admin', async () => {
    const { reporter, account, reportId } = await fileReport();
    await adminPool().query(`update public.reports set status = 'verified' where id = $1`, [reportId]);
    const holder = await createUser('rrv');
    const contact = `${unique('v')}@example.com`;
    const filed = await requestRemoval(holder, reportId, contact, 'Remove it.');
    expect(filed.status).toBe(201);
    await runJob('notify-dispatch');
    expect((await confirmRemovalByMail(contact)).status).toBe(200);
    await mailsTo(reporter.email, 1, 20_000);
    // The week passes without an answer.
    await adminPool().query(
      `update public.removal_requests set created_at = now() - interval '8 days', contact_confirmed_at = now() - interval '8 days' where id = $1`,
      [filed.body.request._id],
    );
    await runJob('removal-expiry');
    expect(await reportStatus(reportId)).toBe('verified');
    const search = await api<{ count: number }>('GET', `/search/${encodeURIComponent(account)}`);
    expect(search.body.count).toBe(1);

    // The admins see the request, the reporter's silence and the deadline, and decide.
    const admin = await createUser('rradm', { admin: true });
    const [row] = await queueRow(admin, filed.body.request._id);
    expect(row).toMatchObject({
      report_id: reportId,
      report_status: 'verified',
      request_status: 'open',
      reason: 'Remove it.',
      reporter_response: null,
    });
    expect(row.escalated_at).not.toBeNull();
    expect(new Date(row.deadline).getTime()).toBeCloseTo(
      new Date(row.contact_confirmed_at).getTime() + 7 * 86_400_000,
      -3,
    );
    // Nobody else reads the queue.
    await expect(queueRow(holder, filed.body.request._id)).rejects.toThrow(/only admins/);
    // Later runs do not remove it either.
    await runJob('removal-expiry');
    expect(await reportStatus(reportId)).toBe('verified');
    await decide(admin, filed.body.request._id, 'keep');
    expect(await reportStatus(reportId)).toBe('verified');
    expect(await queueRow(admin, filed.body.request._id)).toEqual([]);
  });

  it('an unanswered request hides a pending report until an admin decides; the admin can put it back', async () => {
    const { reportId } = await fileReport();
    const holder = await createUser('rrp');
    const filed = await requestRemoval(holder, reportId, `${unique('p')}@example.com`);
    await adminPool().query(
      `update public.removal_requests set created_at = now() - interval '8 days', contact_confirmed_at = now() - interval '8 days' where id = $1`,
      [filed.body.request._id],
    );
    await runJob('removal-expiry');
    expect(await reportStatus(reportId)).toBe('removed');
    const admin = await createUser('rradm', { admin: true });
    const [row] = await queueRow(admin, filed.body.request._id);
    expect(row).toMatchObject({ report_status: 'removed', request_status: 'report_removed' });
    await decide(admin, filed.body.request._id, 'keep');
    expect(await reportStatus(reportId)).toBe('pending');
    // A dismissed request does not expire again.
    await runJob('removal-expiry');
    expect(await reportStatus(reportId)).toBe('pending');
  });

  it("the reporter's notice comes on its own when their mail budget is spent, states the deadline and quotes the requester without links", async () => {
    const { reporter, reportId } = await fileReport();
    // The reporter's notification budget is spent (as by a burst of watched-identifier e-mails).
    for (let i = 0; i < 6; i++)
      await adminPool().query(`select public.rate_limit_check('email.user', $1, 1)`, [`user:${reporter.id}`]);
    await adminPool().query(`select public.rate_limit_check('email.digest', $1, 1)`, [`user:${reporter.id}`]);
    const holder = await createUser('rrl');
    const contact = `${unique('l')}@example.com`;
    const reason =
      'Your account is suspended. Log in at https://scamcheck-support.example/verify?u=1 or www.evil.example\nand e-mail help@evil.example';
    const filed = await requestRemoval(holder, reportId, contact, reason);
    expect(filed.status).toBe(201);
    await runJob('notify-dispatch');
    expect((await confirmRemovalByMail(contact)).status).toBe(200);
    await runJob('notify-dispatch');
    const [mail] = await mailsTo(reporter.email, 1, 20_000);
    expect(mail.Subject).toMatch(/^ScamCheck: removal requested for your report about /);
    const { rows } = await adminPool().query<{ confirmed: string }>(
      'select contact_confirmed_at as confirmed from public.removal_requests where id = $1',
      [filed.body.request._id],
    );
    const deadline = new Date(new Date(rows[0].confirmed).getTime() + 7 * 86_400_000)
      .toISOString()
      .replace('T', ' ')
      .slice(0, 16);
    expect(mail.Text).toContain(`Please answer by ${deadline} (UTC)`);
    expect(mail.Text).toContain(`/dashboard/all-reports/${reportId}`);
    // The requester's words are quoted, link-free, in text and HTML alike.
    expect(mail.Text).toContain(
      '> Your account is suspended. Log in at hxxps[:]//scamcheck-support[.]example/verify?u=1',
    );
    expect(mail.Text).toContain('> and e-mail help[at]evil[.]example');
    for (const body of [mail.Text, mail.HTML]) {
      expect(body).not.toMatch(/https?:\/\/scamcheck-support|www\.evil\.example|help@evil/);
    }
    expect(mail.HTML).toContain('<blockquote');
    const links = [...mail.HTML.matchAll(/href="([^"]+)"/g)].map((m) => m[1]);
    // Its only links are ScamCheck's own: answer (review) and delete.
    expect(links).toHaveLength(2);
    expect(links.every((l) => l.includes(`/dashboard/`))).toBe(true);
    // Sent on its own, not as a digest.
    const digests = (await mailsTo(reporter.email, 1)).filter((m) => /new notifications$/.test(m.Subject));
    expect(digests).toEqual([]);
  });
});

/**
 * The reporter's side of moderation (issue 31): the reason of a decision and the removal requests on a
 * report, with their answers and decisions, are read by the reporter and admins only (as anon, owner,
 * stranger and admin); the reporter answers while the request waits for a decision.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { affected, anon, createUser, fileReport, run, type Actor } from './actors.ts';
import { adminPool } from '../helpers.ts';

let owner: Actor;
let stranger: Actor;
let requester: Actor;
let admin: Actor;

beforeAll(async () => {
  [owner, stranger, requester, admin] = await Promise.all([
    createUser('Owner'),
    createUser('Stranger'),
    createUser('Requester'),
    createUser('Admin', { admin: true }),
  ]);
});

/** A report of the owner with a removal request from the requester, its contact address confirmed or not. */
async function requested(confirmed = true) {
  const r = await fileReport(owner);
  const [req] = await run(
    requester,
    `insert into public.removal_requests (report_id, requester_id, reason, contact_email) values ($1, $2, 'This is my shop, not a scam', 'owner@example.com') returning id`,
    [r.id, requester.id],
  );
  if (confirmed)
    await adminPool().query('update public.removal_requests set contact_confirmed_at = now() where id = $1', [
      req.id,
    ]);
  return { reportId: r.id as string, requestId: req.id as string };
}

/** The reporter's answer (public.answer_removal_request); resolves to the request as they see it. */
const answer = async (actor: Actor, id: string, text: string | null) =>
  (await run(actor, 'select public.answer_removal_request($1, $2) as r', [id, text]))[0].r as Record<
    string,
    unknown
  >;

describe("holds on: postgres — the decision's reason", () => {
  it('the reporter and admins read it; a stranger sees no row and anon is refused', async () => {
    const r = await fileReport(owner);
    await run(
      admin,
      `select * from public.moderate_reports($1::uuid[], 'rejected', 'no_evidence', 'Add a screenshot')`,
      [[r.id]],
    );
    const sql = 'select status_reason, status_note from public.report_cards where id = $1';
    for (const actor of [owner, admin])
      expect(await run(actor, sql, [r.id])).toEqual([
        { status_reason: 'no_evidence', status_note: 'Add a screenshot' },
      ]);
    expect(await run(stranger, sql, [r.id])).toEqual([]);
    expect(await run(stranger, 'select status_reason from public.reports where id = $1', [r.id])).toEqual([]);
    await expect(run(anon, sql, [r.id])).rejects.toThrow(/permission denied/);
  });
});

describe('holds on: postgres — removal requests on my reports', () => {
  it('the reporter lists confirmed requests without the contact address; unconfirmed ones wait', async () => {
    const seen = await requested(true);
    const unseen = await requested(false);
    const rows = await run(owner, 'select * from public.my_report_removal_requests()');
    const ids = rows.map((x) => x.id);
    expect(ids).toContain(seen.requestId);
    expect(ids).not.toContain(unseen.requestId);
    const row = rows.find((x) => x.id === seen.requestId)!;
    expect(row).toMatchObject({
      report_id: seen.reportId,
      reason: 'This is my shop, not a scam',
      status: 'open',
      can_answer: true,
      reporter_response: null,
    });
    expect(Date.parse(String(row.answer_by))).toBeGreaterThan(Date.now() + 6 * 86400_000);
    expect(Object.keys(row)).not.toContain('contact_email');
    expect(Object.keys(row)).not.toContain('requester_id');
  });

  it('a stranger and an admin list none of them (admins use their queue); anon is refused', async () => {
    const { requestId } = await requested();
    for (const actor of [stranger, admin, requester]) {
      const rows = await run(actor, 'select id from public.my_report_removal_requests()');
      expect(rows.map((x) => x.id)).not.toContain(requestId);
    }
    await expect(run(anon, 'select * from public.my_report_removal_requests()')).rejects.toThrow(
      /permission denied/,
    );
  });

  it('the reporter answers; the requester and admins read the answer, a stranger reads nothing and cannot answer', async () => {
    const { requestId } = await requested();
    await expect(answer(stranger, requestId, 'I am the reporter, really')).rejects.toThrow(
      /no removal request/,
    );
    await expect(answer(requester, requestId, 'Please remove')).rejects.toThrow(/no removal request/);
    await expect(answer(admin, requestId, 'An admin is not the reporter')).rejects.toThrow(
      /no removal request/,
    );
    await expect(answer(anon, requestId, 'x')).rejects.toThrow(/permission denied/);
    // Through the table nobody but admins updates a request: the reporter's old way is closed too.
    for (const actor of [owner, requester, stranger])
      expect(
        await affected(actor, 'update public.removal_requests set reporter_response = $2 where id = $1', [
          requestId,
          'via the table',
        ]),
      ).toBe(0);
    const answered = await answer(owner, requestId, '  They took my 1,500 pesos; here is the receipt.  ');
    expect(answered).toMatchObject({
      id: requestId,
      reporter_response: 'They took my 1,500 pesos; here is the receipt.',
    });
    expect(answered.responded_at).toBeTruthy();
    expect(Object.keys(answered)).not.toContain('contact_email');
    expect(Object.keys(answered)).not.toContain('requester_id');
    const sql =
      'select reporter_response, responded_at is not null as stamped from public.removal_requests where id = $1';
    const expected = [{ reporter_response: 'They took my 1,500 pesos; here is the receipt.', stamped: true }];
    for (const actor of [requester, admin]) expect(await run(actor, sql, [requestId])).toEqual(expected);
    for (const actor of [owner, stranger]) expect(await run(actor, sql, [requestId])).toEqual([]);
    await expect(run(anon, sql, [requestId])).rejects.toThrow(/permission denied/);
    const [mine] = await run(
      owner,
      'select reporter_response from public.my_report_removal_requests() where id = $1',
      [requestId],
    );
    expect(mine.reporter_response).toBe(expected[0].reporter_response);
  });

  it('a blank answer is refused and changes nothing', async () => {
    const { requestId } = await requested();
    await expect(answer(owner, requestId, '   ')).rejects.toThrow(/needs some words/);
    await expect(answer(owner, requestId, null)).rejects.toThrow(/needs some words/);
    await expect(answer(owner, requestId, 'x'.repeat(5001))).rejects.toThrow(/at most 5000/);
    const [row] = await run(
      owner,
      'select reporter_response from public.my_report_removal_requests() where id = $1',
      [requestId],
    );
    expect(row.reporter_response).toBeNull();
  });

  it('once an admin decides, the reporter reads the decision and its reason and can no longer answer', async () => {
    const { requestId, reportId } = await requested();
    await run(
      admin,
      `select public.decide_removal_request($1, 'keep', 'not_a_scam', 'The receipt shows it.')`,
      [requestId],
    );
    const [row] = await run(owner, 'select * from public.my_report_removal_requests() where id = $1', [
      requestId,
    ]);
    expect(row).toMatchObject({
      report_id: reportId,
      decision: 'keep',
      decision_reason: 'not_a_scam',
      decision_note: 'The receipt shows it.',
      can_answer: false,
    });
    await expect(answer(owner, requestId, 'Late answer')).rejects.toThrow(/already decided/);
  });

  it('an escalated request whose pending report was hidden can still be answered until an admin decides', async () => {
    const { requestId } = await requested();
    await adminPool().query(
      `update public.removal_requests set contact_confirmed_at = now() - interval '8 days' where id = $1`,
      [requestId],
    );
    await adminPool().query('select public.expire_removal_requests()');
    const [row] = await run(
      owner,
      'select status, can_answer from public.my_report_removal_requests() where id = $1',
      [requestId],
    );
    expect(row).toEqual({ status: 'report_removed', can_answer: true });
    expect(await answer(owner, requestId, 'I was away; the evidence is attached.')).toMatchObject({
      reporter_response: 'I was away; the evidence is attached.',
    });
  });
});

describe("holds on: postgres — the requester's contact address (issue 31 security fix)", () => {
  it('the reporter sees the request, its reason and deadline but never the address; the requester and admins do; a stranger and anon see nothing', async () => {
    const { requestId, reportId } = await requested();
    // The reporter: the table shows them no row (select * once returned contact_email and requester_id)…
    expect(await run(owner, 'select * from public.removal_requests where id = $1', [requestId])).toEqual([]);
    expect(
      await run(owner, 'select * from public.removal_requests where report_id = $1', [reportId]),
    ).toEqual([]);
    // …and their own list has the request, the reason and the deadline, and no address anywhere in it.
    const rows = await run(owner, 'select * from public.my_report_removal_requests() where id = $1', [
      requestId,
    ]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ reason: 'This is my shop, not a scam', report_id: reportId });
    expect(Date.parse(String(rows[0].answer_by))).toBeGreaterThan(Date.now() + 6 * 86400_000);
    expect(JSON.stringify(rows)).not.toContain('owner@example.com');
    expect(JSON.stringify(rows)).not.toContain(requester.id!);
    // The requester reads their own request with the address they gave.
    const sql = 'select contact_email from public.removal_requests where id = $1';
    expect(await run(requester, sql, [requestId])).toEqual([{ contact_email: 'owner@example.com' }]);
    // Admins read it in the table and in their queue.
    expect(await run(admin, sql, [requestId])).toEqual([{ contact_email: 'owner@example.com' }]);
    const queue = await run(
      admin,
      'select contact_email from public.admin_removal_queue() where request_id = $1',
      [requestId],
    );
    expect(queue).toEqual([{ contact_email: 'owner@example.com' }]);
    // A stranger sees no row, has no list of it and no queue; anon is refused everything.
    expect(await run(stranger, sql, [requestId])).toEqual([]);
    expect(
      await run(stranger, 'select id from public.my_report_removal_requests() where id = $1', [requestId]),
    ).toEqual([]);
    await expect(run(stranger, 'select * from public.admin_removal_queue()')).rejects.toThrow(/only admins/);
    await expect(run(owner, 'select * from public.admin_removal_queue()')).rejects.toThrow(/only admins/);
    await expect(run(anon, sql, [requestId])).rejects.toThrow(/permission denied/);
    await expect(run(anon, 'select * from public.my_report_removal_requests()')).rejects.toThrow(
      /permission denied/,
    );
    await expect(run(anon, `select public.answer_removal_request($1, 'x')`, [requestId])).rejects.toThrow(
      /permission denied/,
    );
  });

  it('the reporter does not see a request whose requester has not confirmed the address', async () => {
    const { requestId, reportId } = await requested(false);
    expect(
      await run(owner, 'select id from public.removal_requests where report_id = $1', [reportId]),
    ).toEqual([]);
    expect(
      await run(owner, 'select id from public.my_report_removal_requests() where id = $1', [requestId]),
    ).toEqual([]);
  });
});

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

const answer = (actor: Actor, id: string, text: string | null) =>
  affected(actor, 'update public.removal_requests set reporter_response = $2 where id = $1', [id, text]);

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
    expect(await answer(stranger, requestId, 'I am the reporter, really')).toBe(0);
    expect(await answer(requester, requestId, 'Please remove')).toBe(0);
    await expect(answer(anon, requestId, 'x')).rejects.toThrow(/permission denied/);
    expect(await answer(owner, requestId, '  They took my 1,500 pesos; here is the receipt.  ')).toBe(1);
    const sql =
      'select reporter_response, responded_at is not null as stamped from public.removal_requests where id = $1';
    const expected = [{ reporter_response: 'They took my 1,500 pesos; here is the receipt.', stamped: true }];
    for (const actor of [owner, requester, admin])
      expect(await run(actor, sql, [requestId])).toEqual(expected);
    expect(await run(stranger, sql, [requestId])).toEqual([]);
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
    const [row] = await run(owner, 'select reporter_response from public.removal_requests where id = $1', [
      requestId,
    ]);
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
    expect(await answer(owner, requestId, 'I was away; the evidence is attached.')).toBe(1);
  });
});

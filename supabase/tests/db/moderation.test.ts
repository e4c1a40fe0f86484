/**
 * Moderation (issue 31): decisions with reasons, undo, the append-only audit log (as anon, owner,
 * stranger and admin), the review queue, removal-request decisions and the published figures.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { DENIED, anon, createUser, fileReport, run, serviceRole, type Actor } from './actors.ts';
import { adminPool } from '../helpers.ts';

let owner: Actor;
let stranger: Actor;
let admin: Actor;
let admin2: Actor;

beforeAll(async () => {
  [owner, stranger, admin, admin2] = await Promise.all([
    createUser('Owner'),
    createUser('Stranger'),
    createUser('Admin', { admin: true }),
    createUser('Admin two', { admin: true }),
  ]);
});

const moderate = (
  actor: Actor,
  ids: unknown[],
  status: string,
  reason: string | null = null,
  note: string | null = null,
) =>
  run(actor, 'select * from public.moderate_reports($1::uuid[], $2::public.report_status, $3, $4)', [
    ids,
    status,
    reason,
    note,
  ]);

const statusOf = async (id: unknown) =>
  (
    await adminPool().query('select status, status_reason, status_note from public.reports where id = $1', [
      id,
    ])
  ).rows[0] as { status: string; status_reason: string | null; status_note: string | null };

describe('holds on: postgres — decisions with reasons', () => {
  it('an admin rejects with a reason and a note; the reporter reads both on the card and is notified', async () => {
    const r = await fileReport(owner);
    const [log] = await moderate(admin, [r.id], 'rejected', 'no_evidence', '  Please attach a screenshot. ');
    expect(log).toMatchObject({
      report_id: r.id,
      actor_id: admin.id,
      from_status: 'pending',
      to_status: 'rejected',
      reason: 'no_evidence',
      note: 'Please attach a screenshot.',
    });
    const [card] = await run(
      owner,
      'select status, status_reason, status_note from public.report_cards where id = $1',
      [r.id],
    );
    expect(card).toEqual({
      status: 'rejected',
      status_reason: 'no_evidence',
      status_note: 'Please attach a screenshot.',
    });
    const notes = await run(owner, `select kind from public.notifications where report_id = $1`, [r.id]);
    expect(notes.map((n) => n.kind)).toContain('report_status_changed');
  });

  it('reject and remove need a reason from the list; the note is bounded; nothing changes on bad input', async () => {
    const r = await fileReport(owner);
    await expect(moderate(admin, [r.id], 'rejected')).rejects.toThrow(/needs a reason/);
    await expect(moderate(admin, [r.id], 'removed')).rejects.toThrow(/needs a reason/);
    await expect(moderate(admin, [r.id], 'rejected', 'because')).rejects.toThrow(/unknown reason/);
    await expect(moderate(admin, [r.id], 'rejected', 'other', 'x'.repeat(1001))).rejects.toThrow(
      /at most 1000/,
    );
    await expect(moderate(admin, [r.id], 'pending')).rejects.toThrow(/verified, rejected or removed/);
    expect((await statusOf(r.id)).status).toBe('pending');
  });

  it('only admins decide: anon, the reporter and a stranger are refused', async () => {
    const r = await fileReport(owner);
    await expect(moderate(anon, [r.id], 'verified')).rejects.toThrow(/permission denied/);
    await expect(moderate(owner, [r.id], 'verified')).rejects.toThrow(DENIED);
    await expect(moderate(stranger, [r.id], 'verified')).rejects.toThrow(DENIED);
    expect((await statusOf(r.id)).status).toBe('pending');
  });

  it('a reporter cannot write a reason on their own report', async () => {
    const r = await fileReport(owner);
    await expect(
      run(owner, `update public.reports set status_reason = 'other' where id = $1`, [r.id]),
    ).rejects.toThrow(/permission denied/);
  });

  it('bulk: one reason for many reports; a missing report fails the whole call', async () => {
    const a = await fileReport(owner);
    const b = await fileReport(stranger);
    const rows = await moderate(admin, [a.id, b.id], 'rejected', 'duplicate');
    expect(rows).toHaveLength(2);
    expect((await statusOf(b.id)).status_reason).toBe('duplicate');
    const c = await fileReport(owner);
    await expect(moderate(admin, [c.id, '00000000-0000-0000-0000-000000000000'], 'verified')).rejects.toThrow(
      /not found/,
    );
    expect((await statusOf(c.id)).status).toBe('pending');
  });
});

describe('holds on: postgres — undo', () => {
  it('any admin undoes a decision: the report returns to pending, the undo is logged, the original row is unchanged', async () => {
    const r = await fileReport(owner);
    const [log] = await moderate(admin, [r.id], 'rejected', 'not_a_scam');
    const [undo] = await run(admin2, 'select * from public.undo_moderation($1)', [log.id]);
    expect(undo).toMatchObject({
      undo_of: log.id,
      actor_id: admin2.id,
      from_status: 'rejected',
      to_status: 'pending',
    });
    expect(await statusOf(r.id)).toEqual({ status: 'pending', status_reason: null, status_note: null });
    await expect(run(admin, 'select public.undo_moderation($1)', [log.id])).rejects.toThrow(/already undone/);
    await expect(run(admin, 'select public.undo_moderation($1)', [undo.id])).rejects.toThrow(
      /cannot itself be undone/,
    );
    const [orig] = await run(admin, 'select * from public.moderation_log where id = $1', [log.id]);
    expect(orig).toMatchObject({ to_status: 'rejected', reason: 'not_a_scam' });
  });

  it('undo restores the earlier reason; only the latest decision of a report can be undone', async () => {
    const r = await fileReport(owner);
    const [first] = await moderate(admin, [r.id], 'rejected', 'abusive');
    const [second] = await moderate(admin, [r.id], 'removed', 'personal_data');
    await expect(run(admin, 'select public.undo_moderation($1)', [first.id])).rejects.toThrow(
      /decided again since/,
    );
    await run(admin, 'select public.undo_moderation($1)', [second.id]);
    expect(await statusOf(r.id)).toMatchObject({ status: 'rejected', status_reason: 'abusive' });
  });

  it('non-admins cannot undo', async () => {
    const r = await fileReport(owner);
    const [log] = await moderate(admin, [r.id], 'verified');
    for (const actor of [owner, stranger]) {
      await expect(run(actor, 'select public.undo_moderation($1)', [log.id])).rejects.toThrow(DENIED);
    }
    await expect(run(anon, 'select public.undo_moderation($1)', [log.id])).rejects.toThrow(
      /permission denied/,
    );
    expect((await statusOf(r.id)).status).toBe('verified');
  });
});

describe('holds on: postgres — the audit log', () => {
  it('records status changes from every path, the older set_report_status included', async () => {
    const r = await fileReport(owner);
    await run(admin, `select public.set_report_status($1, 'verified')`, [r.id]);
    const rows = await run(
      admin,
      'select actor_id, from_status, to_status, reason from public.moderation_log where report_id = $1',
      [r.id],
    );
    expect(rows).toEqual([
      { actor_id: admin.id, from_status: 'pending', to_status: 'verified', reason: null },
    ]);
  });

  it('admins read it; anon, the reporter and strangers read nothing', async () => {
    const r = await fileReport(owner);
    await moderate(admin, [r.id], 'verified');
    expect(await run(admin, 'select 1 from public.moderation_log where report_id = $1', [r.id])).toHaveLength(
      1,
    );
    expect(await run(owner, 'select 1 from public.moderation_log where report_id = $1', [r.id])).toHaveLength(
      0,
    );
    expect(
      await run(stranger, 'select 1 from public.moderation_log where report_id = $1', [r.id]),
    ).toHaveLength(0);
    await expect(run(anon, 'select 1 from public.moderation_log')).rejects.toThrow(/permission denied/);
    const [entries] = await run(admin, 'select public.admin_moderation_log(null, $1) as e', [r.id]);
    expect((entries.e as { actor_email: string }[])[0].actor_email).toBe(admin.email);
    await expect(run(owner, 'select public.admin_moderation_log()')).rejects.toThrow(DENIED);
  });

  it('nobody changes or deletes a row through the API, not even the service role; the owner is refused by trigger', async () => {
    const r = await fileReport(owner);
    const [log] = await moderate(admin, [r.id], 'verified');
    for (const actor of [anon, owner, stranger, admin, serviceRole]) {
      await expect(
        run(actor, `update public.moderation_log set reason = 'other' where id = $1`, [log.id]),
      ).rejects.toThrow(/permission denied/);
      await expect(run(actor, 'delete from public.moderation_log where id = $1', [log.id])).rejects.toThrow(
        /permission denied/,
      );
      await expect(
        run(
          actor,
          `insert into public.moderation_log (report_id, identifier, from_status, to_status, filed_at) values ($1, 'x', 'pending', 'verified', now())`,
          [r.id],
        ),
      ).rejects.toThrow(/permission denied/);
    }
    await expect(
      adminPool().query('delete from public.moderation_log where id = $1', [log.id]),
    ).rejects.toThrow(/append-only/);
    await expect(
      adminPool().query(`update public.moderation_log set reason = 'other' where id = $1`, [log.id]),
    ).rejects.toThrow(/append-only/);
  });
});

describe('holds on: postgres — the review queue', () => {
  it('groups pending reports by identifier with verified history and reporter history; admins only', async () => {
    const number = `0919${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
    const v = await fileReport(stranger, { reported_account: number });
    await moderate(admin, [v.id], 'verified');
    const p1 = await fileReport(owner, { reported_account: number });
    const reporter3 = await createUser('Third');
    await fileReport(reporter3, { reported_account: number, evidence_path: null });
    const [{ q }] = await run(admin, `select public.admin_review_queue(search => $1) as q`, [
      number.slice(4),
    ]);
    const queue = q as {
      groups: {
        identifier: string;
        verified_count: number;
        reports: { id: string; reporter: { filed: number; verified: number } }[];
        verified: { id: string }[];
      }[];
    };
    const group = queue.groups.find((g) => g.identifier.endsWith(number.slice(4)));
    expect(group).toBeDefined();
    expect(group!.reports).toHaveLength(2);
    expect(group!.verified.map((x) => x.id)).toEqual([v.id]);
    expect(group!.reports.find((x) => x.id === p1.id)!.reporter.filed).toBeGreaterThanOrEqual(1);
    await expect(run(owner, 'select public.admin_review_queue()')).rejects.toThrow(DENIED);
    await expect(run(anon, 'select public.admin_review_queue()')).rejects.toThrow(/permission denied/);
    await expect(run(admin, `select public.admin_review_queue(sort => 'newest')`)).rejects.toThrow(/sort is/);
  });

  it('each filter keeps exactly the pending reports it names, alone and together (the indexes serve them)', async () => {
    // Five pending reports sharing a stem the search finds in every identifier; one verified report
    // of the same number the queue never lists as pending.
    const stem = String(Math.floor(Math.random() * 1e7)).padStart(7, '0');
    const [a, b] = await Promise.all([createUser('Filter A'), createUser('Filter B')]);
    const spec = [
      {
        who: a,
        account: `0917${stem}`,
        accountType: 'mobile',
        type: 'scam',
        place: 'Quezon City',
        country: 'PH',
        evidence: false,
        days: 0,
      },
      {
        who: b,
        account: `0917${stem}`,
        accountType: 'mobile',
        type: 'hacked',
        place: 'Cebu City',
        country: 'PH',
        evidence: true,
        days: 10,
      },
      {
        who: a,
        account: `u${stem}@example.com`,
        accountType: 'email',
        type: 'spam',
        place: 'Davao',
        country: 'SG',
        evidence: false,
        days: 40,
      },
      {
        who: b,
        account: `shop${stem}.example.com`,
        accountType: 'website',
        type: 'scam',
        place: null,
        country: null,
        evidence: true,
        days: 3,
      },
      {
        who: a,
        account: `0918${stem}`,
        accountType: 'mobile',
        type: 'scam',
        place: 'Baguio',
        country: 'PH',
        evidence: false,
        days: 8,
      },
    ] as const;
    const filed: ((typeof spec)[number] & { id: string })[] = [];
    for (const [i, r] of spec.entries()) {
      const row = await fileReport(r.who, {
        reported_account: r.account,
        reported_account_type: r.accountType,
        incident_type: r.type,
        location: r.place,
        loc: null,
        country: null,
      });
      await adminPool().query(
        `update public.reports set country = $2, evidence_path = $3, created_at = now() - make_interval(days => $4, secs => $5)
         where id = $1`,
        [row.id, r.country, r.evidence ? `${r.who.id}/filter-${i}.jpg` : null, r.days, i],
      );
      filed.push({ ...r, id: row.id as string });
    }
    const verified = await fileReport(a, { reported_account: `0917${stem}` });
    await moderate(admin, [verified.id], 'verified');

    type Args = {
      incident_type?: string;
      account_type?: string;
      min_age_days?: number;
      has_evidence?: boolean;
      region?: string;
    };
    const expected = (f: Args) =>
      filed
        .filter(
          (r) =>
            (f.incident_type == null || r.type === f.incident_type) &&
            (f.account_type == null || r.accountType === f.account_type) &&
            (f.min_age_days == null || r.days >= f.min_age_days) &&
            (f.has_evidence == null || r.evidence === f.has_evidence) &&
            (f.region == null ||
              (r.place ?? '').toLowerCase().includes(f.region.trim().toLowerCase()) ||
              (r.country ?? '').toLowerCase() === f.region.trim().toLowerCase()),
        )
        .map((r) => r.id)
        .sort();
    const cases: Args[] = [
      {},
      { incident_type: 'scam' },
      { incident_type: 'spam' },
      { account_type: 'mobile' },
      { account_type: 'website' },
      { min_age_days: 7 },
      { min_age_days: 30 },
      { has_evidence: true },
      { has_evidence: false },
      { region: 'cebu' },
      { region: ' QUEZON ' },
      { region: 'sg' },
      { region: 'ph' },
      { incident_type: 'scam', has_evidence: false },
      { account_type: 'mobile', region: 'ph', min_age_days: 7 },
      { incident_type: 'scam', account_type: 'mobile', min_age_days: 7, has_evidence: false, region: 'ph' },
    ];
    for (const f of cases) {
      for (const sort of ['oldest', 'most_reported']) {
        const [{ q }] = await run(
          admin,
          `select public.admin_review_queue(search => $1, incident_type => $2, account_type => $3,
                                            min_age_days => $4, has_evidence => $5, region => $6, sort => $7) as q`,
          [
            stem,
            f.incident_type ?? null,
            f.account_type ?? null,
            f.min_age_days ?? null,
            f.has_evidence ?? null,
            f.region ?? null,
            sort,
          ],
        );
        const groups = (q as { groups: { identifier: string; oldest: string; reports: { id: string }[] }[] })
          .groups;
        const ids = groups.flatMap((g) => g.reports.map((r) => r.id)).sort();
        expect({ f, sort, ids }).toEqual({ f, sort, ids: expected(f) });
        // Oldest first: the group with the oldest report leads; most reported: the group with the
        // most matching reports leads.
        if (sort === 'oldest')
          expect(groups.map((g) => Date.parse(g.oldest))).toEqual(
            groups.map((g) => Date.parse(g.oldest)).sort((x, y) => x - y),
          );
        else
          expect(groups.map((g) => g.reports.length)).toEqual(
            groups.map((g) => g.reports.length).sort((x, y) => y - x),
          );
      }
    }
  });
});

describe('holds on: postgres — removal requests', () => {
  it('an admin decides remove with a reason; the report is removed, both sides read the decision; keep leaves it', async () => {
    const requester = await createUser('Requester');
    const r = await fileReport(owner);
    const [req] = await run(
      requester,
      `insert into public.removal_requests (report_id, requester_id, reason, contact_email) values ($1, $2, 'Not mine', 'me@example.com') returning id`,
      [r.id, requester.id],
    );
    const open = await run(admin, 'select request_id from public.admin_removal_queue()');
    expect(open.map((x) => x.request_id)).toContain(req.id);
    await expect(
      run(owner, `select public.decide_removal_request($1, 'remove', 'owner_request')`, [req.id]),
    ).rejects.toThrow(DENIED);
    await expect(
      run(admin, `select public.decide_removal_request($1, 'remove', null)`, [req.id]),
    ).rejects.toThrow(/needs a reason/);
    await expect(
      run(admin, `select public.decide_removal_request($1, 'delete', 'other')`, [req.id]),
    ).rejects.toThrow(/keep, hide or remove/);
    await run(
      admin,
      `select public.decide_removal_request($1, 'remove', 'owner_request', 'The number was reassigned.')`,
      [req.id],
    );
    expect(await statusOf(r.id)).toMatchObject({ status: 'removed', status_reason: 'owner_request' });
    const decision = {
      decision: 'remove',
      decision_reason: 'owner_request',
      decision_note: 'The number was reassigned.',
    };
    // The requester reads their own request; the reporter reads a confirmed request on their report
    // through my_report_removal_requests (the table itself shows them no row: it holds the requester's
    // contact address).
    const [own] = await run(
      requester,
      'select decision, decision_reason, decision_note from public.removal_requests where id = $1',
      [req.id],
    );
    expect(own).toEqual(decision);
    expect(await run(owner, 'select id from public.removal_requests where id = $1', [req.id])).toEqual([]);
    await adminPool().query('update public.removal_requests set contact_confirmed_at = now() where id = $1', [
      req.id,
    ]);
    const [seen] = await run(
      owner,
      'select decision, decision_reason, decision_note from public.my_report_removal_requests() where id = $1',
      [req.id],
    );
    expect(seen).toEqual(decision);
    const [log] = await run(
      admin,
      'select removal_request_id from public.moderation_log where report_id = $1',
      [r.id],
    );
    expect(log.removal_request_id).toBe(req.id);
    await expect(
      run(admin, `select public.decide_removal_request($1, 'keep', 'other')`, [req.id]),
    ).rejects.toThrow(/already decided/);

    const r2 = await fileReport(owner);
    await moderate(admin, [r2.id], 'verified');
    const [req2] = await run(
      requester,
      `insert into public.removal_requests (report_id, requester_id, reason, contact_email) values ($1, $2, 'Not mine', 'me@example.com') returning id`,
      [r2.id, requester.id],
    );
    await run(admin, `select public.decide_removal_request($1, 'keep', 'not_a_scam')`, [req2.id]);
    expect((await statusOf(r2.id)).status).toBe('verified');
    const left = await run(admin, 'select request_id from public.admin_removal_queue()');
    expect(left.map((x) => x.request_id)).not.toContain(req2.id);
    const [decided] = await run(admin, 'select public.admin_removal_decisions() as d');
    expect(
      (decided.d as { request_id: string; decision: string }[]).find((x) => x.request_id === req2.id),
    ).toMatchObject({ decision: 'keep', decision_reason: 'not_a_scam' });
    await expect(run(owner, 'select public.admin_removal_decisions()')).rejects.toThrow(DENIED);
  });

  it('hide rejects the report with the reason; keep of a report the 1-week rule hid puts it back and undoes the rule in the log', async () => {
    const requester = await createUser('Requester two');
    const r = await fileReport(owner);
    const [req] = await run(
      requester,
      `insert into public.removal_requests (report_id, requester_id, reason, contact_email) values ($1, $2, 'Not mine', 'me@example.com') returning id`,
      [r.id, requester.id],
    );
    await run(admin, `select public.decide_removal_request($1, 'hide', 'wrong_identifier')`, [req.id]);
    expect(await statusOf(r.id)).toMatchObject({ status: 'rejected', status_reason: 'wrong_identifier' });

    // The 1-week rule (issue 27) hides a pending report whose confirmed request went unanswered.
    const p = await fileReport(owner);
    const [req2] = await run(
      requester,
      `insert into public.removal_requests (report_id, requester_id, reason, contact_email) values ($1, $2, 'Not mine', 'me@example.com') returning id`,
      [p.id, requester.id],
    );
    await adminPool().query(
      `update public.removal_requests set contact_confirmed_at = now() - interval '8 days' where id = $1`,
      [req2.id],
    );
    await adminPool().query('select public.expire_removal_requests()');
    expect((await statusOf(p.id)).status).toBe('removed');
    await run(admin, `select public.decide_removal_request($1, 'keep', 'not_a_scam')`, [req2.id]);
    expect((await statusOf(p.id)).status).toBe('pending');
    const log = await run(
      admin,
      'select id, actor_id, to_status, undo_of from public.moderation_log where report_id = $1 order by id',
      [p.id],
    );
    expect(log).toMatchObject([
      { actor_id: null, to_status: 'removed', undo_of: null },
      { actor_id: admin.id, to_status: 'pending', undo_of: log[0].id },
    ]);
  });
});

describe('holds on: postgres — published figures', () => {
  it('moderation_statistics counts first decisions from the rollup, quantiles in hours, small counts masked; undo subtracts', async () => {
    const before = (await run(anon, 'select public.moderation_statistics() as s'))[0].s as Record<
      string,
      Record<string, number | null>
    >;
    expect(before).toHaveProperty('last_30_days');
    expect(before).toHaveProperty('all_time');
    expect(before).toHaveProperty('backlog');
    const rollup = async () =>
      Number(
        (await adminPool().query(`select coalesce(sum(decisions), 0) as n from private.moderation_daily`))
          .rows[0].n,
      );
    const n0 = await rollup();
    const r = await fileReport(owner);
    await adminPool().query(
      `update public.reports set created_at = now() - interval '30 hours' where id = $1`,
      [r.id],
    );
    const [log] = await moderate(admin, [r.id], 'verified');
    expect(await rollup()).toBe(n0 + 1);
    const [{ hours }] = (
      await adminPool().query(`select hours from private.moderation_daily where hours = 30 and decisions > 0`)
    ).rows;
    expect(hours).toBe(30);
    await run(admin, 'select public.undo_moderation($1)', [log.id]);
    expect(await rollup()).toBe(n0);
    await expect(run(anon, 'select * from private.moderation_daily')).rejects.toThrow(/permission denied/);
  });

  it('histogram_quantile finds the median and 90th percentile', async () => {
    const { rows } = await adminPool().query(
      `select private.histogram_quantile(array[1,2,10,50], array[5,5,8,2]::bigint[], 0.5) as m,
              private.histogram_quantile(array[1,2,10,50], array[5,5,8,2]::bigint[], 0.9) as p`,
    );
    expect(rows[0]).toEqual({ m: 2, p: 10 });
  });
});

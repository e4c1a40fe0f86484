/**
 * Who can see and change reports, acting as anon, the reporter (owner), another user (stranger) and an
 * admin: select, insert, update and delete, allowed and denied, and the attacks a client could try.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { DENIED, affected, anon, createUser, fileReport, run, setStatus, type Actor } from './actors.ts';
import { adminPool } from '../helpers.ts';
import { requestSettingValues, SET_REQUEST_SQL } from '@scamcheck/local-supabase';
import { withRole } from '../helpers.ts';

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

describe('holds on: postgres — reports: insert', () => {
  it('a signed-in user files a pending report as themselves, with the canonical identifier set', async () => {
    const r = await fileReport(owner, { reported_account: '+63-917-000-1111' });
    expect(r).toMatchObject({
      reporter_id: owner.id,
      status: 'pending',
      reported_account: '+63-917-000-1111',
      reported_account_canonical: '+639170001111',
    });
  });

  it('anon cannot file a report', async () => {
    await expect(fileReport(anon)).rejects.toThrow(/permission denied for table reports/);
  });

  it('a user cannot forge the reporter (reporter_id of someone else)', async () => {
    await expect(fileReport(owner, { reporter_id: stranger.id })).rejects.toThrow(
      /reporter_id is taken from your login/,
    );
  });

  it('the insert policy refuses a forged reporter on its own, with the trigger that also refuses it switched off', async () => {
    // reports_before_write refuses a forged reporter_id before row-level security is checked, so the
    // policy's "as themselves" check is never reached in normal use; here triggers are off
    // (session_replication_role = replica, a superuser setting taken before the role switch), so the
    // policy alone decides. Filing as oneself passes the policy and then fails on the canonical column
    // the switched-off trigger would have filled, which shows the policy, not something else, refused
    // the forged row.
    const insertAs = async (reporterId: string) => {
      const c = await adminPool().connect();
      try {
        await c.query('begin');
        await c.query('set local session_replication_role = replica');
        await c.query(
          SET_REQUEST_SQL,
          requestSettingValues({
            role: 'authenticated',
            claimsJson: JSON.stringify(owner.claims),
            sub: owner.id!,
            headersJson: '{}',
            cookiesJson: '{}',
            method: 'POST',
            path: '/rest/v1/reports',
            readOnly: false,
          }),
        );
        await c.query(
          `insert into public.reports (reporter_id, incident_date, incident_type, reported_account_type, reported_account)
           values ($1, '2026-01-15', 'scam', 'mobile', '0917 000 2222')`,
          [reporterId],
        );
      } finally {
        await c.query('rollback');
        c.release();
      }
    };
    await expect(insertAs(stranger.id!)).rejects.toThrow(/new row violates row-level security policy/);
    await expect(insertAs(owner.id!)).rejects.toThrow(/null value in column "reported_account_canonical"/);
  });

  it('a user cannot file a report already verified', async () => {
    await expect(fileReport(owner, { status: 'verified' })).rejects.toThrow(/only admins can set the status/);
  });

  it('a user cannot choose the canonical identifier (the trigger recomputes it)', async () => {
    await expect(fileReport(owner, { reported_account_canonical: 'victim@example.com' })).rejects.toThrow(
      /permission denied/,
    );
  });

  it("evidence must sit in the reporter's own folder (no pointing at someone else's files)", async () => {
    const r = await fileReport(owner, { evidence_path: `${owner.id}/proof.png` });
    expect(r.evidence_path).toBe(`${owner.id}/proof.png`);
    await expect(fileReport(owner, { evidence_path: `${stranger.id}/their-proof.png` })).rejects.toThrow(
      /own folder/,
    );
    await expect(
      run(owner, 'update public.reports set evidence_path = $2 where id = $1', [r.id, 'proof.png']),
    ).rejects.toThrow(/own folder/);
  });

  it('an incident date after tomorrow is refused', async () => {
    await expect(fileReport(owner, { incident_date: '2999-01-01' })).rejects.toThrow(/later than tomorrow/);
  });

  it('script in text fields is stored as plain text, unchanged', async () => {
    const script = '<script>alert(document.cookie)</script><img src=x onerror=alert(1)>';
    const r = await fileReport(owner, { incident_description: script, location: script });
    const [back] = await run(
      owner,
      'select incident_description, location from public.reports where id = $1',
      [r.id],
    );
    expect(back).toEqual({ incident_description: script, location: script });
  });

  it('an admin files reports as themselves and may file them verified', async () => {
    const r = await fileReport(admin, { status: 'verified' });
    expect(r).toMatchObject({ reporter_id: admin.id, status: 'verified' });
  });
});

describe('holds on: postgres — reports: select', () => {
  let report: Record<string, unknown>;
  beforeAll(async () => {
    report = await fileReport(owner);
  });

  it('the reporter reads their own report, including reporter_id', async () => {
    const rows = await run(owner, 'select id, reporter_id from public.reports where id = $1', [report.id]);
    expect(rows).toEqual([{ id: report.id, reporter_id: owner.id }]);
  });

  it('a stranger sees none of it (not even that it exists)', async () => {
    expect(await run(stranger, 'select * from public.reports where id = $1', [report.id])).toEqual([]);
    expect(
      await run(stranger, 'select count(*)::int as n from public.reports where reporter_id = $1', [owner.id]),
    ).toEqual([{ n: 0 }]);
  });

  it('anon cannot read the table at all', async () => {
    await expect(run(anon, 'select * from public.reports limit 1')).rejects.toThrow(
      /permission denied for table reports/,
    );
  });

  it('an admin reads every report, pending ones included, with the reporter', async () => {
    const rows = await run(admin, 'select reporter_id, status from public.reports where id = $1', [
      report.id,
    ]);
    expect(rows).toEqual([{ reporter_id: owner.id, status: 'pending' }]);
  });
});

describe('holds on: postgres — reports: update', () => {
  it('the reporter edits their own report; the canonical identifier follows', async () => {
    const r = await fileReport(owner);
    const [u] = await run(
      owner,
      `update public.reports set reported_account = 'Scam@Example.COM', reported_account_type = 'email'
                                  where id = $1 returning reported_account_canonical, updated_at > created_at as touched`,
      [r.id],
    );
    expect(u).toEqual({ reported_account_canonical: 'scam@example.com', touched: true });
  });

  it('the reporter cannot change the status', async () => {
    const r = await fileReport(owner);
    await expect(
      run(owner, `update public.reports set status = 'verified' where id = $1`, [r.id]),
    ).rejects.toThrow(/only admins can change the status/);
  });

  it('the reporter cannot hand the report to someone else', async () => {
    const r = await fileReport(owner);
    await expect(
      run(owner, 'update public.reports set reporter_id = $2 where id = $1', [r.id, stranger.id]),
    ).rejects.toThrow(/permission denied/);
  });

  it('created_at cannot be rewritten', async () => {
    const r = await fileReport(owner);
    await expect(
      run(owner, `update public.reports set created_at = '2000-01-01' where id = $1`, [r.id]),
    ).rejects.toThrow(/permission denied/);
  });

  it('editing a verified report sends it back to review', async () => {
    const r = await fileReport(owner);
    await setStatus(r.id, 'verified');
    const [u] = await run(
      owner,
      `update public.reports set incident_description = 'more detail' where id = $1 returning status`,
      [r.id],
    );
    expect(u).toEqual({ status: 'pending' });
  });

  it('a stranger updates nothing', async () => {
    const r = await fileReport(owner);
    expect(
      await affected(stranger, `update public.reports set location = 'hacked' where id = $1`, [r.id]),
    ).toBe(0);
    const { rows } = await adminPool().query('select location from public.reports where id = $1', [r.id]);
    expect(rows[0].location).toBe('Quezon City');
  });

  it('anon cannot update', async () => {
    await expect(run(anon, `update public.reports set location = 'x'`)).rejects.toThrow(/permission denied/);
  });

  it('an admin edits any report and may change its status directly', async () => {
    const r = await fileReport(owner);
    const [u] = await run(
      admin,
      `update public.reports set status = 'rejected', location = 'Manila' where id = $1 returning status, location`,
      [r.id],
    );
    expect(u).toEqual({ status: 'rejected', location: 'Manila' });
  });
});

describe('holds on: postgres — reports: delete', () => {
  it('the reporter deletes their own report', async () => {
    const r = await fileReport(owner);
    expect(await affected(owner, 'delete from public.reports where id = $1', [r.id])).toBe(1);
  });

  it('a stranger deletes nothing', async () => {
    const r = await fileReport(owner);
    expect(await affected(stranger, 'delete from public.reports where id = $1', [r.id])).toBe(0);
    expect((await adminPool().query('select 1 from public.reports where id = $1', [r.id])).rowCount).toBe(1);
  });

  it('anon cannot delete', async () => {
    await expect(run(anon, 'delete from public.reports')).rejects.toThrow(/permission denied/);
  });

  it('a stranger deleting every report at once deletes nothing (the delete policy alone decides: no WHERE, no select policy)', async () => {
    await fileReport(owner);
    const nobody = await createUser('Deletes everything');
    // Rolled back whatever happens, so a broken policy cannot wipe the other tests' reports.
    const rolledBack = new Error('roll back');
    let deleted = -1;
    await expect(
      withRole(adminPool(), nobody.claims, async (c) => {
        deleted = (await c.query('delete from public.reports')).rowCount ?? 0;
        throw rolledBack;
      }),
    ).rejects.toBe(rolledBack);
    expect(deleted).toBe(0);
  });

  it('an admin deletes any report', async () => {
    const r = await fileReport(owner);
    expect(await affected(admin, 'delete from public.reports where id = $1', [r.id])).toBe(1);
  });
});

describe('holds on: postgres — set_report_status (moderation RPC)', () => {
  it('an admin verifies a report and the reporter is notified', async () => {
    const r = await fileReport(owner);
    const [u] = await run<{ s: { status: string } }>(
      admin,
      `select to_jsonb(public.set_report_status($1, 'verified')) as s`,
      [r.id],
    );
    expect(u.s.status).toBe('verified');
    const notes = await run(owner, `select kind from public.notifications where report_id = $1`, [r.id]);
    expect(notes).toEqual([{ kind: 'report_status_changed' }]);
  });

  it('the reporter cannot verify their own report through it', async () => {
    const r = await fileReport(owner);
    await expect(run(owner, `select public.set_report_status($1, 'verified')`, [r.id])).rejects.toThrow(
      DENIED,
    );
  });

  it('anon cannot call it', async () => {
    const r = await fileReport(owner);
    await expect(run(anon, `select public.set_report_status($1, 'verified')`, [r.id])).rejects.toThrow(
      /permission denied for function set_report_status/,
    );
  });

  it('an unknown report is reported as not found', async () => {
    await expect(
      run(admin, `select public.set_report_status('00000000-0000-0000-0000-000000000000', 'verified')`),
    ).rejects.toThrow(/not found/);
  });
});

describe('holds on: postgres — report_cards view (security invoker)', () => {
  it('the reporter sees their cards with the real reported-case count of the identifier', async () => {
    const account = `0917 ${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
    const mine = await fileReport(owner, { reported_account: account });
    await fileReport(stranger, { reported_account: account.replace(/ /g, '') });
    const rows = await run(
      owner,
      'select id, reported_case_count from public.report_cards where reported_account_canonical = $1',
      [mine.reported_account_canonical],
    );
    expect(rows).toEqual([{ id: mine.id, reported_case_count: 2 }]);
  });

  it("a stranger sees no one else's cards and anon cannot read the view", async () => {
    const mine = await fileReport(owner);
    expect(await run(stranger, 'select * from public.report_cards where id = $1', [mine.id])).toEqual([]);
    await expect(run(anon, 'select * from public.report_cards limit 1')).rejects.toThrow(/permission denied/);
  });
});

describe('holds on: postgres — report_details (View full report)', () => {
  it('a signed-in stranger reads a visible report without its reporter', async () => {
    const r = await fileReport(owner, { incident_description: 'details here' });
    const [{ d }] = await run<{ d: Record<string, unknown> }>(
      stranger,
      'select public.report_details($1) as d',
      [r.id],
    );
    expect(d).toMatchObject({ id: r.id, incident_description: 'details here', status: 'not-verified' });
    expect(d).not.toHaveProperty('reporter_id');
    expect(JSON.stringify(d)).not.toContain(owner.id!);
  });

  it('rejected and removed reports are hidden', async () => {
    const r = await fileReport(owner);
    await setStatus(r.id, 'rejected');
    expect(await run(stranger, 'select public.report_details($1) as d', [r.id])).toEqual([{ d: null }]);
  });

  it('anon cannot call it', async () => {
    const r = await fileReport(owner);
    await expect(run(anon, 'select public.report_details($1)', [r.id])).rejects.toThrow(
      /permission denied for function/,
    );
  });
});

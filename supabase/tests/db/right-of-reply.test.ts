/**
 * Right of reply (issue 32) in the database: ownership proofs, the log, owner statements, watching and
 * the owner's removal request, acting as anon, the owner, a stranger and an admin.
 */
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { DENIED, anon, createUser, fileReport, run, serviceRole, type Actor } from './actors.ts';
import { adminPool, unique } from '../helpers.ts';

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

async function one<T = Record<string, unknown>>(actor: Actor, sql: string, params: unknown[] = []) {
  const rows = await run(actor, sql, params);
  return Object.values(rows[0])[0] as T;
}

interface Proof {
  id: string;
  identifier: string;
  method: string;
  challenge: string | null;
  verified_at: string | null;
  live: boolean;
  error?: string;
}

/** An e-mail proof taken to verified: start, code issued (service role), code typed. */
async function proveEmail(actor: Actor, address = `${unique('own')}@shop.example`): Promise<Proof> {
  const p = await one<Proof>(actor, `select public.start_ownership_proof('email', $1, 'email')`, [address]);
  const [{ code }] = await run<{ code: string }>(
    serviceRole,
    'select * from public.issue_ownership_code($1)',
    [p.id],
  );
  return one<Proof>(actor, 'select public.verify_ownership_code($1, $2)', [p.id, code]);
}

describe('holds on: postgres — ownership proofs', () => {
  it('an e-mail proof needs the e-mailed code; wrong codes count and five end it', async () => {
    const address = `${unique('own')}@Shop.Example`;
    const p = await one<Proof>(owner, `select public.start_ownership_proof('email', $1, 'email')`, [address]);
    expect(p).toMatchObject({ identifier: address.toLowerCase(), method: 'email', live: false });
    const [issued] = await run<{ address: string; code: string }>(
      serviceRole,
      'select * from public.issue_ownership_code($1)',
      [p.id],
    );
    expect(issued.address).toBe(address.toLowerCase());
    expect(issued.code).toMatch(/^\d{6}$/);
    const wrong = issued.code === '000000' ? '111111' : '000000';
    const w = await one<Proof>(owner, 'select public.verify_ownership_code($1, $2)', [p.id, wrong]);
    expect(w).toMatchObject({ error: 'wrong_code', live: false });
    // A stranger cannot use the owner's proof, even with the right code.
    await expect(
      run(stranger, 'select public.verify_ownership_code($1, $2)', [p.id, issued.code]),
    ).rejects.toThrow(/no such e-mail proof/);
    const ok = await one<Proof>(owner, 'select public.verify_ownership_code($1, $2)', [p.id, issued.code]);
    expect(ok).toMatchObject({ live: true });
    const log = await run<{ event: string }>(
      owner,
      'select event from public.ownership_proof_log where proof_id = $1 order by id',
      [p.id],
    );
    expect(log.map((l) => l.event)).toEqual(['started', 'code_sent', 'code_wrong', 'verified']);
  });

  it('five wrong codes end the code; callers cannot issue codes', async () => {
    const p = await one<Proof>(owner, `select public.start_ownership_proof('email', $1, 'email')`, [
      `${unique('own')}@x.example`,
    ]);
    await expect(run(owner, 'select * from public.issue_ownership_code($1)', [p.id])).rejects.toThrow(DENIED);
    const [{ code }] = await run<{ code: string }>(
      serviceRole,
      'select * from public.issue_ownership_code($1)',
      [p.id],
    );
    for (let i = 0; i < 5; i++)
      await one(owner, 'select public.verify_ownership_code($1, $2)', [
        p.id,
        code === '999999' ? '1' : '999999',
      ]);
    await expect(run(owner, 'select public.verify_ownership_code($1, $2)', [p.id, code])).rejects.toThrow(
      /expired/,
    );
  });

  it('a website proof answers a challenge; only the service role records a check', async () => {
    const p = await one<Proof>(owner, `select public.start_ownership_proof('website', $1, 'wellknown')`, [
      `https://${unique('site')}.example/path`,
    ]);
    expect(p.challenge).toMatch(/^scamcheck-verify=[0-9a-f]{32}$/);
    await expect(
      run(owner, 'select public.record_ownership_check($1, true, $2)', [p.id, 'x']),
    ).rejects.toThrow(DENIED);
    const failed = await one<Proof>(serviceRole, 'select public.record_ownership_check($1, false, $2)', [
      p.id,
      'HTTP 404',
    ]);
    expect(failed.live).toBe(false);
    const passed = await one<Proof>(serviceRole, 'select public.record_ownership_check($1, true, $2)', [
      p.id,
      'found',
    ]);
    expect(passed.live).toBe(true);
  });

  it('bad input is refused and changes nothing', async () => {
    const before = await one<string>(admin, 'select count(*)::text from public.ownership_proofs');
    await expect(
      run(owner, `select public.start_ownership_proof('mobile', '09171234567', 'email')`),
    ).rejects.toThrow(/only e-mail addresses and websites/);
    await expect(
      run(owner, `select public.start_ownership_proof('email', 'example.com', 'dns')`),
    ).rejects.toThrow(/proved by e-mail/);
    await expect(
      run(owner, `select public.start_ownership_proof('email', 'not-an-address', 'email')`),
    ).rejects.toThrow(/valid e-mail/);
    await expect(
      run(anon, `select public.start_ownership_proof('email', 'a@b.example', 'email')`),
    ).rejects.toThrow(DENIED);
    expect(await one<string>(admin, 'select count(*)::text from public.ownership_proofs')).toBe(before);
  });

  it('SMS proof: only a number Auth confirmed for the caller in the last minutes', async () => {
    const number = `0917${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
    const e164 = `63${number.slice(1)}`;
    await expect(run(owner, `select public.claim_phone_ownership('mobile', $1)`, [number])).rejects.toThrow(
      /confirm this number/,
    );
    await adminPool().query(
      `update auth.users set phone = $2, phone_confirmed_at = now() - interval '1 hour' where id = $1`,
      [owner.id, e164],
    );
    await expect(run(owner, `select public.claim_phone_ownership('mobile', $1)`, [number])).rejects.toThrow(
      /confirm this number/,
    );
    await adminPool().query(`update auth.users set phone_confirmed_at = now() where id = $1`, [owner.id]);
    await expect(
      run(stranger, `select public.claim_phone_ownership('mobile', $1)`, [number]),
    ).rejects.toThrow(/confirm this number/);
    const p = await one<Proof>(owner, `select public.claim_phone_ownership('ewallet', $1)`, [number]);
    expect(p).toMatchObject({ method: 'sms', identifier: `+${e164}`, live: true });
    await adminPool().query(`update auth.users set phone = null, phone_confirmed_at = null where id = $1`, [
      owner.id,
    ]);
  });

  it('RLS: the owner and admins read a proof (never the code hash); anon and strangers do not', async () => {
    const p = await proveEmail(owner);
    expect(await run(owner, 'select id from public.ownership_proofs where id = $1', [p.id])).toHaveLength(1);
    expect(await run(admin, 'select id from public.ownership_proofs where id = $1', [p.id])).toHaveLength(1);
    expect(await run(stranger, 'select id from public.ownership_proofs where id = $1', [p.id])).toHaveLength(
      0,
    );
    expect(
      await run(stranger, 'select id from public.ownership_proof_log where proof_id = $1', [p.id]),
    ).toHaveLength(0);
    await expect(run(anon, 'select id from public.ownership_proofs')).rejects.toThrow(DENIED);
    await expect(run(owner, 'select code_hash from public.ownership_proofs')).rejects.toThrow(DENIED);
    await expect(
      run(
        owner,
        `update public.ownership_proofs set expires_at = now() + interval '99 years' where id = $1`,
        [p.id],
      ),
    ).rejects.toThrow(DENIED);
    await expect(
      run(
        owner,
        `insert into public.ownership_proofs (user_id, identifier_kind, identifier_canonical, method) values ($1, 'email', 'x@y.example', 'email')`,
        [owner.id],
      ),
    ).rejects.toThrow(DENIED);
  });
});

describe('holds on: postgres — owner statements', () => {
  it('only a verified owner writes; no links; 500 characters; public without the author', async () => {
    const p = await proveEmail(owner);
    await expect(
      run(stranger, 'select public.set_owner_statement($1, $2)', [p.identifier, 'Not mine but I say so']),
    ).rejects.toThrow(/prove that you own/);
    for (const bad of [
      'See https://evil.example',
      'visit www.shop',
      'mail me at a@b.co',
      'go to shop.ph now',
    ])
      await expect(
        run(owner, 'select public.set_owner_statement($1, $2)', [p.identifier, bad]),
      ).rejects.toThrow(/links/);
    await expect(
      run(owner, 'select public.set_owner_statement($1, $2)', [p.identifier, 'a'.repeat(501)]),
    ).rejects.toThrow(/500/);
    await one(owner, 'select public.set_owner_statement($1, $2)', [
      p.identifier,
      'This is our shop address. A competitor reported it; we never sold anything online.',
    ]);
    const shown = await one<Record<string, unknown>[]>(anon, 'select public.owner_statements_for($1)', [
      [p.identifier],
    ]);
    expect(shown).toHaveLength(1);
    expect(shown[0]).toMatchObject({ identifier: p.identifier, verified_by: 'email' });
    expect(JSON.stringify(shown)).not.toContain(owner.id!);
    await expect(run(anon, 'select * from public.owner_statements')).rejects.toThrow(DENIED);
    expect(
      await run(stranger, 'select * from public.owner_statements where identifier_canonical = $1', [
        p.identifier,
      ]),
    ).toHaveLength(0);
  });

  it('admins hide with a reason (strangers cannot); withdrawal and expiry take a statement down', async () => {
    const p = await proveEmail(owner);
    await one(owner, 'select public.set_owner_statement($1, $2)', [p.identifier, 'We are a real shop.']);
    const [{ id }] = await run<{ id: string }>(
      owner,
      'select id from public.owner_statements where identifier_canonical = $1',
      [p.identifier],
    );
    const count = async () =>
      (await one<unknown[]>(anon, 'select public.owner_statements_for($1)', [[p.identifier]])).length;
    expect(await count()).toBe(1);
    await expect(run(stranger, 'select public.hide_owner_statement($1, $2)', [id, 'abuse'])).rejects.toThrow(
      DENIED,
    );
    await expect(run(admin, 'select public.hide_owner_statement($1, $2)', [id, ' '])).rejects.toThrow(
      /reason/,
    );
    await run(admin, 'select public.hide_owner_statement($1, $2)', [id, 'Insults a reporter']);
    expect(await count()).toBe(0);
    const [mine] = await run<{ hidden_reason: string }>(
      owner,
      'select hidden_reason from public.owner_statements where id = $1',
      [id],
    );
    expect(mine.hidden_reason).toBe('Insults a reporter');
    await run(admin, 'select public.unhide_owner_statement($1)', [id]);
    expect(await count()).toBe(1);
    await adminPool().query(
      `update public.ownership_proofs set expires_at = now() - interval '1 second' where id = $1`,
      [p.id],
    );
    expect(await count()).toBe(0);
    // A new code to the same address waits a minute (issue_ownership_code): move the first one back.
    await adminPool().query(
      `update public.ownership_proofs set code_sent_at = code_sent_at - interval '2 minutes' where identifier_canonical = $1`,
      [p.identifier],
    );
    const q = await proveEmail(owner, p.identifier);
    expect(await count()).toBe(1);
    await one(owner, 'select public.withdraw_ownership_proof($1)', [q.id]);
    expect(await count()).toBe(0);
    await expect(run(stranger, 'select public.withdraw_ownership_proof($1)', [p.id])).rejects.toThrow(
      /no such proof/,
    );
  });
});

describe('holds on: postgres — owner statements by hash prefix (the private message check)', () => {
  it('answers the statements in a prefix with their full hash, never the identifier; bad prefixes refused', async () => {
    // An owner of its own: the others have started most of their 10 proofs an hour already.
    const ranged = await createUser('Ranged');
    const p = await proveEmail(ranged);
    await one(ranged, 'select public.set_owner_statement($1, $2)', [
      p.identifier,
      'Our order line, not a scam.',
    ]);
    const hash = createHash('sha256').update(p.identifier).digest('hex');
    const shown = await one<Record<string, unknown>[]>(anon, 'select public.owner_statements_in_ranges($1)', [
      [hash.slice(0, 5)],
    ]);
    const mine = shown.filter((s) => s.hash === hash);
    expect(mine).toEqual([
      expect.objectContaining({ statement: 'Our order line, not a scam.', verified_by: 'email' }),
    ]);
    expect(Object.keys(mine[0]).sort()).toEqual([
      'hash',
      'statement',
      'updated_at',
      'verified_at',
      'verified_by',
    ]);
    expect(JSON.stringify(shown)).not.toContain(p.identifier);
    // Another prefix does not find it.
    const other = (hash[0] === '0' ? '1' : '0') + hash.slice(1, 5);
    const elsewhere = await one<Record<string, unknown>[]>(
      anon,
      'select public.owner_statements_in_ranges($1)',
      [[other]],
    );
    expect(elsewhere.some((s) => s.hash === hash)).toBe(false);
    for (const bad of [['ABCDE'], ['abcd'], ['abcdef'], [null], Array.from({ length: 51 }, () => 'abcde')])
      await expect(run(anon, 'select public.owner_statements_in_ranges($1)', [bad])).rejects.toThrow(
        /prefixes/,
      );
    // Withdrawn: gone from the prefix's answer too.
    await one(ranged, 'select public.withdraw_ownership_proof($1)', [p.id]);
    const after = await one<Record<string, unknown>[]>(anon, 'select public.owner_statements_in_ranges($1)', [
      [hash.slice(0, 5)],
    ]);
    expect(after.some((s) => s.hash === hash)).toBe(false);
  });
});

describe('holds on: postgres — owners watch and ask for removal', () => {
  it('a verified owner watches and is notified of a new report, never told who filed it', async () => {
    const p = await proveEmail(owner);
    await expect(run(stranger, 'select public.watch_owned_identifier($1)', [p.identifier])).rejects.toThrow(
      /prove that you own/,
    );
    await run(owner, 'select public.watch_owned_identifier($1)', [p.identifier]);
    await run(owner, 'select public.watch_owned_identifier($1)', [p.identifier]);
    const report = await fileReport(stranger, {
      reported_account_type: 'email',
      reported_account: p.identifier,
    });
    const notes = await run<Record<string, unknown>>(
      owner,
      'select * from public.notifications where report_id = $1',
      [report.id],
    );
    expect(notes).toHaveLength(1);
    expect(JSON.stringify(notes)).not.toContain(stranger.id!);
    expect(JSON.stringify(notes)).not.toContain(stranger.email!);
  });

  it("an owner's removal request skips the e-mail link and tells the reporter at once", async () => {
    const p = await proveEmail(owner);
    const report = await fileReport(stranger, {
      reported_account_type: 'email',
      reported_account: p.identifier,
    });
    const other = await fileReport(stranger, {
      reported_account_type: 'email',
      reported_account: `${unique('n')}@x.example`,
    });
    await expect(
      run(owner, 'select public.owner_request_removal($1, $2)', [other.id, 'not mine']),
    ).rejects.toThrow(/prove that you own/);
    // The owner's screen lists the reports on their identifier, never who filed them; others are refused.
    const listed = await one<Record<string, unknown>[]>(owner, 'select public.owned_identifier_reports($1)', [
      p.identifier,
    ]);
    expect(listed).toEqual([
      { id: report.id, incident_type: expect.any(String), status: 'pending', created_at: expect.any(String) },
    ]);
    await expect(run(stranger, 'select public.owned_identifier_reports($1)', [p.identifier])).rejects.toThrow(
      /prove that you own/,
    );
    await expect(run(anon, 'select public.owned_identifier_reports($1)', [p.identifier])).rejects.toThrow(
      DENIED,
    );
    const id = await one<string>(owner, 'select public.owner_request_removal($1, $2)', [
      report.id,
      'We never sold this.',
    ]);
    const { rows } = await adminPool().query(
      'select contact_confirmed_at, contact_email from public.removal_requests where id = $1',
      [id],
    );
    expect(rows[0].contact_confirmed_at).not.toBeNull();
    expect(rows[0].contact_email).toBe(owner.email);
    const notes = await run(
      stranger,
      `select * from public.notifications where report_id = $1 and kind = 'removal_requested'`,
      [report.id],
    );
    expect(notes).toHaveLength(1);
  });
});

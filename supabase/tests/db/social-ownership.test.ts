/**
 * Right of reply for social media and chat accounts (issue 32) in the database: a bio-code proof
 * (checked by the `ownership` function, recorded by the service role) and an admin's review of the
 * owner's evidence, acting as anon, the owner, a stranger and an admin. Migration
 * 20261130020100_social_ownership.sql.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { DENIED, anon, createUser, run, serviceRole, type Actor } from './actors.ts';
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
  challenge: string;
  live: boolean;
}

const startSocial = (actor: Actor, link: string) =>
  one<Proof>(actor, 'select public.start_social_proof($1)', [link]);

const submit = (
  actor: Actor,
  proof: string,
  url: string,
  image: string | null = null,
  note: string | null = null,
) =>
  one<{ id: string }>(actor, 'select public.submit_ownership_evidence($1, $2, $3, $4)', [
    proof,
    url,
    image,
    note,
  ]);

const decide = (actor: Actor, evidence: string, approve: boolean, reason: string | null = null) =>
  one<{ decision: string; proof: Proof }>(actor, 'select public.decide_ownership_evidence($1, $2, $3)', [
    evidence,
    approve,
    reason,
  ]);

async function events(proof: string): Promise<string[]> {
  const rows = await run<{ event: string }>(
    serviceRole,
    'select event from public.ownership_proof_log where proof_id = $1 order by id',
    [proof],
  );
  return rows.map((r) => r.event);
}

describe('holds on: postgres — social account proof by a code in the bio', () => {
  it('starts from any link to the account, with a short code; bad input changes nothing', async () => {
    const name = unique('nena').replace(/-/g, '_');
    const p = await startSocial(owner, `https://www.T.me/${name}?start=1`);
    expect(p).toMatchObject({ identifier: `t.me/${name.toLowerCase()}`, method: 'bio', live: false });
    expect(p.challenge).toMatch(/^scamcheck-[0-9a-f]{12}$/);
    await expect(run(anon, 'select public.start_social_proof($1)', [`https://t.me/${name}`])).rejects.toThrow(
      DENIED,
    );
    const before = await run(
      serviceRole,
      'select count(*)::int n from public.ownership_proofs where user_id = $1',
      [owner.id],
    );
    for (const bad of [
      'hello',
      'https://example.com/',
      'https://t.me/',
      'https://facebook.com/login',
      '',
      null,
    ]) {
      await expect(run(owner, 'select public.start_social_proof($1)', [bad])).rejects.toThrow(
        /not a link to a social media or chat account/,
      );
    }
    // Social accounts are not proved by the e-mail and website route.
    await expect(
      run(owner, `select public.start_ownership_proof('social', $1, 'bio')`, [`https://t.me/${name}`]),
    ).rejects.toThrow(/only e-mail addresses and websites/);
    expect(
      await run(serviceRole, 'select count(*)::int n from public.ownership_proofs where user_id = $1', [
        owner.id,
      ]),
    ).toEqual(before);
  });

  it('only the service role records a check; a passed check verifies by bio and the answer says so', async () => {
    const name = unique('shop').replace(/-/g, '_');
    const p = await startSocial(owner, `t.me/${name}`);
    for (const actor of [anon, owner, stranger, admin]) {
      await expect(
        run(actor, 'select public.record_bio_check($1, true, $2)', [p.id, 'forged']),
      ).rejects.toThrow(DENIED);
    }
    const failed = await one<Proof>(serviceRole, 'select public.record_bio_check($1, false, $2)', [
      p.id,
      'not found',
    ]);
    expect(failed.live).toBe(false);
    const passed = await one<Proof>(serviceRole, 'select public.record_bio_check($1, true, $2)', [
      p.id,
      'found',
    ]);
    expect(passed).toMatchObject({ live: true, method: 'bio' });
    expect(await events(p.id)).toEqual(['started', 'checked', 'checked', 'verified']);
    // A website proof is not a bio proof.
    const site = await one<Proof>(owner, `select public.start_ownership_proof('website', $1, 'wellknown')`, [
      `${unique('w')}.example`,
    ]);
    await expect(
      run(serviceRole, 'select public.record_bio_check($1, true, $2)', [site.id, 'x']),
    ).rejects.toThrow(/no such bio proof/);
    await run(owner, 'select public.set_owner_statement($1, $2)', [
      p.identifier,
      'This is our shop account.',
    ]);
    const shown = await one<{ verified_by: string }[]>(anon, 'select public.owner_statements_for($1)', [
      [p.identifier],
    ]);
    expect(shown).toEqual([
      expect.objectContaining({ statement: 'This is our shop account.', verified_by: 'bio' }),
    ]);
  });
});

describe('holds on: postgres — social account proof by an admin review of evidence', () => {
  it('the owner sends evidence; a rejection says why; an approval verifies by review', async () => {
    const name = unique('nena').replace(/-/g, '.');
    const p = await startSocial(owner, `https://facebook.com/${name}`);
    const url = `https://www.facebook.com/${name}/`;
    const image = `${owner.id}/${unique('shot')}.png`;
    await adminPool().query(`insert into storage.objects (bucket_id, name) values ('evidence', $1)`, [image]);

    // Who may send it, and what: the owner, a link naming this account, their own screenshot.
    await expect(submit(anon, p.id, url)).rejects.toThrow(DENIED);
    await expect(submit(stranger, p.id, url)).rejects.toThrow(/no such social account proof/);
    await expect(submit(owner, p.id, 'https://facebook.com/someone.else')).rejects.toThrow(
      /must be a link to/,
    );
    await expect(submit(owner, p.id, `javascript:alert(1)//facebook.com/${name}`)).rejects.toThrow(
      /must be a link to/,
    );
    await expect(submit(owner, p.id, url, `${stranger.id}/x.png`)).rejects.toThrow(/one you uploaded/);
    await expect(submit(owner, p.id, url, `${owner.id}/never-uploaded.png`)).rejects.toThrow(
      /one you uploaded/,
    );
    await expect(submit(owner, p.id, url, null, 'x'.repeat(1001))).rejects.toThrow(/1000 characters/);
    const first = await submit(owner, p.id, url, image, 'The code is in the About section.');
    await expect(submit(owner, p.id, url)).rejects.toThrow(/already waiting/);

    // Who reads it: the owner and admins.
    expect(
      await run(owner, 'select id from public.ownership_evidence where id = $1', [first.id]),
    ).toHaveLength(1);
    expect(
      await run(admin, 'select id from public.ownership_evidence where id = $1', [first.id]),
    ).toHaveLength(1);
    expect(
      await run(stranger, 'select id from public.ownership_evidence where id = $1', [first.id]),
    ).toHaveLength(0);
    await expect(run(anon, 'select id from public.ownership_evidence')).rejects.toThrow(DENIED);
    await expect(
      run(
        owner,
        `update public.ownership_evidence set decision = 'approved', decided_at = now() where id = $1`,
        [first.id],
      ),
    ).rejects.toThrow(DENIED);
    // The screenshot is kept by the upload cleanup while evidence refers to it.
    const kept = await adminPool().query(`select private.referenced_upload('evidence', $1) kept`, [image]);
    expect(kept.rows[0].kept).toBe(true);

    // Who decides: admins only; a rejection needs a reason, which the owner reads.
    await expect(decide(owner, first.id, true)).rejects.toThrow(DENIED);
    await expect(decide(stranger, first.id, true)).rejects.toThrow(DENIED);
    await expect(decide(anon, first.id, true)).rejects.toThrow(DENIED);
    await expect(decide(admin, first.id, false)).rejects.toThrow(/give a reason/);
    const rejected = await decide(admin, first.id, false, 'The screenshot does not show the code.');
    expect(rejected).toMatchObject({ decision: 'rejected', proof: { live: false, method: 'bio' } });
    await expect(decide(admin, first.id, true)).rejects.toThrow(/already decided/);
    expect(
      await run(owner, 'select decision, reason from public.ownership_evidence where id = $1', [first.id]),
    ).toEqual([{ decision: 'rejected', reason: 'The screenshot does not show the code.' }]);

    // Sent again and approved: verified by review, for the usual time, and the answer says so.
    const second = await submit(owner, p.id, url, null, 'Now the code is in the bio.');
    const approved = await decide(admin, second.id, true);
    expect(approved).toMatchObject({ decision: 'approved', proof: { live: true, method: 'review' } });
    const [row] = await run<{ days: number }>(
      serviceRole,
      `select round(extract(epoch from expires_at - verified_at) / 86400)::int days from public.ownership_proofs where id = $1`,
      [p.id],
    );
    expect(row.days).toBe(365);
    expect(await events(p.id)).toEqual([
      'started',
      'evidence_submitted',
      'evidence_rejected',
      'evidence_submitted',
      'evidence_approved',
      'verified',
    ]);
    await expect(submit(owner, p.id, url)).rejects.toThrow(/no longer waiting/);
    await run(owner, 'select public.set_owner_statement($1, $2)', [
      p.identifier,
      'Our page, proved by review.',
    ]);
    expect(
      await one<{ verified_by: string }[]>(anon, 'select public.owner_statements_for($1)', [[p.identifier]]),
    ).toEqual([expect.objectContaining({ verified_by: 'review' })]);
  });

  it('nobody reviews their own evidence, an admin included; a withdrawn proof is not reviewed', async () => {
    const name = unique('adm').replace(/-/g, '_');
    const own = await startSocial(admin, `https://instagram.com/${name}`);
    const mine = await submit(admin, own.id, `https://instagram.com/${name}`);
    await expect(decide(admin, mine.id, true)).rejects.toThrow(/your own evidence/);
    const waiting = await adminPool().query('select verified_at from public.ownership_proofs where id = $1', [
      own.id,
    ]);
    expect(waiting.rows).toEqual([{ verified_at: null }]);

    const p = await startSocial(owner, `https://x.com/${name}`);
    const e = await submit(owner, p.id, `https://twitter.com/${name}`);
    await run(owner, 'select public.withdraw_ownership_proof($1)', [p.id]);
    await expect(decide(admin, e.id, true)).rejects.toThrow(/no longer waiting/);
  });

  it('evidence is limited per account and day', async () => {
    const flooder = await createUser('Flooder');
    const sent: string[] = [];
    for (let i = 0; i < 6; i++) {
      const name = `${unique('f').replace(/-/g, '_')}_${i}`;
      const p = await startSocial(flooder, `https://tiktok.com/@${name}`);
      const attempt = submit(flooder, p.id, `https://www.tiktok.com/@${name}`);
      if (i < 5) sent.push((await attempt).id);
      else await expect(attempt).rejects.toThrow(/Too much evidence sent today/);
    }
    expect(sent).toHaveLength(5);
  });
});

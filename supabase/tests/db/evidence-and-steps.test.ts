/**
 * Issue 33: up to five evidence images per report (reports.evidence_paths, evidence_path kept as its
 * first element for the legacy API), the incident date never after today in UTC+14, and the
 * "what to do now" steps (public.after_scam_steps) that everyone reads and admins edit. Each acted as
 * anon, the owner, a stranger and an admin.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { DENIED, affected, anon, createUser, fileReport, run, serviceRole, type Actor } from './actors.ts';
import { adminPool } from '../helpers.ts';

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

const paths = (actor: Actor, n: number) =>
  Array.from({ length: n }, (_, i) => `${actor.id}/shot-${i + 1}.webp`);

describe('holds on: postgres — reports.evidence_paths', () => {
  it('the owner files five images; evidence_path is the first, for the legacy API', async () => {
    const r = await fileReport(owner, { evidence_paths: paths(owner, 5) });
    expect(r.evidence_paths).toEqual(paths(owner, 5));
    expect(r.evidence_path).toBe(`${owner.id}/shot-1.webp`);
  });

  it('a sixth image, a repeated one or a path outside the reporter folder is refused', async () => {
    await expect(fileReport(owner, { evidence_paths: paths(owner, 6) })).rejects.toThrow(
      /reports_evidence_paths_at_most_five/,
    );
    const twice = [`${owner.id}/a.webp`, `${owner.id}/a.webp`];
    await expect(fileReport(owner, { evidence_paths: twice })).rejects.toThrow(/same image twice/);
    await expect(
      fileReport(owner, { evidence_paths: [`${owner.id}/a.webp`, `${stranger.id}/b.webp`] }),
    ).rejects.toThrow(/evidence_paths must be in the reporter's own folder/);
    await expect(fileReport(owner, { evidence_paths: [`${owner.id}/../x.webp`] })).rejects.toThrow(
      /evidence_paths? must be a storage object name/,
    );
  });

  it('a legacy single evidence_path becomes the only element; replacing it keeps the other images', async () => {
    const legacy = await fileReport(owner, { evidence_path: `${owner.id}/legacy.png` });
    expect(legacy.evidence_paths).toEqual([`${owner.id}/legacy.png`]);

    const r = await fileReport(owner, { evidence_paths: paths(owner, 3) });
    const [after] = await run(
      owner,
      'update public.reports set evidence_path = $2 where id = $1 returning evidence_path, evidence_paths',
      [r.id, `${owner.id}/new-first.png`],
    );
    expect(after).toEqual({
      evidence_path: `${owner.id}/new-first.png`,
      evidence_paths: [`${owner.id}/new-first.png`, `${owner.id}/shot-2.webp`, `${owner.id}/shot-3.webp`],
    });
    const [emptied] = await run(
      owner,
      `update public.reports set evidence_paths = '{}' where id = $1 returning evidence_path, evidence_paths`,
      [r.id],
    );
    expect(emptied).toEqual({ evidence_path: null, evidence_paths: [] });
  });

  it('anon and a stranger neither read nor change the images; an admin reads them', async () => {
    const r = await fileReport(owner, { evidence_paths: paths(owner, 2) });
    await expect(
      run(anon, 'select evidence_paths from public.reports where id = $1', [r.id]),
    ).rejects.toThrow(DENIED);
    expect(await run(stranger, 'select evidence_paths from public.reports where id = $1', [r.id])).toEqual(
      [],
    );
    expect(
      await affected(stranger, `update public.reports set evidence_paths = '{}' where id = $1`, [r.id]),
    ).toBe(0);
    expect(await run(admin, 'select evidence_paths from public.reports where id = $1', [r.id])).toEqual([
      { evidence_paths: paths(owner, 2) },
    ]);
    expect(await run(owner, 'select evidence_paths from public.reports where id = $1', [r.id])).toEqual([
      { evidence_paths: paths(owner, 2) },
    ]);
  });
});

describe('upload cleanup and evidence_paths', () => {
  it('public.orphan_uploads counts every image of a report as referenced, not only the first', async () => {
    const pool = adminPool();
    const [first, second, loose] = ['o-1.webp', 'o-2.webp', 'o-loose.webp'].map((n) => `${owner.id}/${n}`);
    await pool.query(
      `insert into storage.objects (bucket_id, name, created_at)
       select 'evidence', n, now() - interval '2 days' from unnest($1::text[]) n`,
      [[first, second, loose]],
    );
    await fileReport(owner, { evidence_paths: [first, second] });
    const rows = await run<{ path: string }>(
      serviceRole,
      `select path from public.orphan_uploads(86400, 1000) where bucket = 'evidence' and path like $1`,
      [`${owner.id}/o-%`],
    );
    const ours = rows.map((r) => r.path);
    expect(ours).toEqual([loose]);
  });
});

describe('holds on: postgres — reports.incident_date', () => {
  async function dayInPlus14(offsetDays: number): Promise<string> {
    const { rows } = await adminPool().query<{ d: string }>(
      `select to_char((now() at time zone 'Etc/GMT-14')::date + $1::int, 'YYYY-MM-DD') as d`,
      [offsetDays],
    );
    return rows[0].d;
  }

  it('today in the time zone furthest ahead is accepted; the day after it is refused', async () => {
    await expect(fileReport(owner, { incident_date: await dayInPlus14(0) })).resolves.toBeTruthy();
    await expect(fileReport(owner, { incident_date: await dayInPlus14(1) })).rejects.toThrow(
      /incident_date cannot be (in the future|later than tomorrow)/,
    );
  });

  it('an edit moving the date into the future is refused, other edits of an old report are not', async () => {
    const r = await fileReport(owner, { incident_date: '2026-01-02' });
    await expect(
      run(owner, 'update public.reports set incident_date = $2 where id = $1', [r.id, await dayInPlus14(1)]),
    ).rejects.toThrow(/incident_date cannot be/);
    expect(await affected(owner, `update public.reports set location = 'Pasig' where id = $1`, [r.id])).toBe(
      1,
    );
  });
});

describe('holds on: postgres — after_scam_steps', () => {
  it('anon and users read the steps in order of urgency, with both languages', async () => {
    for (const actor of [anon, owner]) {
      const rows = await run<{ position: number; title_en: string; title_fil: string }>(
        actor,
        'select position, title_en, title_fil from public.after_scam_steps order by position',
      );
      expect(rows.length).toBeGreaterThanOrEqual(5);
      expect(rows[0].title_en).toMatch(/bank or e-wallet/);
      expect(rows.every((r) => r.title_fil.length > 0)).toBe(true);
    }
  });

  it('anon and a non-admin cannot add, change or remove a step', async () => {
    const add = `insert into public.after_scam_steps (position, title_en, title_fil, body_en, body_fil) values (40, 'x', 'x', 'x', 'x')`;
    await expect(run(anon, add)).rejects.toThrow(DENIED);
    await expect(run(stranger, add)).rejects.toThrow(DENIED);
    await expect(run(anon, `update public.after_scam_steps set title_en = 'x'`)).rejects.toThrow(DENIED);
    expect(await affected(stranger, `update public.after_scam_steps set title_en = 'x'`)).toBe(0);
    expect(await affected(stranger, 'delete from public.after_scam_steps')).toBe(0);
  });

  it('an admin adds, edits and removes a step; the editor is recorded, a non-https link refused', async () => {
    const [added] = await run(
      admin,
      `insert into public.after_scam_steps (position, title_en, title_fil, body_en, body_fil, link_url)
       values (41, 'Test step', 'Pagsubok', 'Body', 'Katawan', 'https://example.gov.ph/x') returning id`,
    );
    const [edited] = await run(
      admin,
      `update public.after_scam_steps set contacts = '1326', updated_by = $2 where id = $1 returning updated_by`,
      [added.id, stranger.id],
    ).catch(() => [null]);
    // updated_by is not granted to clients; an edit without it records the admin.
    expect(edited).toBeNull();
    const [stamped] = await run(
      admin,
      `update public.after_scam_steps set contacts = '1326' where id = $1 returning updated_by`,
      [added.id],
    );
    expect(stamped.updated_by).toBe(admin.id);
    await expect(
      run(admin, `update public.after_scam_steps set link_url = 'http://example.com' where id = $1`, [
        added.id,
      ]),
    ).rejects.toThrow(/after_scam_steps_link_url_check/);
    expect(await affected(admin, 'delete from public.after_scam_steps where id = $1', [added.id])).toBe(1);
  });
});

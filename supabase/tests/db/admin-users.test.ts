/**
 * Admins' user list and suspensions (issue 31 item 4), as anon, the user, a stranger and an admin:
 * search and filters, suspending through Auth's ban with a reason, the append-only suspension log.
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
    createUser('Owner Quintos'),
    createUser('Stranger'),
    createUser('Admin', { admin: true }),
    createUser('Admin two', { admin: true }),
  ]);
});

const list = (actor: Actor, args = '') =>
  run(actor, `select * from public.admin_users(${args})`) as Promise<Record<string, unknown>[]>;
const suspend = (
  actor: Actor,
  userId: unknown,
  on: boolean,
  reason: string | null,
  days: number | null = null,
) => run(actor, 'select * from public.admin_set_suspension($1, $2, $3, $4)', [userId, on, reason, days]);

describe('holds on: postgres — the user list', () => {
  it('admins search by name, e-mail or id and see role and report counts; others are refused', async () => {
    const r = await fileReport(owner);
    await run(admin, `select * from public.moderate_reports($1::uuid[], 'rejected', 'no_evidence')`, [
      [r.id],
    ]);
    await fileReport(owner);
    const [byName] = await list(admin, `search => 'quintos'`);
    expect(byName).toMatchObject({
      id: owner.id,
      email: owner.email,
      is_admin: false,
      reports_filed: 2,
      reports_rejected: 1,
      suspended_until: null,
    });
    expect((await list(admin, `search => '${owner.email!.toUpperCase()}'`)).map((u) => u.id)).toEqual([
      owner.id,
    ]);
    expect((await list(admin, `search => '${owner.id}'`)).map((u) => u.id)).toEqual([owner.id]);
    // LIKE's wildcards are plain characters in a search.
    expect(await list(admin, `search => '%_%quintos'`)).toEqual([]);
    const admins = await list(admin, `role => 'admin', max_rows => 200`);
    expect(admins.every((u) => u.is_admin)).toBe(true);
    expect(admins.map((u) => u.id)).toEqual(expect.arrayContaining([admin.id, admin2.id]));
    const busy = await list(admin, `min_reports => 2, max_rows => 200`);
    expect(busy.map((u) => u.id)).toContain(owner.id);
    expect(busy.map((u) => u.id)).not.toContain(stranger.id);
    await expect(list(admin, `role => 'root'`)).rejects.toThrow(/admin or user/);
    for (const actor of [owner, stranger]) await expect(list(actor)).rejects.toThrow(DENIED);
    await expect(list(anon)).rejects.toThrow(/permission denied/);
  });

  it('pages by joined date (keyset): the next page starts right after the last row', async () => {
    const four = await list(admin, 'max_rows => 4');
    const next = await run(
      admin,
      'select id from public.admin_users(before_created_at => $1, before_id => $2, max_rows => 2)',
      [four[1].created_at, four[1].id],
    );
    expect(next.map((u) => u.id)).toEqual([four[2].id, four[3].id]);
  });
});

describe('holds on: postgres — suspensions', () => {
  it('an admin suspends with a reason: Auth ban set, sessions ended, logged; the account cannot file reports; unsuspend lifts it', async () => {
    const user = await createUser('To suspend');
    await adminPool().query(
      `insert into auth.sessions (id, user_id, created_at, updated_at) values (gen_random_uuid(), $1, now(), now())`,
      [user.id],
    );
    const [row] = await suspend(admin, user.id, true, '  Filed false reports about a rival shop ', 30);
    expect(row).toMatchObject({
      user_id: user.id,
      actor_id: admin.id,
      action: 'suspend',
      reason: 'Filed false reports about a rival shop',
    });
    const { rows: au } = await adminPool().query(
      `select banned_until > now() + interval '29 days' as banned, (select count(*) from auth.sessions s where s.user_id = u.id)::int as sessions from auth.users u where id = $1`,
      [user.id],
    );
    expect(au[0]).toEqual({ banned: true, sessions: 0 });
    const [listed] = await list(admin, `search => '${user.id}'`);
    expect(listed.suspension_reason).toBe('Filed false reports about a rival shop');
    expect((await list(admin, `suspended => true, max_rows => 200`)).map((u) => u.id)).toContain(user.id);
    await expect(fileReport(user)).rejects.toThrow(/suspended/);

    await suspend(admin2, user.id, false, 'Appeal accepted');
    expect((await list(admin, `search => '${user.id}'`))[0].suspended_until).toBeNull();
    await fileReport(user);
    const log = await run(admin, 'select action, reason, actor_email from public.admin_suspension_log($1)', [
      user.id,
    ]);
    expect(log).toEqual([
      { action: 'unsuspend', reason: 'Appeal accepted', actor_email: admin2.email },
      { action: 'suspend', reason: 'Filed false reports about a rival shop', actor_email: admin.email },
    ]);
  });

  it('bad input is refused and changes nothing: no reason, bad days, yourself, another admin', async () => {
    const user = await createUser('Kept');
    await expect(suspend(admin, user.id, true, ' x ')).rejects.toThrow(/reason of 3 to 500/);
    await expect(suspend(admin, user.id, true, 'Spam', 0)).rejects.toThrow(/between 1 and 3650/);
    await expect(suspend(admin, admin.id, true, 'Testing')).rejects.toThrow(/yourself/);
    await expect(suspend(admin, admin2.id, true, 'Testing')).rejects.toThrow(/revoke the role first/);
    await expect(suspend(admin, '00000000-0000-4000-8000-000000000000', true, 'Testing')).rejects.toThrow(
      /no such user/,
    );
    const { rows } = await adminPool().query('select banned_until from auth.users where id = $1', [user.id]);
    expect(rows[0].banned_until).toBeNull();
    expect(
      await run(admin, 'select 1 from public.account_suspensions where user_id = $1', [user.id]),
    ).toEqual([]);
  });

  it('only admins suspend and read the log; nobody changes or deletes a log row through the API', async () => {
    const user = await createUser('Target');
    for (const actor of [owner, stranger, user])
      await expect(suspend(actor, user.id, true, 'Spam reports')).rejects.toThrow(DENIED);
    await expect(suspend(anon, user.id, true, 'Spam reports')).rejects.toThrow(/permission denied/);
    const [row] = await suspend(admin, user.id, true, 'Spam reports', 1);
    expect(await run(owner, 'select 1 from public.account_suspensions where id = $1', [row.id])).toEqual([]);
    expect(await run(user, 'select 1 from public.account_suspensions where id = $1', [row.id])).toEqual([]);
    await expect(run(anon, 'select 1 from public.account_suspensions')).rejects.toThrow(/permission denied/);
    await expect(run(owner, 'select * from public.admin_suspension_log()')).rejects.toThrow(DENIED);
    expect(await run(admin, 'select 1 from public.account_suspensions where id = $1', [row.id])).toHaveLength(
      1,
    );
    for (const actor of [anon, owner, admin, serviceRole]) {
      await expect(
        run(actor, `update public.account_suspensions set reason = 'edited' where id = $1`, [row.id]),
      ).rejects.toThrow(/permission denied/);
      await expect(
        run(actor, 'delete from public.account_suspensions where id = $1', [row.id]),
      ).rejects.toThrow(/permission denied/);
    }
    await expect(
      adminPool().query('delete from public.account_suspensions where id = $1', [row.id]),
    ).rejects.toThrow(/append-only/);
  });
});

/**
 * GET /api/v1/removal-requests and DELETE /api/v1/notify/:id as the owner, a stranger, an admin and
 * an anonymous caller: each sees and changes exactly what row-level security allows them.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { adminPool } from '../helpers.ts';
import { api, createUser, reportFields, type TestUser } from './helpers.ts';

interface RemovalList {
  requests: {
    _id: string;
    reportId: string;
    contactEmail: string | null;
    status: string;
    createdAt: string;
    expiresAt: string | null;
    contactConfirmed: boolean;
  }[];
}

describe('GET /removal-requests', () => {
  let reporter: TestUser;
  let requester: TestUser;
  let stranger: TestUser;
  let admin: TestUser;
  let reportId: string;
  let requestId: string;
  const contactEmail = `holder-${Date.now().toString(36)}@example.com`;

  beforeAll(async () => {
    [reporter, requester, stranger, admin] = await Promise.all([
      createUser('rr-rep'),
      createUser('rr-req'),
      createUser('rr-str'),
      createUser('rr-adm', { admin: true }),
    ]);
    const filed = await api<{ report: { _id: string } }>('POST', '/reports', {
      token: reporter.token,
      json: reportFields(),
    });
    expect(filed.status).toBe(201);
    reportId = filed.body.report._id;
    const asked = await api<{ request: { _id: string } }>('POST', '/removal-requests', {
      token: requester.token,
      json: { reportId, reason: 'This is my business number and the report is wrong', contactEmail },
    });
    expect(asked.status, JSON.stringify(asked.body)).toBe(201);
    requestId = asked.body.request._id;
  });

  const mine = (r: { body: RemovalList }) => r.body.requests.filter((x) => x._id === requestId);

  it('the requester sees their request; its 7-day deadline runs from the confirmation of the contact address', async () => {
    const r = await api<RemovalList>('GET', '/removal-requests', { token: requester.token });
    expect(r.status).toBe(200);
    expect(r.body.requests).toHaveLength(1);
    const [req] = r.body.requests;
    expect(req).toMatchObject({
      _id: requestId,
      reportId,
      contactEmail,
      status: 'open',
      contactConfirmed: false,
      expiresAt: null,
    });
    const confirmedAt = new Date(Date.now() - 3_600_000).toISOString();
    await adminPool().query('update public.removal_requests set contact_confirmed_at = $2 where id = $1', [
      requestId,
      confirmedAt,
    ]);
    const after = (await api<RemovalList>('GET', '/removal-requests', { token: requester.token })).body
      .requests[0];
    expect(after.contactConfirmed).toBe(true);
    // 7 days = 604800000 ms after the confirmation
    expect(Date.parse(after.expiresAt!) - Date.parse(confirmedAt)).toBe(604_800_000);
  });

  it('the reporter sees the request about their report', async () => {
    const r = await api<RemovalList>('GET', '/removal-requests', { token: reporter.token });
    expect(r.status).toBe(200);
    expect(mine(r)).toEqual([
      expect.objectContaining({ _id: requestId, reportId, contactConfirmed: true, contactEmail: null }),
    ]);
    // The requester's contact address is theirs and the admins' only (issue 31).
    expect(JSON.stringify(r.body)).not.toContain(contactEmail);
    expect(mine(r)[0].expiresAt).toEqual(expect.any(String));
  });

  it('a stranger sees none, and no requester e-mail', async () => {
    const r = await api<RemovalList>('GET', '/removal-requests', { token: stranger.token });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ requests: [] });
  });

  it('an admin sees it', async () => {
    const r = await api<RemovalList>('GET', '/removal-requests', { token: admin.token });
    expect(r.status).toBe(200);
    expect(mine(r)).toEqual([expect.objectContaining({ _id: requestId, contactEmail })]);
  });

  it('holds on: edge function — an anonymous caller gets 401', async () => {
    const r = await api('GET', '/removal-requests');
    expect(r.status).toBe(401);
    expect(JSON.stringify(r.body)).not.toContain(contactEmail);
  });
});

describe('DELETE /notify/:id', () => {
  let owner: TestUser;
  let stranger: TestUser;
  let admin: TestUser;

  beforeAll(async () => {
    [owner, stranger, admin] = await Promise.all([
      createUser('nd-own'),
      createUser('nd-str'),
      createUser('nd-adm', { admin: true }),
    ]);
  });

  async function register(): Promise<string> {
    const asset = `watch-${Math.random().toString(36).slice(2, 10)}.example`;
    expect((await api('POST', '/notify', { token: owner.token, json: { assetName: asset } })).status).toBe(
      201,
    );
    const list = await api<{ assets: { _id: string; assetName: string }[] }>('GET', '/notify', {
      token: owner.token,
    });
    return list.body.assets.find((a) => a.assetName === asset)!._id;
  }

  const exists = async (id: string) =>
    (
      await adminPool().query('select count(*)::int as n from public.notify_registrations where id = $1', [
        id,
      ])
    ).rows[0].n;

  it('the owner deletes their registration once; the second time is 404', async () => {
    const id = await register();
    const r = await api('DELETE', `/notify/${id}`, { token: owner.token });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ msg: 'Deleted Sucessfully' });
    expect(await exists(id)).toBe(0);
    expect((await api('DELETE', `/notify/${id}`, { token: owner.token })).status).toBe(404);
  });

  it('a stranger and an admin get 404 and the registration stays', async () => {
    const id = await register();
    for (const caller of [stranger, admin]) {
      const r = await api('DELETE', `/notify/${id}`, { token: caller.token });
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ msg: `No registration with id ${id}` });
    }
    expect(await exists(id)).toBe(1);
  });

  it('holds on: edge function — an anonymous caller gets 401, a malformed id 404, and the registration stays', async () => {
    const id = await register();
    expect((await api('DELETE', `/notify/${id}`)).status).toBe(401);
    expect((await api('DELETE', '/notify/not-a-uuid', { token: owner.token })).status).toBe(404);
    expect(await exists(id)).toBe(1);
  });
});

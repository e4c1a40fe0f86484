/** The api function's database error mapping (db.ts) and answer shapes (present.ts), value by value. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { dbError, storageError } from '../../supabase/functions/api/db.ts';
import {
  newsOut,
  publicStatus,
  publicUrl,
  reportOut,
  searchReportOut,
} from '../../supabase/functions/api/present.ts';
import type { SupabaseClient } from '../../supabase/functions/_shared/supabase.ts';
import type { SearchReport } from '../../supabase/functions/_shared/search-result.ts';

afterEach(() => vi.restoreAllMocks());
const answer = (e: { status: number; message: string }) => `${e.status} ${e.message}`;

describe('dbError', () => {
  it('holds on: edge function — maps each database refusal to its status and message', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(
      answer(dbError({ code: '42501', message: 'new row violates row-level security policy' }, 'edit this')),
    ).toBe('403 You are not allowed to edit this: new row violates row-level security policy');
    expect(answer(dbError({ code: '42501' }, 'edit this'))).toBe('403 You are not allowed to edit this');
    expect(answer(dbError({ code: 'PGRST116', message: 'x' }, 'read it'))).toBe(
      '404 Not found: cannot read it',
    );
    expect(answer(dbError({ code: 'P0002' }, 'read it'))).toBe('404 Not found: cannot read it');
    expect(answer(dbError({ code: '23505' }, 'register it'))).toBe(
      '409 Cannot register it: it already exists',
    );
    expect(answer(dbError({ code: '23503' }, 'file it'))).toBe(
      '400 Cannot file it: it refers to something that does not exist',
    );
    expect(answer(dbError({ code: '23514', message: 'check failed' }, 'save'))).toBe(
      '400 Cannot save: check failed',
    );
    expect(answer(dbError({ code: '22001' }, 'save'))).toBe('400 Cannot save');
    expect(answer(dbError({ code: 'PGRST301' }, 'x'))).toBe(
      '401 Invalid or expired token, please log in again',
    );
    expect(answer(dbError({ code: 'PGRST302' }, 'x'))).toBe(
      '401 Invalid or expired token, please log in again',
    );
    expect(answer(dbError({ code: 'XX000', message: 'boom' }, 'save'))).toBe(
      '502 Could not save right now, please try again',
    );
    expect(answer(dbError({}, 'save'))).toBe('502 Could not save right now, please try again');
    expect(answer(dbError({ code: '12345' }, 'save'))).toBe('502 Could not save right now, please try again');
    expect(console.error).toHaveBeenCalledTimes(3);
  });

  it("holds on: edge function — answers the limiter's refusal with 429 and its Retry-After", () => {
    const e = dbError({ code: 'PT429', message: 'Too many reports', details: 'retry_after=42' }, 'file it');
    expect(answer(e)).toBe('429 Too many reports');
  });

  it('answers a statement the overloaded database gave up on with 503 and Retry-After, not 502 (issue 12)', () => {
    // 57014: the role's statement timeout ran out while queueing for a lock; 40P01 deadlock; 40001
    // serialization failure; 55P03 lock not available. Nothing was written; trying again later works.
    for (const code of ['57014', '40P01', '40001', '55P03']) {
      const e = dbError({ code, message: 'canceling statement due to statement timeout' }, 'file it');
      expect([e.status, e.message, e.headers]).toEqual([
        503,
        'ScamCheck is busy right now, please try again in a few seconds',
        { 'Retry-After': '5' },
      ]);
    }
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(dbError({ code: '57P01' }, 'x').status).toBe(502);
  });

  it("holds on: edge function — answers the database's own HTTP refusals (PTnnn) with their status, naming what to use instead", () => {
    const report = '5b0c1e2a-3d4f-4a5b-8c6d-7e8f9a0b1c2d';
    const second = dbError(
      { code: 'PT409', message: 'You already reported x.ph', details: `existing_report_id=${report}` },
      'file it',
    );
    expect([second.status, second.message, second.extra]).toEqual([
      409,
      'You already reported x.ph',
      { existingReportId: report },
    ]);
    const request = dbError(
      { code: 'PT409', message: 'An open request exists', details: `existing_request_id=${report}` },
      'ask',
    );
    expect(request.extra).toEqual({ existingRequestId: report });
    const plain = dbError({ code: 'PT403', details: null }, 'remove it');
    expect([plain.status, plain.message, plain.extra]).toEqual([403, 'Cannot remove it', {}]);
    // Only a 4xx or 5xx status counts; anything else is an unknown error.
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(answer(dbError({ code: 'PT200', message: 'odd' }, 'save'))).toBe(
      '502 Could not save right now, please try again',
    );
    expect(answer(dbError({ code: 'xPT404' }, 'save'))).toBe(
      '502 Could not save right now, please try again',
    );
    // Exactly three digits: a longer code is not a status either.
    expect(answer(dbError({ code: 'PT4040' }, 'save'))).toBe(
      '502 Could not save right now, please try again',
    );
  });
});

describe('holds on: edge function — storageError', () => {
  it('maps storage refusals by their HTTP status, text or number', () => {
    expect(answer(storageError({ statusCode: '413', message: 'too big' }, 'upload it'))).toBe(
      '400 Image size too large',
    );
    for (const status of [401, 403])
      expect(answer(storageError({ status }, 'upload it'))).toBe('403 You are not allowed to upload it');
    for (const statusCode of ['400', '415', '422'])
      expect(answer(storageError({ statusCode, message: 'mime type not supported' }, 'upload it'))).toBe(
        '400 Cannot upload it: mime type not supported',
      );
    expect(answer(storageError({ statusCode: '400' }, 'upload it'))).toBe(
      '400 Cannot upload it: refused by storage',
    );
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(answer(storageError({ statusCode: '500', message: 'boom' }, 'upload it'))).toBe(
      '502 Could not upload it right now, please try again',
    );
    expect(answer(storageError({}, 'upload it'))).toBe('502 Could not upload it right now, please try again');
    expect(console.error).toHaveBeenCalledTimes(2);
  });
});

describe('answer shapes', () => {
  it('shows moderation as verified or not-verified', () => {
    expect(publicStatus('verified')).toBe('verified');
    for (const s of ['pending', 'rejected', 'removed', undefined])
      expect(publicStatus(s)).toBe('not-verified');
  });

  it('a report row in the legacy shape, with defaults for empty columns', () => {
    const row = {
      id: 'r1',
      incident_date: '2026-01-02',
      incident_type: 'scam',
      reported_account_type: 'mobile',
      reported_account: '0917',
      consent_to_contact: true,
      incident_description: 'd',
      location: 'QC',
      report_date: '2026-01-03',
      loc: '14,121',
      country: 'PH',
      status: 'verified',
      source: 's',
      amount_lost: '1500.50',
      reported_case_count: 3,
      created_at: 'c',
      updated_at: 'u',
    };
    expect(reportOut(row, 'https://e/x.jpg')).toEqual({
      _id: 'r1',
      incidentDate: '2026-01-02',
      incidentType: 'scam',
      reportedAccountType: 'mobile no.',
      reportedAccount: '0917',
      consentToContact: 'yes',
      evidence: 'https://e/x.jpg',
      incidentDescription: 'd',
      location: 'QC',
      reportDate: '2026-01-03',
      loc: '14,121',
      country: 'PH',
      status: 'verified',
      moderationStatus: 'verified',
      source: 's',
      amountLost: 1500.5,
      reportedCaseCount: 3,
      createdAt: 'c',
      updatedAt: 'u',
    });
    expect(
      reportOut({
        id: 'r2',
        reported_account_type: 'email',
        consent_to_contact: false,
        status: 'pending',
        amount_lost: null,
      }),
    ).toMatchObject({
      reportedAccountType: 'email',
      consentToContact: 'no',
      evidence: null,
      incidentDescription: '',
      location: '',
      loc: '',
      country: '',
      status: 'not-verified',
      moderationStatus: 'pending',
      source: '',
      amountLost: null,
      reportedCaseCount: null,
    });
    expect(reportOut({ id: 'r3', amount_lost: 0 }).amountLost).toBe(0);
    // A row without the column (a narrower select) has no amount, not NaN.
    expect(reportOut({ id: 'r4' }).amountLost).toBeNull();
  });

  it('a search row: limited for visitors, with details for signed-in users', () => {
    const visitor: SearchReport = {
      reported_date: '2026-02-01',
      incident_date: '2026-01-30',
      incident_type: 'spam',
      reported_account_type: 'mobile',
      location: null,
      status: 'not-verified',
    };
    expect(searchReportOut(visitor)).toEqual({
      _id: null,
      incidentDate: '2026-01-30',
      createdAt: '2026-02-01',
      incidentType: 'spam',
      reportedAccountType: 'mobile no.',
      location: '',
      status: 'not-verified',
    });
    expect(
      searchReportOut({
        ...visitor,
        id: 'r',
        reported_account: 'x',
        country: null,
        incident_description: null,
        amount_lost: 7,
      }),
    ).toEqual({
      _id: 'r',
      incidentDate: '2026-01-30',
      createdAt: '2026-02-01',
      incidentType: 'spam',
      reportedAccountType: 'mobile no.',
      location: '',
      status: 'not-verified',
      reportedAccount: 'x',
      country: '',
      incidentDescription: '',
      amountLost: 7,
    });
    expect(searchReportOut({ ...visitor, id: 'r', amount_lost: null }).amountLost).toBeNull();
    expect(searchReportOut({ ...visitor, id: 'r' }).amountLost).toBeNull();
  });

  it('news: banner URL from storage, tags joined, image URL preferred over the banner', () => {
    const from = vi.fn((bucket: string) => ({
      getPublicUrl: (path: string) => ({ data: { publicUrl: `https://s/${bucket}/${path}` } }),
    }));
    const client = { storage: { from } } as unknown as SupabaseClient;
    expect(publicUrl(client, 'avatars', '')).toBeNull();
    expect(publicUrl(client, 'avatars', 3)).toBeNull();
    expect(publicUrl(client, 'avatars', 'u/a.png')).toBe('https://s/avatars/u/a.png');
    const n = {
      id: 'n1',
      news_title: 'T',
      news_description: 'D',
      tags: ['a', 'b'],
      img_url: null,
      banner_path: 'b.png',
      source: null,
      source_desc: null,
      created_at: 'c',
    };
    expect(newsOut(client, n)).toEqual({
      _id: 'n1',
      newsTitle: 'T',
      newsDescription: 'D',
      tags: 'a, b',
      imgURL: 'https://s/news-banners/b.png',
      newsBanner: 'https://s/news-banners/b.png',
      source: '',
      sourceDesc: '',
      createdAt: 'c',
    });
    expect(
      newsOut(client, {
        ...n,
        img_url: 'https://x/i.png',
        banner_path: null,
        tags: null,
        source: 's',
        source_desc: 'sd',
      }),
    ).toMatchObject({
      imgURL: 'https://x/i.png',
      newsBanner: null,
      tags: '',
      source: 's',
      sourceDesc: 'sd',
    });
    expect(newsOut(client, { ...n, banner_path: null }).imgURL).toBe('');
  });
});

/** The legacy API's input schemas (supabase/functions/_shared/schemas.ts): limits at their boundaries and every message. */
import { describe, expect, it } from 'vitest';
import {
  contactSchema,
  createReportSchema,
  loginSchema,
  newsSchema,
  notifySchema,
  parseFields,
  registerSchema,
  removalRequestSchema,
  removalResponseSchema,
  searchSchema,
  updateReportSchema,
  updateUserSchema,
  uuidSchema,
} from '../../supabase/functions/_shared/schemas.ts';
import { HttpError } from '../../supabase/functions/_shared/http.ts';

type Schema = Parameters<typeof parseFields>[0];

/** The parsed value, or the 400 message parseFields answers with. */
function check(schema: Schema, fields: Record<string, unknown>): unknown {
  try {
    return parseFields(schema, fields as never);
  } catch (e) {
    expect(e).toBeInstanceOf(HttpError);
    expect((e as HttpError).status).toBe(400);
    return `400: ${(e as HttpError).message}`;
  }
}

const report = {
  incidentDate: '2026-01-15',
  incidentType: 'scam',
  reportedAccountType: 'mobile no.',
  reportedAccount: '0917 123 4567',
};

describe('text fields', () => {
  it('required text: trimmed, 1 to max characters, with the field named', () => {
    expect(check(searchSchema, { searchString: '  x  ' })).toEqual({ searchString: 'x' });
    expect(check(searchSchema, { searchString: 'x'.repeat(256) })).toEqual({ searchString: 'x'.repeat(256) });
    expect(check(searchSchema, { searchString: 'x'.repeat(257) })).toBe(
      '400: searchString must be at most 256 characters',
    );
    expect(check(searchSchema, { searchString: '   ' })).toBe('400: searchString is required');
    expect(check(searchSchema, {})).toBe('400: searchString is required');
    expect(check(searchSchema, { searchString: null })).toBe('400: searchString is required');
    expect(check(searchSchema, { searchString: 5 })).toBe('400: searchString must be text');
  });

  it('optional text: empty, blank or null becomes absent; over max is refused; non-text named', () => {
    expect(check(contactSchema, { message: 'hi', nickname: '  ' })).toEqual({ message: 'hi' });
    expect(check(contactSchema, { message: 'hi', nickname: null })).toEqual({ message: 'hi' });
    expect(check(contactSchema, { message: 'hi', nickname: ' Jo ' })).toEqual({
      message: 'hi',
      nickname: 'Jo',
    });
    expect(check(contactSchema, { message: 'hi', nickname: 'n'.repeat(100) })).toMatchObject({
      nickname: 'n'.repeat(100),
    });
    expect(check(contactSchema, { message: 'hi', nickname: 'n'.repeat(101) })).toBe(
      '400: nickname must be at most 100 characters',
    );
    expect(check(contactSchema, { message: 'hi', nickname: 7 })).toBe('400: nickname must be text');
    expect(check(contactSchema, { message: 'm'.repeat(5001) })).toBe(
      '400: message must be at most 5000 characters',
    );
    expect(check(contactSchema, { message: 'hi', subject: 's'.repeat(201) })).toBe(
      '400: subject must be at most 200 characters',
    );
  });
});

describe('accounts', () => {
  it('register: name up to 100, a lower-cased e-mail, a password of 8 to 72 characters', () => {
    const ok = { name: 'Maria', email: ' Maria@Example.COM ', password: '12345678' };
    expect(check(registerSchema, ok)).toEqual({
      name: 'Maria',
      email: 'maria@example.com',
      password: '12345678',
    });
    expect(check(registerSchema, { ...ok, password: '1234567' })).toBe(
      '400: password must be at least 8 characters',
    );
    expect(check(registerSchema, { ...ok, password: 'p'.repeat(72) })).toMatchObject({
      password: 'p'.repeat(72),
    });
    expect(check(registerSchema, { ...ok, password: 'p'.repeat(73) })).toBe(
      '400: password must be at most 72 characters',
    );
    expect(check(registerSchema, { ...ok, password: undefined })).toBe('400: password is required');
    expect(check(registerSchema, { ...ok, password: 12345678 })).toBe('400: password must be text');
    expect(check(registerSchema, { ...ok, email: 'not-an-address' })).toBe(
      '400: email must be a valid e-mail address',
    );
    expect(check(registerSchema, { ...ok, email: `${'a'.repeat(310)}@example.com` })).toBe(
      '400: email must be at most 320 characters',
    );
    expect(check(registerSchema, { ...ok, name: 'n'.repeat(101) })).toBe(
      '400: name must be at most 100 characters',
    );
  });

  it('login: any non-empty password up to 72 characters', () => {
    expect(check(loginSchema, { email: 'a@b.ph', password: 'x' })).toEqual({
      email: 'a@b.ph',
      password: 'x',
    });
    expect(check(loginSchema, { email: 'a@b.ph', password: '' })).toBe('400: password is required');
    expect(check(loginSchema, { email: 'a@b.ph' })).toBe('400: password is required');
    expect(check(loginSchema, { email: 'a@b.ph', password: false })).toBe('400: password must be text');
    expect(check(loginSchema, { email: 'a@b.ph', password: 'p'.repeat(73) })).toBe(
      '400: password must be at most 72 characters',
    );
  });

  it('update-user: optional name and e-mail, the e-mail lower-cased and checked', () => {
    expect(check(updateUserSchema, {})).toEqual({});
    expect(check(updateUserSchema, { email: '', name: null })).toEqual({});
    expect(check(updateUserSchema, { email: null, name: ' ' })).toEqual({});
    expect(check(updateUserSchema, { email: '  ' })).toEqual({});
    expect(check(updateUserSchema, { email: ' New@Example.com ' })).toEqual({ email: 'new@example.com' });
    expect(check(updateUserSchema, { email: 'nope' })).toBe('400: email must be a valid e-mail address');
    expect(check(updateUserSchema, { email: 3 })).toBe('400: email must be text');
    expect(check(updateUserSchema, { email: `${'a'.repeat(310)}@example.com` })).toBe(
      '400: email must be at most 320 characters',
    );
  });
});

describe('reports', () => {
  it('maps the legacy asset types to identifier kinds, whatever their case', () => {
    const kinds: [string, string][] = [
      ['mobile no.', 'mobile'],
      ['Mobile No', 'mobile'],
      ['mobile', 'mobile'],
      ['email', 'email'],
      ['ewallet', 'ewallet'],
      ['E-Wallet', 'ewallet'],
      ['crypto', 'crypto'],
      [' website ', 'website'],
    ];
    for (const [given, kind] of kinds)
      expect(check(createReportSchema, { ...report, reportedAccountType: given }), given).toMatchObject({
        reportedAccountType: kind,
      });
    expect(check(createReportSchema, { ...report, reportedAccountType: 'fax' })).toBe(
      '400: reportedAccountType must be one of mobile no., email, ewallet, crypto, website, social',
    );
    expect(check(createReportSchema, { ...report, reportedAccountType: undefined })).toBe(
      '400: reportedAccountType is required',
    );
    expect(check(createReportSchema, { ...report, reportedAccountType: 1 })).toBe(
      '400: reportedAccountType must be text',
    );
  });

  it('incident type and dates', () => {
    expect(check(createReportSchema, { ...report, incidentType: 'robbery' })).toBe(
      '400: incidentType must be one of scam, hacked, spam',
    );
    expect(check(createReportSchema, { ...report, incidentDate: '2026-01-15T10:00:00Z' })).toMatchObject({
      incidentDate: '2026-01-15',
    });
    expect(
      check(createReportSchema, { ...report, incidentDate: '2026-01-15T10:00:00.5+08:00' }),
    ).toMatchObject({ incidentDate: '2026-01-15' });
    expect(check(createReportSchema, { ...report, incidentDate: ' 2026-01-15 ' })).toMatchObject({
      incidentDate: '2026-01-15',
    });
    expect(check(createReportSchema, { ...report, incidentDate: 'x2026-01-15' })).toBe(
      '400: incidentDate must be a date (YYYY-MM-DD)',
    );
    expect(check(createReportSchema, { ...report, incidentDate: '2026-01-15x' })).toBe(
      '400: incidentDate must be a date (YYYY-MM-DD)',
    );
    expect(check(createReportSchema, { ...report, incidentDate: '2026-13-45' })).toBe(
      '400: incidentDate must be a real date',
    );
    expect(check(createReportSchema, { ...report, incidentDate: undefined })).toBe(
      '400: incidentDate is required',
    );
    expect(check(createReportSchema, { ...report, incidentDate: 20260115 })).toBe(
      '400: incidentDate must be a date',
    );
  });

  it('the incident date may be up to tomorrow in any time zone (2 days ahead of UTC now), not later', () => {
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    expect(check(createReportSchema, { ...report, incidentDate: day(2) })).toMatchObject({
      incidentDate: day(2),
    });
    expect(check(createReportSchema, { ...report, incidentDate: day(3) })).toBe(
      '400: incidentDate cannot be later than tomorrow',
    );
    expect(check(updateReportSchema, { incidentDate: day(3) })).toBe(
      '400: incidentDate cannot be later than tomorrow',
    );
    expect(check(updateReportSchema, {})).toEqual({});
  });

  it('consent, location, amount', () => {
    const consent = (v: unknown) =>
      (check(createReportSchema, { ...report, consentToContact: v }) as { consentToContact?: boolean })
        .consentToContact;
    expect([consent('yes'), consent(' YES '), consent('true'), consent(true)]).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect([consent('no'), consent('false'), consent(false)]).toEqual([false, false, false]);
    expect(check(createReportSchema, { ...report, consentToContact: 'maybe' })).toBe(
      '400: consentToContact must be yes or no',
    );
    expect(check(createReportSchema, { ...report, consentToContact: 1 })).toBe(
      '400: consentToContact must be yes or no',
    );

    expect(check(createReportSchema, { ...report, loc: ' 14.5, 121.0 ' })).toMatchObject({
      loc: '14.5,121.0',
    });
    expect(check(createReportSchema, { ...report, loc: '-90,-180' })).toMatchObject({ loc: '-90,-180' });
    expect(check(createReportSchema, { ...report, loc: '' })).toEqual(check(createReportSchema, report));
    expect(check(createReportSchema, { ...report, loc: null })).toEqual(check(createReportSchema, report));
    expect(check(createReportSchema, { ...report, loc: '  ' })).toEqual(check(createReportSchema, report));
    expect(check(createReportSchema, { ...report, loc: '90.1,0' })).toBe('400: loc is outside the map');
    expect(check(createReportSchema, { ...report, loc: '0,180.5' })).toBe('400: loc is outside the map');
    expect(check(createReportSchema, { ...report, loc: 'x14,121' })).toBe("400: loc must be 'lat,lng'");
    expect(check(createReportSchema, { ...report, loc: '14,121x' })).toBe("400: loc must be 'lat,lng'");
    expect(check(createReportSchema, { ...report, loc: 14 })).toBe('400: loc must be text');

    expect(check(createReportSchema, { ...report, amountLost: '1500.5' })).toMatchObject({
      amountLost: 1500.5,
    });
    expect(check(createReportSchema, { ...report, amountLost: 0 })).toMatchObject({ amountLost: 0 });
    // At most PHP 100,000,000 (issue 27).
    expect(check(createReportSchema, { ...report, amountLost: 100_000_000 })).toMatchObject({
      amountLost: 100_000_000,
    });
    expect(check(createReportSchema, { ...report, amountLost: 100_000_000.01 })).toBe(
      '400: amountLost must be at most PHP 100,000,000',
    );
    expect(check(createReportSchema, { ...report, amountLost: '' })).toEqual(
      check(createReportSchema, report),
    );
    expect(check(createReportSchema, { ...report, amountLost: null })).toEqual(
      check(createReportSchema, report),
    );
    expect(check(createReportSchema, { ...report, amountLost: 1_000_000_000_000 })).toBe(
      '400: amountLost must be at most PHP 100,000,000',
    );
    expect(check(createReportSchema, { ...report, amountLost: -0.01 })).toBe(
      '400: amountLost cannot be negative',
    );
    expect(check(createReportSchema, { ...report, amountLost: 'lots' })).toBe(
      '400: amountLost must be a number',
    );
    expect(check(createReportSchema, { ...report, amountLost: true })).toBe(
      '400: amountLost must be a number',
    );
    expect(check(createReportSchema, { ...report, amountLost: Infinity })).toBe(
      '400: amountLost must be a number',
    );
    expect(check(createReportSchema, { ...report, reportedAccount: 'a'.repeat(321) })).toBe(
      '400: reportedAccount must be at most 320 characters',
    );
    expect(check(createReportSchema, { ...report, incidentDescription: 'd'.repeat(5001) })).toBe(
      '400: incidentDescription must be at most 5000 characters',
    );
    expect(check(createReportSchema, { ...report, location: 'l'.repeat(201) })).toBe(
      '400: location must be at most 200 characters',
    );
    expect(check(createReportSchema, { ...report, country: 'c'.repeat(65) })).toBe(
      '400: country must be at most 64 characters',
    );
    expect(check(createReportSchema, { ...report, source: 's'.repeat(201) })).toBe(
      '400: source must be at most 200 characters',
    );
  });
});

describe('news, notify, removal', () => {
  const news = { newsTitle: 'T', newsDescription: 'D' };

  it('news: tags from a list or text, at most 30; imgURL http(s) only', () => {
    expect(check(newsSchema, { ...news, tags: ' a, b ,,c ' })).toEqual({ ...news, tags: ['a', 'b', 'c'] });
    expect(check(newsSchema, { ...news, tags: ['x', ' y '] })).toEqual({ ...news, tags: ['x', 'y'] });
    expect(check(newsSchema, { ...news, tags: null })).toEqual({ ...news, tags: [] });
    expect(check(newsSchema, news)).toEqual({ ...news, tags: [] });
    expect(
      (
        check(newsSchema, { ...news, tags: Array.from({ length: 40 }, (_, i) => `t${i}`) }) as {
          tags: string[];
        }
      ).tags,
    ).toHaveLength(30);
    expect(check(newsSchema, { ...news, tags: 't'.repeat(1001) })).toBe(
      '400: tags must be at most 1000 characters',
    );
    expect(check(newsSchema, { ...news, tags: 5 })).toBe('400: tags must be text');
    expect(check(newsSchema, { ...news, imgURL: 'HTTPS://x.ph/a.png' })).toMatchObject({
      imgURL: 'HTTPS://x.ph/a.png',
    });
    expect(check(newsSchema, { ...news, imgURL: 'javascript:alert(1)' })).toBe(
      '400: imgURL must be an http(s) address',
    );
    expect(check(newsSchema, { ...news, imgURL: 'http://x y' })).toBe(
      '400: imgURL must be an http(s) address',
    );
    expect(check(newsSchema, { ...news, newsTitle: 't'.repeat(301) })).toBe(
      '400: newsTitle must be at most 300 characters',
    );
    expect(check(newsSchema, { ...news, newsDescription: 'd'.repeat(20_001) })).toBe(
      '400: newsDescription must be at most 20000 characters',
    );
    expect(check(newsSchema, { ...news, source: 's'.repeat(501) })).toBe(
      '400: source must be at most 500 characters',
    );
    expect(check(newsSchema, { ...news, sourceDesc: 's'.repeat(501) })).toBe(
      '400: sourceDesc must be at most 500 characters',
    );
  });

  it('notify: a comma or line separated list, de-duplicated, 1 to 50 identifiers of at most 320 characters', () => {
    expect(check(notifySchema, { assetName: 'a.ph, b.ph\nb.ph,,' })).toEqual({ assetName: ['a.ph', 'b.ph'] });
    expect(check(notifySchema, { assetName: ', ,' })).toBe('400: assetName is required');
    const many = (n: number) => Array.from({ length: n }, (_, i) => `s${i}.ph`).join(',');
    expect((check(notifySchema, { assetName: many(50) }) as { assetName: string[] }).assetName).toHaveLength(
      50,
    );
    expect(check(notifySchema, { assetName: many(51) })).toBe(
      '400: assetName can hold at most 50 identifiers',
    );
    expect(check(notifySchema, { assetName: 'a'.repeat(320) })).toEqual({ assetName: ['a'.repeat(320)] });
    expect(check(notifySchema, { assetName: 'a'.repeat(321) })).toBe(
      '400: each identifier in assetName must be at most 320 characters',
    );
    // One long identifier among short ones is enough to refuse the list.
    expect(check(notifySchema, { assetName: `a.ph, ${'a'.repeat(321)}, b.ph` })).toBe(
      '400: each identifier in assetName must be at most 320 characters',
    );
  });

  it('removal requests and responses', () => {
    const id = '00000000-0000-4000-a000-000000000000';
    expect(check(removalRequestSchema, { reportId: ` ${id} `, reason: 'r', contactEmail: 'A@B.PH' })).toEqual(
      { reportId: id, reason: 'r', contactEmail: 'a@b.ph' },
    );
    expect(check(removalRequestSchema, { reportId: 'x', reason: 'r', contactEmail: 'a@b.ph' })).toBe(
      '400: reportId must be a report id',
    );
    expect(check(removalRequestSchema, { reason: 'r', contactEmail: 'a@b.ph' })).toBe(
      '400: reportId is required',
    );
    expect(check(removalRequestSchema, { reportId: id, reason: 'r', contactEmail: 'no' })).toBe(
      '400: contactEmail must be a valid e-mail address',
    );
    expect(check(removalResponseSchema, { response: 'x'.repeat(5001) })).toBe(
      '400: response must be at most 5000 characters',
    );
    expect(uuidSchema.safeParse(id).success).toBe(true);
    expect(uuidSchema.safeParse('nope').success).toBe(false);
  });
});

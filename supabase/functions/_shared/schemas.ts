/**
 * Input schemas of the legacy API (docs/behaviour.md sections 3, 5 and 7), with the payload's camelCase field
 * names. Every message names the field and says what is wrong, because the client shows it as is.
 */
import { z } from 'npm:zod@4.6.7';
import { HttpError } from './http.ts';
import { SEARCH_MAX_LENGTH } from './limits.ts';
import type { Fields } from './body.ts';

export { z };

/** A required text field: trimmed, not empty, at most `max` characters. */
export function requiredText(name: string, max: number) {
  return z
    .string({
      error: (iss) =>
        iss.input === undefined || iss.input === null ? `${name} is required` : `${name} must be text`,
    })
    .trim()
    .min(1, `${name} is required`)
    .max(max, `${name} must be at most ${max} characters`);
}

/** An optional text field: empty or absent becomes undefined. */
export function optionalText(name: string, max: number) {
  return z.preprocess(
    (v) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v),
    z
      .string({ error: `${name} must be text` })
      .trim()
      .max(max, `${name} must be at most ${max} characters`)
      .optional(),
  );
}

const email = (name: string) =>
  requiredText(name, 320)
    .pipe(z.email({ error: `${name} must be a valid e-mail address` }))
    .transform((s) => s.toLowerCase());

const optionalEmail = (name: string) =>
  z.preprocess(
    (v) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v),
    z
      .string({ error: `${name} must be text` })
      .trim()
      .max(320, `${name} must be at most 320 characters`)
      .pipe(z.email({ error: `${name} must be a valid e-mail address` }))
      .transform((s) => s.toLowerCase())
      .optional(),
  );

export const registerSchema = z.object({
  name: requiredText('name', 100),
  email: email('email'),
  password: z
    .string({ error: (iss) => (iss.input === undefined ? 'password is required' : 'password must be text') })
    .min(8, 'password must be at least 8 characters')
    .max(72, 'password must be at most 72 characters'),
});

export const loginSchema = z.object({
  email: email('email'),
  password: z
    .string({ error: (iss) => (iss.input === undefined ? 'password is required' : 'password must be text') })
    .min(1, 'password is required')
    .max(72, 'password must be at most 72 characters'),
});

export const updateUserSchema = z.object({
  name: optionalText('name', 100),
  email: optionalEmail('email'),
});

/** The legacy form's asset types, mapped to the database's identifier kinds. */
const ACCOUNT_TYPES: Record<string, 'mobile' | 'email' | 'ewallet' | 'crypto' | 'website'> = {
  'mobile no.': 'mobile',
  'mobile no': 'mobile',
  mobile: 'mobile',
  email: 'email',
  ewallet: 'ewallet',
  'e-wallet': 'ewallet',
  crypto: 'crypto',
  website: 'website',
};

const incidentType = z.enum(['scam', 'hacked', 'spam'], {
  error: 'incidentType must be one of scam, hacked, spam',
});

const accountType = z
  .string({
    error: (iss) =>
      iss.input === undefined ? 'reportedAccountType is required' : 'reportedAccountType must be text',
  })
  .transform((s, ctx) => {
    const kind = ACCOUNT_TYPES[s.trim().toLowerCase()];
    if (!kind) {
      ctx.addIssue({
        code: 'custom',
        message: 'reportedAccountType must be one of mobile no., email, ewallet, crypto, website',
      });
      return z.NEVER;
    }
    return kind;
  });

/** yyyy-mm-dd (or a full ISO timestamp, whose date part is used). */
const isoDate = (name: string) =>
  z
    .string({ error: (iss) => (iss.input === undefined ? `${name} is required` : `${name} must be a date`) })
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/, `${name} must be a date (YYYY-MM-DD)`)
    .transform((s) => s.slice(0, 10))
    .refine((s) => !Number.isNaN(Date.parse(s)), `${name} must be a real date`);

const yesNo = z.preprocess(
  (v) => (typeof v === 'boolean' ? (v ? 'yes' : 'no') : typeof v === 'string' ? v.trim().toLowerCase() : v),
  z
    .enum(['yes', 'no', 'true', 'false'], { error: 'consentToContact must be yes or no' })
    .transform((v) => v === 'yes' || v === 'true'),
);

const latLng = z.preprocess(
  (v) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v),
  z
    .string({ error: 'loc must be text' })
    .trim()
    .regex(/^-?\d{1,2}(\.\d+)?,\s*-?\d{1,3}(\.\d+)?$/, "loc must be 'lat,lng'")
    .transform((s) => s.replace(/\s+/g, ''))
    .refine((s) => {
      const [lat, lng] = s.split(',').map(Number);
      return Math.abs(lat) <= 90 && Math.abs(lng) <= 180;
    }, 'loc is outside the map')
    .optional(),
);

const amount = z.preprocess(
  (v) => (v === null || v === '' ? undefined : typeof v === 'string' ? Number(v) : v),
  z
    .number({ error: 'amountLost must be a number' })
    .finite('amountLost must be a number')
    .min(0, 'amountLost cannot be negative')
    .max(100_000_000, 'amountLost must be at most PHP 100,000,000')
    .optional(),
);

const reportFields = {
  incidentDate: isoDate('incidentDate'),
  incidentType,
  reportedAccountType: accountType,
  reportedAccount: requiredText('reportedAccount', 320),
  consentToContact: yesNo.optional(),
  incidentDescription: optionalText('incidentDescription', 5000),
  location: optionalText('location', 200),
  reportDate: isoDate('reportDate').optional(),
  loc: latLng,
  country: optionalText('country', 64),
  source: optionalText('source', 200),
  amountLost: amount,
};

/** Incident dates may be at most tomorrow (docs/behaviour.md §5), in the Philippines' calendar or earlier. */
function notAfterTomorrow(date: string | undefined): boolean {
  if (!date) return true;
  const tomorrow = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
  return date <= tomorrow;
}

export const createReportSchema = z.object(reportFields).refine((r) => notAfterTomorrow(r.incidentDate), {
  message: 'incidentDate cannot be later than tomorrow',
  path: ['incidentDate'],
});

export const updateReportSchema = z
  .object({
    ...reportFields,
    incidentDate: reportFields.incidentDate.optional(),
    incidentType: incidentType.optional(),
    reportedAccountType: accountType.optional(),
    reportedAccount: reportFields.reportedAccount.optional(),
  })
  .refine((r) => notAfterTomorrow(r.incidentDate), {
    message: 'incidentDate cannot be later than tomorrow',
    path: ['incidentDate'],
  });

export const searchSchema = z.object({ searchString: requiredText('searchString', SEARCH_MAX_LENGTH) });

export const contactSchema = z.object({
  nickname: optionalText('nickname', 100),
  email: optionalEmail('email'),
  subject: optionalText('subject', 200),
  message: requiredText('message', 5000),
});

export const newsSchema = z.object({
  newsTitle: requiredText('newsTitle', 300),
  newsDescription: requiredText('newsDescription', 20000),
  tags: z
    .preprocess(
      (v) => (Array.isArray(v) ? v.join(',') : v === null ? undefined : v),
      z.string({ error: 'tags must be text' }).max(1000, 'tags must be at most 1000 characters').optional(),
    )
    .transform((s) =>
      (s ?? '')
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean)
        .slice(0, 30),
    ),
  imgURL: optionalText('imgURL', 2000).pipe(
    z
      .string()
      .regex(/^https?:\/\/\S+$/i, 'imgURL must be an http(s) address')
      .optional(),
  ),
  source: optionalText('source', 500),
  sourceDesc: optionalText('sourceDesc', 500),
});

export const notifySchema = z.object({
  assetName: requiredText('assetName', 5000)
    .transform((s) => [
      ...new Set(
        s
          .split(/[,\n]/)
          .map((a) => a.trim())
          .filter(Boolean),
      ),
    ])
    .refine((list) => list.length > 0, 'assetName is required')
    .refine((list) => list.length <= 50, 'assetName can hold at most 50 identifiers')
    .refine(
      (list) => list.every((a) => a.length <= 320),
      'each identifier in assetName must be at most 320 characters',
    ),
});

export const removalRequestSchema = z.object({
  reportId: z.string({ error: 'reportId is required' }).trim().uuid('reportId must be a report id'),
  reason: requiredText('reason', 5000),
  contactEmail: email('contactEmail'),
});

export const removalResponseSchema = z.object({ response: requiredText('response', 5000) });

export const uuidSchema = z.string().uuid();

/** Validates fields against a schema; the first problem becomes a 400 with its message. */
export function parseFields<T extends z.ZodType>(schema: T, fields: Fields): z.output<T> {
  const result = schema.safeParse(fields);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new HttpError(400, issue?.message ?? 'Invalid input');
  }
  return result.data;
}

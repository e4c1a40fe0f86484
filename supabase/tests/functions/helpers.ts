/** Helpers for the edge-function tests: plain fetch against the legacy API, users, images, mail. */
import { withRole } from '../helpers.ts';
import { adminPool, stackEnv, unique } from '../helpers.ts';
import { BASE_JPEG, jpegWithGpsAndApp0Text } from '../image-corpus.ts';
import { mailsTo } from '../auth-helpers.ts';

export const API = () => `${stackEnv('API_URL')}/functions/v1/api/v1`;

export interface Answer<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Headers;
}

/** Calls the legacy API; `token` goes in as a bearer token, a JSON `json` body as JSON. */
export async function api<T = Record<string, unknown>>(
  method: string,
  path: string,
  opts: {
    token?: string;
    json?: unknown;
    form?: FormData;
    headers?: Record<string, string>;
    body?: string | FormData;
  } = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: string | FormData | undefined = opts.body;
  if (opts.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.json);
  } else if (opts.form) body = opts.form;
  const res = await fetch(`${API()}${path}`, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // keep the text: a non-JSON answer is itself a failure the test will show
  }
  return { status: res.status, body: parsed as T, headers: res.headers };
}

/** A public address of its own per test (the local gateway's own hop is loopback and never counts). */
export function address(): string {
  const hex = () => Math.floor(Math.random() * 0xffff).toString(16);
  return `2a02:${hex()}:${hex()}::7`;
}

/** The limiter's subject for an address, as the database derives it from the forwarded header. */
export async function subjectOf(xff: string): Promise<string> {
  return withRole(
    adminPool(),
    { role: 'service_role' },
    async (c) => (await c.query<{ k: string }>('select private.client_address_key() as k')).rows[0].k,
    { headers: { 'x-forwarded-for': xff }, method: 'POST' },
  );
}

export interface TestUser {
  id: string;
  email: string;
  password: string;
  token: string;
}

/**
 * A confirmed user signed in through the legacy login. The account is created with the Auth admin
 * API (confirmation has its own test), so each test file gets fresh users quickly.
 */
export async function createUser(
  prefix = 'fn',
  opts: { admin?: boolean; name?: string } = {},
): Promise<TestUser> {
  const email = `${unique(prefix)}@example.com`;
  const password = 'correct horse battery';
  const res = await fetch(`${stackEnv('API_URL')}/auth/v1/admin/users`, {
    method: 'POST',
    headers: {
      apikey: stackEnv('SERVICE_ROLE_KEY'),
      authorization: `Bearer ${stackEnv('SERVICE_ROLE_KEY')}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({
      email,
      password,
      email_confirm: true,
      user_metadata: { name: opts.name ?? 'Test User' },
    }),
  });
  if (!res.ok) throw new Error(`creating ${email} failed: ${res.status} ${await res.text()}`);
  const { id } = (await res.json()) as { id: string };
  if (opts.admin) await adminPool().query('select private.grant_admin($1)', [id]);
  const login = await api<{ token: string }>('POST', '/auth/login', { json: { email, password } });
  if (login.status !== 200)
    throw new Error(`login of ${email} failed: ${login.status} ${JSON.stringify(login.body)}`);
  return { id, email, password, token: login.body.token };
}

/** A token with a valid shape and claims but a signature made without the server's secret. */
export function forgedToken(user?: TestUser): string {
  const base = user?.token ?? stackEnv('SERVICE_ROLE_KEY');
  const [h, p] = base.split('.');
  const payload = JSON.parse(Buffer.from(p, 'base64url').toString('utf8'));
  payload.role = 'authenticated';
  payload.sub ??= '00000000-0000-4000-a000-000000000001';
  payload.exp = Math.floor(Date.now() / 1000) + 3600;
  return `${h}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${Buffer.from('not the signature').toString('base64url')}`;
}

/** The 16 x 16 test JPEG of the image corpus, as the Buffer formOf takes. */
export function tinyJpeg(): Buffer {
  return Buffer.from(BASE_JPEG);
}

/** The corpus JPEG with GPS in Exif, text in APP0, a comment and bytes after EOI (issue 11). */
export function gpsJpeg(): Buffer {
  return Buffer.from(jpegWithGpsAndApp0Text());
}

function segment(marker: number, payload: Uint8Array): Buffer {
  const len = payload.length + 2;
  return Buffer.concat([Buffer.from([0xff, marker, len >> 8, len & 0xff]), payload]);
}

/**
 * A valid JPEG of exactly `size` bytes: tinyJpeg padded with comment (COM) segments, which the
 * metadata stripper drops, so a size limit can be tested at its boundary with a real image.
 */
export function jpegOfSize(size: number): Buffer {
  const base = tinyJpeg();
  const comments: Buffer[] = [];
  let pad = size - base.length;
  if (pad < 0 || (pad > 0 && pad < 4)) throw new Error(`no JPEG of ${size} bytes`);
  while (pad > 0) {
    // A segment is 4 to 65537 bytes; never leave a remainder of 1 to 3 bytes.
    let n = Math.min(pad, 65_537);
    if (pad - n > 0 && pad - n < 4) n -= 4;
    comments.push(segment(0xfe, Buffer.alloc(n - 4, 0x20)));
    pad -= n;
  }
  const out = Buffer.concat([base.subarray(0, 2), ...comments, base.subarray(2)]);
  if (out.length !== size) throw new Error(`jpegOfSize built ${out.length} bytes, not ${size}`);
  return out;
}

/** A form with the fields and, optionally, one file. */
export function formOf(
  fields: Record<string, string>,
  file?: { field: string; bytes: Buffer; name: string; type: string },
): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (file) form.append(file.field, new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
  return form;
}

/** Objects stored in a bucket (as the database records them). */
export async function objectsIn(bucket: string, prefix: string): Promise<string[]> {
  const { rows } = await adminPool().query<{ name: string }>(
    'select name from storage.objects where bucket_id = $1 and name like $2 order by name',
    [bucket, `${prefix}%`],
  );
  return rows.map((r) => r.name);
}

/** Downloads a stored object's bytes with the service key. */
export async function downloadObject(bucket: string, name: string): Promise<Buffer> {
  const res = await fetch(`${stackEnv('API_URL')}/storage/v1/object/${bucket}/${name}`, {
    headers: {
      apikey: stackEnv('SERVICE_ROLE_KEY'),
      authorization: `Bearer ${stackEnv('SERVICE_ROLE_KEY')}`,
    },
  });
  if (!res.ok) throw new Error(`download ${bucket}/${name}: ${res.status}`);
  return Buffer.from(await res.arrayBuffer());
}

/** Runs a scheduled function as the scheduler does (service-role key). */
export async function runJob(name: string): Promise<Answer> {
  const res = await fetch(`${stackEnv('API_URL')}/functions/v1/${name}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${stackEnv('SERVICE_ROLE_KEY')}`, 'content-type': 'application/json' },
    body: '{}',
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, headers: res.headers };
}

export function reportFields(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    incidentDate: new Date().toISOString().slice(0, 10),
    incidentType: 'scam',
    reportedAccountType: 'mobile no.',
    reportedAccount: `0917 ${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`,
    consentToContact: 'yes',
    incidentDescription: 'Asked for a GCash OTP to "verify" a prize.',
    location: 'Quezon City',
    loc: '14.6760,121.0437',
    country: 'PH',
    source: 'sms',
    ...overrides,
  };
}

/**
 * Follows the link of the removal-request confirmation e-mail sent to `contact` (the `count`-th one),
 * through the legacy API, as the requester clicking it would.
 */
export async function confirmRemovalByMail(contact: string, count = 1): Promise<Answer> {
  const mails = (await mailsTo(contact, count, 20_000)).filter(
    (m) => m.Subject === 'ScamCheck: confirm your removal request',
  );
  const url = /\/api\/v1(\/removal-requests\/[0-9a-f-]+\/confirm\?token=[0-9a-f]+)/.exec(
    mails[0]?.Text ?? '',
  )?.[1];
  if (!url) throw new Error(`no confirmation link in the e-mail to ${contact}`);
  return api('GET', url);
}

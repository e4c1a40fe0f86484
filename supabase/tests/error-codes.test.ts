/**
 * Issue 36, part 4: the refusals the app shows cross the wire as stable codes. The database puts
 * `{"code": ..., ...params}` in the error's hint, which the Data API hands to supabase-js as it is;
 * the functions answer `{msg, code, params}`. The English messages stay (the legacy API's words), and
 * the app translates the codes (src/lib/server-errors.ts). One signed-in user's app client, as the
 * browser holds it.
 */
import { randomUUID } from 'node:crypto';
import {
  createClient,
  FunctionsHttpError,
  type PostgrestError,
  type SupabaseClient,
  type SupabaseClientOptions,
} from '@supabase/supabase-js';
import { beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createUser, type TestUser } from './functions/helpers.ts';
import { adminPool, stackEnv, unique } from './helpers.ts';

type Transport = NonNullable<NonNullable<SupabaseClientOptions<'public'>['realtime']>['transport']>;

let user: TestUser;
let client: SupabaseClient;

beforeAll(async () => {
  user = await createUser('codes');
  client = createClient(stackEnv('API_URL'), stackEnv('ANON_KEY'), {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: WebSocket as unknown as Transport },
    accessToken: async () => user.token,
  });
});

/** The code and parameters of a refusal, read the way the app reads them. */
function codeOf(error: PostgrestError | null): Record<string, unknown> {
  expect(error, 'the call was refused').toBeTruthy();
  expect(error!.hint, error!.message).toMatch(/^\{/);
  return JSON.parse(error!.hint) as Record<string, unknown>;
}

function report(account: string, fields: Record<string, unknown> = {}) {
  return client
    .from('reports')
    .insert({
      incident_date: '2026-01-15',
      incident_type: 'scam',
      reported_account_type: 'website',
      reported_account: account,
      incident_description: 'Seller took payment and blocked me.',
      ...fields,
    })
    .select('id')
    .single();
}

describe('holds on: postgres — database refusals carry their code in the hint', () => {
  it('an answer to a removal request that is not on your reports: removal_request_missing', async () => {
    const { error } = await client.rpc('answer_removal_request', {
      request_id: randomUUID(),
      answer: 'This report is true.',
    });
    expect(codeOf(error)).toEqual({ code: 'removal_request_missing' });
  });

  it('a second report on one identifier: report_duplicate with the report to edit', async () => {
    const account = `${unique('dup')}.example.ph`;
    const first = await report(account);
    expect(first.error).toBeNull();
    const second = await report(account);
    expect(second.error!.code).toBe('PT409');
    expect(second.error!.message).toMatch(/^You already reported /);
    expect(second.error!.details).toBe(`existing_report_id=${first.data!.id}`);
    const { rows } = await adminPool().query<{ date: string }>(
      `select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as date from public.reports where id = $1`,
      [first.data!.id],
    );
    expect(codeOf(second.error)).toEqual({
      code: 'report_duplicate',
      report_id: first.data!.id,
      account,
      date: rows[0].date,
    });
  });

  it('the report guards: incident_date_future and report_status_admin_only', async () => {
    const future = await report(`${unique('fut')}.example.ph`, { incident_date: '2099-01-01' });
    expect([future.error!.code, codeOf(future.error)]).toEqual(['22023', { code: 'incident_date_future' }]);
    const mine = await report(`${unique('own')}.example.ph`);
    const verify = await client.from('reports').update({ status: 'verified' }).eq('id', mine.data!.id);
    expect(codeOf(verify.error)).toEqual({ code: 'report_status_admin_only' });
    const rpc = await client.rpc('set_report_status', { report_id: mine.data!.id, status: 'verified' });
    expect([rpc.error!.code, codeOf(rpc.error)]).toEqual(['42501', { code: 'report_status_admin_only' }]);
  });

  it('a second open removal request: removal_open', async () => {
    const target = await report(`${unique('rm')}.example.ph`);
    const ask = () =>
      client.from('removal_requests').insert({
        report_id: target.data!.id,
        requester_id: user.id,
        reason: 'This is my shop and the order was delivered.',
        contact_email: user.email,
      });
    expect((await ask()).error).toBeNull();
    const again = await ask();
    expect(again.error!.code).toBe('PT409');
    const { rows } = await adminPool().query<{ id: string; date: string }>(
      `select id, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as date from public.removal_requests
       where report_id = $1 and status = 'open'`,
      [target.data!.id],
    );
    expect(codeOf(again.error)).toEqual({ code: 'removal_open', request_id: rows[0].id, date: rows[0].date });
  });

  it('API keys: api_key_name, api_key_missing and api_key_too_many', async () => {
    const unnamed = await client.rpc('create_api_key', { name: ' ' });
    expect(codeOf(unnamed.error)).toEqual({ code: 'api_key_name' });
    const missing = await client.rpc('revoke_api_key', { key_id: randomUUID() });
    expect([missing.error!.code, codeOf(missing.error)]).toEqual(['PT404', { code: 'api_key_missing' }]);
    const { rows } = await adminPool().query<{ max: number }>(
      `select coalesce(max(value::int), 10) as max from private.rate_limit_settings where name = 'api_keys_per_user'`,
    );
    for (let i = 0; i < rows[0].max; i++) {
      expect((await client.rpc('create_api_key', { name: `key ${i}` })).error).toBeNull();
    }
    const over = await client.rpc('create_api_key', { name: 'one too many' });
    expect([over.error!.code, codeOf(over.error)]).toEqual([
      'PT409',
      { code: 'api_key_too_many', max: rows[0].max },
    ]);
  });

  it('admin-only, ownership and search-input refusals: admin_only, ownership_*, search_length', async () => {
    // A signed-in user who is not an admin, on admin functions (each keeps its SQLSTATE and English).
    const stats = await client.rpc('admin_app_stats');
    expect([stats.error!.code, codeOf(stats.error)]).toEqual(['42501', { code: 'admin_only' }]);
    const moderate = await client.rpc('moderate_reports', {
      report_ids: [randomUUID()],
      status: 'verified',
    });
    expect(codeOf(moderate.error)).toEqual({ code: 'admin_only' });
    // Someone else's row, or an identifier not proved to be one's own.
    const owned = await client.rpc('owned_identifier_reports', { identifier: '+639171234567' });
    expect([owned.error!.code, codeOf(owned.error)]).toEqual(['42501', { code: 'ownership_required' }]);
    const withdraw = await client.rpc('withdraw_ownership_proof', { proof_id: randomUUID() });
    expect(codeOf(withdraw.error)).toEqual({ code: 'ownership_proof_missing' });
    // Search inputs, with the bounds the app words.
    const search = await client.rpc('search_reports', { search_string: 'x'.repeat(257) });
    expect([search.error!.code, codeOf(search.error)]).toEqual([
      '22023',
      { code: 'search_length', min: 1, max: 256 },
    ]);
    const check = await client.rpc('check_identifiers', {
      identifiers: Array.from({ length: 51 }, () => ({ type: 'mobile', value: '09171234567' })),
    });
    expect(codeOf(check.error)).toEqual({ code: 'check_too_many', max: 50 });
  });

  it('an expired top-list entry: top_entry_expired', async () => {
    const { error } = await client.rpc('search_top_identifier', { ref: randomUUID() });
    expect([error!.code, codeOf(error)]).toEqual(['PT404', { code: 'top_entry_expired' }]);
  });

  it('a rate limit: rate_limited with the limit, its size and the wait', async () => {
    // The limiter itself, as any caller meets it (a cost above the limit is refused at once).
    const subject = unique('codes-subject');
    const refused = await adminPool()
      .query(`select private.rate_limit('search.ip', $1, 61)`, [subject])
      .then(
        () => null,
        // Raised for PostgREST (SQLSTATE PGRST): the message is the JSON body the Data API answers.
        (e: { code?: string; message: string }) => {
          expect(e.code).toBe('PGRST');
          return JSON.parse(e.message) as { code: string; hint: string };
        },
      );
    expect(refused!.code).toBe('PT429');
    expect(JSON.parse(refused!.hint!)).toEqual({
      code: 'rate_limited',
      limit: 'search.ip',
      max: 60,
      per_seconds: 60,
      retry_after: expect.any(Number),
    });
  });
});

/**
 * The raise statements of a PL/pgSQL body, each from `raise` to its `;` (quotes and comments skipped),
 * leaving out messages that refuse nothing (`raise notice`, ...) and a bare re-raise.
 */
function raisesOf(body: string): string[] {
  const found: string[] = [];
  const re = /\braise\b/gi;
  for (let m = re.exec(body); m; m = re.exec(body)) {
    const lineStart = body.lastIndexOf('\n', m.index) + 1;
    if (body.slice(lineStart, m.index).includes('--')) continue;
    let i = m.index;
    let quoted = false;
    for (; i < body.length; i++) {
      if (body[i] === "'") quoted = !quoted;
      else if (body[i] === ';' && !quoted) break;
    }
    const statement = body.slice(m.index, i).replace(/\s+/g, ' ');
    re.lastIndex = i;
    if (/^raise( (notice|warning|log|info|debug)\b|$)/i.test(statement.trim())) continue;
    found.push(statement);
  }
  return found;
}

/** The stable code a raise statement carries in its hint (a JSON literal or jsonb_build_object), or null. */
function hintCodeOf(statement: string): string | null {
  const m =
    /\bhint'?\s*(?:=|,)\s*(?:'\{"code": "([a-z0-9_]+)"|jsonb_build_object\('code', '([a-z0-9_]+)')/.exec(
      statement,
    );
  return m ? (m[1] ?? m[2]) : null;
}

describe('holds on: postgres — every refusal of every function carries a code', () => {
  it('finds a code in each raise of the latest definition of every project function (the catalogue)', async () => {
    const { rows } = await adminPool().query<{ fn: string; body: string }>(
      `select p.oid::regprocedure::text as fn, p.prosrc as body
       from pg_proc p
       join pg_namespace n on n.oid = p.pronamespace
       join pg_language l on l.oid = p.prolang
       where n.nspname in ('public', 'private') and l.lanname = 'plpgsql'`,
    );
    const raises = rows.flatMap(({ fn, body }) => raisesOf(body).map((statement) => ({ fn, statement })));
    expect(raises.length).toBeGreaterThan(150);
    const uncoded = raises.filter(({ statement }) => hintCodeOf(statement) === null);
    expect(uncoded.map(({ fn, statement }) => `${fn}: ${statement}`)).toEqual([]);
  });

  it('tells a coded raise from one without a code', () => {
    const body = `begin
      -- raise exception 'in a comment';
      raise notice 'not a refusal';
      raise exception 'a; b' using errcode = '22023', hint = '{"code": "one"}';
      raise exception 'not a valid %', k using hint = jsonb_build_object('code', 'two', 'kind', k)::text;
      raise sqlstate 'PGRST' using message = json_build_object('hint', jsonb_build_object('code', 'three')::text)::text;
      raise exception 'no code' using errcode = '22023', hint = 'English advice';
      raise exception 'none at all';
      raise;
    end`;
    expect(raisesOf(body).map(hintCodeOf)).toEqual(['one', 'two', 'three', null, null]);
  });

  it('start_ownership_proof and claim_phone_ownership refuse by code', async () => {
    const sms = await client.rpc('start_ownership_proof', {
      kind: 'mobile',
      value: '09171234567',
      method: 'sms',
    });
    expect([sms.error!.code, codeOf(sms.error)]).toEqual(['22023', { code: 'ownership_method_invalid' }]);
    const email = await client.rpc('start_ownership_proof', {
      kind: 'email',
      value: 'not-an-address',
      method: 'email',
    });
    expect(codeOf(email.error)).toEqual({ code: 'email_invalid' });
    const claim = await client.rpc('claim_phone_ownership', { kind: 'email', value: 'a@example.ph' });
    expect(codeOf(claim.error)).toEqual({ code: 'ownership_method_invalid' });
    const unconfirmed = await client.rpc('claim_phone_ownership', { kind: 'mobile', value: '09171234567' });
    expect(codeOf(unconfirmed.error)).toEqual({ code: 'phone_not_confirmed' });
    const period = await client.rpc('public_statistics', { period: 'forever' });
    expect(codeOf(period.error)).toEqual({
      code: 'choice_invalid',
      argument: 'period',
      choices: 'last_30_days, last_12_months, all_time',
    });
  });
});

describe('holds on: edge function — function refusals carry their code in the answer', () => {
  async function upload(form: FormData) {
    const { error } = await client.functions.invoke('upload-image', { body: form });
    expect(error).toBeInstanceOf(FunctionsHttpError);
    const res = (error as FunctionsHttpError).context as Response;
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  it('upload-image: image_missing and image_not_image, the English msg kept', async () => {
    const none = new FormData();
    none.append('bucket', 'evidence');
    expect(await upload(none)).toEqual({
      status: 400,
      body: { msg: 'Choose an image to upload', code: 'image_missing' },
    });
    const text = new FormData();
    text.append('bucket', 'evidence');
    text.append('file', new Blob(['not an image at all'], { type: 'image/png' }), 'x.png');
    expect(await upload(text)).toEqual({
      status: 400,
      body: {
        msg: 'Evidence must be an image (JPEG, PNG, WebP or GIF); this file is not one',
        code: 'image_not_image',
        params: { image: 'evidence' },
      },
    });
  });
});

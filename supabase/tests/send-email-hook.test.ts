/**
 * Issue 28, "Mail": every e-mail Auth sends goes through the Send Email hook (supabase/functions/
 * send-email), as hosted GoTrue calls it with `[auth.hook.send_email]` enabled, and the hook caps e-mails
 * per recipient in Postgres (mail.recipient, 5 a day). Holds on hosted: edge function + postgres.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LOCAL_SEND_EMAIL_HOOK_SECRET, signHook } from '@scamcheck/local-supabase';
import { EMBEDDED_TEMPLATES, embeddedTemplatesSource } from '../project/embed-templates.ts';
import { anonClient, mailsTo, serviceClient, uniqueEmail } from './auth-helpers.ts';
import { adminPool, stackEnv } from './helpers.ts';

const HOOK = () => `${stackEnv('API_URL')}/functions/v1/send-email`;

/** How many e-mails the sink holds for `to` right now. */
async function mailCount(to: string): Promise<number> {
  const res = await fetch(`${stackEnv('MAILPIT_URL')}/api/v1/search?query=${encodeURIComponent(`to:${to}`)}`);
  const list = (await res.json()) as { messages: { To: { Address: string }[] }[] };
  return list.messages.filter((m) => m.To.some((t) => t.Address.toLowerCase() === to.toLowerCase())).length;
}

/** E-mails spent from `to`'s mail.recipient allowance (the limiter is a GCRA: each call moves `tat` on). */
async function allowanceSpent(to: string): Promise<number> {
  const { rows } = await adminPool().query<{ n: number }>(
    `select coalesce((
       select ceil(extract(epoch from b.tat - now()) / (l.per_seconds::numeric / l.max_calls))::int
         from private.rate_limit_buckets b join private.rate_limits l on l.name = b.name
        where b.name = 'mail.recipient' and b.subject = 'email:' || md5(lower(trim($1)))), 0) as n`,
    [to],
  );
  return rows[0].n;
}

/** A confirmed account made by the admin API (no e-mail), signed in. */
async function signedInUser() {
  const email = uniqueEmail('attacker');
  const password = 'correct horse battery';
  const created = await serviceClient().auth.admin.createUser({ email, password, email_confirm: true });
  expect(created.error).toBeNull();
  const client = anonClient();
  expect((await client.auth.signInWithPassword({ email, password })).error).toBeNull();
  return { client };
}

function hookBody(to: string) {
  return JSON.stringify({
    user: { id: crypto.randomUUID(), email: to, user_metadata: { locale: 'fil' } },
    email_data: {
      token: '1234567890',
      token_hash: 'a'.repeat(56),
      redirect_to: '',
      email_action_type: 'magiclink',
      site_url: 'http://localhost:5173',
      token_new: '',
      token_hash_new: '',
    },
  });
}

describe('holds on: edge function + postgres — the Send Email hook', () => {
  it('a flood of e-mail changes, sign-ups and codes to one stranger address stops at the cap', async () => {
    const stranger = uniqueEmail('stranger');
    const attackers = await Promise.all([1, 2, 3, 4, 5, 6].map(() => signedInUser()));
    // Five accounts each ask to move to the stranger's address: five e-mails reach it.
    for (const a of attackers.slice(0, 5)) {
      const { error } = await a.client.auth.updateUser({ email: stranger });
      expect(error).toBeNull();
    }
    await mailsTo(stranger, 5);
    // Past the cap every path Auth mails from is refused with 429, and nothing is sent or changed.
    const sixth = await attackers[5].client.auth.updateUser({ email: stranger });
    expect(sixth.error?.status).toBe(429);
    const signUp = await anonClient().auth.signUp({ email: stranger, password: 'correct horse battery' });
    expect(signUp.error?.status).toBe(429);
    const otp = await anonClient().auth.signInWithOtp({ email: stranger });
    expect(otp.error?.status).toBe(429);
    expect(await mailCount(stranger)).toBe(5);
    const { rows } = await adminPool().query(
      `select (select count(*)::int from auth.users where email = $1) as users,
              (select count(*)::int from auth.users where email_change = $1) as changes`,
      [stranger],
    );
    // The refused sign-up was rolled back; only the five changes that were mailed are pending.
    expect(rows[0]).toEqual({ users: 0, changes: 5 });
  });

  it('refuses a forged or unsigned call, spending nothing and sending nothing', async () => {
    const to = uniqueEmail('forged');
    const body = hookBody(to);
    const forgedSecret = 'v1,whsec_' + Buffer.from('not-the-secret-not-the-secret-32').toString('base64');
    const forged = await fetch(HOOK(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...signHook([forgedSecret], body) },
      body,
    });
    expect(forged.status).toBe(401);
    expect(await forged.json()).toEqual({ error: { http_code: 401, message: 'Invalid webhook signature' } });
    const unsigned = await fetch(HOOK(), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(unsigned.status).toBe(401);
    await unsigned.body?.cancel();
    // A genuine signature over another body does not carry over.
    const headers = signHook([LOCAL_SEND_EMAIL_HOOK_SECRET], hookBody(uniqueEmail('other')));
    const swapped = await fetch(HOOK(), {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body,
    });
    expect(swapped.status).toBe(401);
    await swapped.body?.cancel();
    // A genuine signature from more than 5 minutes ago is a replay.
    const old = signHook(
      [LOCAL_SEND_EMAIL_HOOK_SECRET],
      body,
      crypto.randomUUID(),
      new Date(Date.now() - 600_000),
    );
    const replay = await fetch(HOOK(), {
      method: 'POST',
      headers: { ...old, 'content-type': 'application/json' },
      body,
    });
    expect(replay.status).toBe(401);
    await replay.body?.cancel();
    expect(await allowanceSpent(to)).toBe(0);
    expect(await mailCount(to)).toBe(0);

    // Signed as GoTrue signs it, the same body is sent, in the user's language, and spends one e-mail.
    const genuine = await fetch(HOOK(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...signHook([LOCAL_SEND_EMAIL_HOOK_SECRET], body) },
      body,
    });
    expect(genuine.status).toBe(200);
    expect(await genuine.json()).toEqual({});
    const [mail] = await mailsTo(to);
    expect(mail.Subject).toBe('Ang iyong ScamCheck sign-in code');
    expect(mail.HTML).toContain('1234567890');
    expect(await allowanceSpent(to)).toBe(1);
  });

  it("an invitation (admin) goes through the hook too and spends the invitee's allowance", async () => {
    const to = uniqueEmail('invitee');
    expect((await serviceClient().auth.admin.inviteUserByEmail(to)).error).toBeNull();
    await mailsTo(to);
    expect(await allowanceSpent(to)).toBe(1);
  });
});

describe('holds on: edge function — the templates the send-email function carries', () => {
  it('are the ones config.toml names, as `npm run templates:embed` writes them', () => {
    expect(readFileSync(EMBEDDED_TEMPLATES, 'utf8')).toBe(embeddedTemplatesSource());
  });
});

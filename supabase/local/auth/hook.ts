/**
 * GoTrue's Send Email hook (`[auth.hook.send_email]`), as hosted GoTrue runs it: with the hook enabled
 * Auth sends no e-mail itself but POSTs `{user, email_data}` to the hook's URI, signed with Standard
 * Webhooks (a `webhook-id`, a `webhook-timestamp` in seconds and `webhook-signature: v1,<base64 HMAC-SHA256
 * of "id.timestamp.body">` for each of the `|`-separated secrets "v1,whsec_<base64>"), inside the
 * request's transaction: a hook that fails fails the request, and the change it would have made is
 * rolled back (supabase/auth internal/hooks, `runHTTPHook`; read from the GoTrue source).
 *
 * The answer, as GoTrue reads it: 200/202/204 with `{"error": {"http_code", "message"}}` fails the
 * request with that status and message; any other status is the hook failing, a 500. GoTrue waits 5 s
 * and retries a timeout; this stand-in waits longer once (HOOK_TIMEOUT_MS) instead, because a local
 * function may boot cold on a loaded machine, and a retry after a late answer would send twice.
 */
import crypto from 'node:crypto';
import { AuthError } from './errors.ts';
import type { UserRow } from './store.ts';
import { userJson } from './store.ts';

export interface SendEmailHook {
  uri: string;
  /** "v1,whsec_<base64>" secrets; GoTrue signs with each (config.toml separates them with "|"). */
  secrets: string[];
}

/** GoTrue's `email_data` (mailer.EmailData). */
export interface EmailData {
  token: string;
  token_hash: string;
  redirect_to: string;
  email_action_type: string;
  site_url: string;
  token_new: string;
  token_hash_new: string;
}

export interface HookCall {
  user: Record<string, unknown>;
  email_data: EmailData;
}

export const HOOK_TIMEOUT_MS = 20_000;

/** The hook's body for a user: GoTrue's user JSON (with `new_email` during an e-mail change). */
export function hookCall(
  user: UserRow,
  emailData: Partial<EmailData> & { email_action_type: string },
  newEmail?: string,
): HookCall {
  const json = userJson(user, []);
  if (newEmail) json['new_email'] = newEmail;
  return {
    user: json,
    email_data: {
      token: '',
      token_hash: '',
      redirect_to: '',
      site_url: '',
      token_new: '',
      token_hash_new: '',
      ...emailData,
    },
  };
}

/** The Standard Webhooks headers GoTrue sends for `body`. */
export function signHook(secrets: string[], body: string, id = crypto.randomUUID(), now = new Date()) {
  const timestamp = String(Math.floor(now.getTime() / 1000));
  const signatures = secrets.map((s) => {
    const key = Buffer.from(s.replace(/^v1,whsec_/, ''), 'base64');
    return 'v1,' + crypto.createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  });
  return {
    'webhook-id': id,
    'webhook-timestamp': timestamp,
    'webhook-signature': signatures.join(' '),
  };
}

function hookFailed(message: string): AuthError {
  return new AuthError(500, 'unexpected_failure', message);
}

/** Calls the hook once; throws the AuthError GoTrue would answer when it refuses or fails. */
export async function callSendEmailHook(hook: SendEmailHook, call: HookCall): Promise<void> {
  const body = JSON.stringify(call);
  let res: Response;
  try {
    res = await fetch(hook.uri, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...signHook(hook.secrets, body) },
      body,
      signal: AbortSignal.timeout(HOOK_TIMEOUT_MS),
    });
  } catch (e) {
    throw Object.assign(hookFailed('Failed to reach hook within maximum time'), { cause: e });
  }
  const text = await res.text();
  if (![200, 202, 204].includes(res.status)) {
    if (res.status === 400) throw hookFailed('Invalid payload sent to hook');
    if (res.status === 401) throw hookFailed('Hook requires authorization token');
    throw hookFailed('Error executing Hook');
  }
  if (!text) return;
  let out: unknown;
  try {
    out = JSON.parse(text);
  } catch {
    throw hookFailed('Error executing Hook');
  }
  const error = (out as { error?: { http_code?: number; message?: string } } | null)?.error;
  if (!error) return;
  const status = Number(error.http_code) || 500;
  // GoTrue answers the hook's own status and message; its error code for hook errors is not documented,
  // so the stand-in names the limit one for 429 as supabase-js callers check it.
  throw new AuthError(
    status,
    status === 429 ? 'over_email_send_rate_limit' : 'unexpected_failure',
    String(error.message ?? 'Error executing Hook'),
  );
}

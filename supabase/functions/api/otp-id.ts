/**
 * The legacy client's confirmation flow: after sign-up it opens /two-factor-authentication/{id}, where
 * the id stands for the e-mail address, and confirms with GET /verify/{base64 of "id.otp"}. Supabase's
 * verifyOtp needs the e-mail with the code, so the id is the address sealed with AES-GCM under a key
 * derived from the service key: opaque in URLs and logs, and only this server can open it.
 */
import { requireEnv } from '../_shared/env.ts';

let key: Promise<CryptoKey> | undefined;

function sealKey(): Promise<CryptoKey> {
  key ??= (async () => {
    const material = new TextEncoder().encode(
      `otp-id:${Deno.env.get('OTP_ID_SECRET') ?? requireEnv('SUPABASE_SERVICE_ROLE_KEY')}`,
    );
    const digest = await crypto.subtle.digest('SHA-256', material);
    return crypto.subtle.importKey('raw', digest, 'AES-GCM', false, ['encrypt', 'decrypt']);
  })();
  return key;
}

function toBase64Url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

function fromBase64(s: string): Uint8Array<ArrayBuffer> | null {
  try {
    // atob decodes base64 without its '=' padding too (the web's forgiving-base64, in Deno as in browsers).
    return Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

export async function sealEmail(email: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = new Uint8Array(
    await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, await sealKey(), new TextEncoder().encode(email)),
  );
  const out = new Uint8Array(iv.length + sealed.length);
  out.set(iv);
  out.set(sealed, iv.length);
  return toBase64Url(out);
}

/** The e-mail inside an id, or null when the id was not made by sealEmail (or was altered). */
export async function openEmail(id: string): Promise<string | null> {
  const bytes = fromBase64(id);
  if (!bytes || bytes.length < 13 + 16) return null;
  try {
    const plain = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: bytes.subarray(0, 12) },
      await sealKey(),
      bytes.subarray(12),
    );
    return new TextDecoder().decode(plain);
  } catch {
    return null;
  }
}

/** Splits the /verify/{...} parameter: base64 of "<id>.<otp>" (the code is after the last dot). */
export function decodeVerifyParam(param: string): { id: string; otp: string } | null {
  const bytes = fromBase64(param);
  if (!bytes) return null;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
  const dot = text.lastIndexOf('.');
  if (dot <= 0) return null;
  return { id: text.slice(0, dot), otp: text.slice(dot + 1).trim() };
}

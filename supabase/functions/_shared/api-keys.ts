/**
 * The shape of ScamCheck API keys (made by public.create_api_key): 'sck_' and 64 hex characters. The
 * prefix tells a key from a user's session token (a JWT) wherever a Bearer token arrives. Pure
 * TypeScript, shared by the functions and the app.
 */
export const API_KEY_PREFIX = 'sck_';

const API_KEY = /^sck_[0-9a-f]{64}$/;

/** Whether a string has the form of an API key (it may still be unknown or revoked). */
export function isApiKey(value: string): boolean {
  return API_KEY.test(value);
}

/** Lower-case hex SHA-256 of a string's UTF-8 bytes (Web Crypto: Deno, browsers and Node 20). */
export async function sha256Hex(value: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(value));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

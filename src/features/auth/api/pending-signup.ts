/**
 * Between registering and typing the code, the e-mail is remembered in sessionStorage (this tab
 * only, gone when it closes) so the code page does not ask for it again.
 */
const KEY = 'scamcheck.pendingSignupEmail';

export function rememberSignupEmail(email: string) {
  try {
    sessionStorage.setItem(KEY, email);
  } catch {
    // Without storage the code page simply asks for the e-mail.
  }
}

export function recallSignupEmail(): string {
  try {
    return sessionStorage.getItem(KEY) ?? '';
  } catch {
    return '';
  }
}

export function forgetSignupEmail() {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // Nothing to clean up.
  }
}

/**
 * The id in /two-factor-authentication/{id} after registering: SHA-256 of the e-mail (docs/behaviour.md
 * section 2, "a hash of the e-mail"), so the address itself never sits in the URL or the history.
 * The e-mail's link uses GoTrue's token hash instead, which is how the page tells the two apart.
 */
export async function emailHash(email: string): Promise<string> {
  const bytes = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(email.trim().toLowerCase()));
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, '0')).join('');
}

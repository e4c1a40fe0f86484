/**
 * Issue 28, "Mail": the Send Email hook's e-mails without a stack: GoTrue's e-mail change quirk and the
 * templates in the user's language (supabase/local/auth/hook.test.ts checks the signatures,
 * supabase/tests/send-email-hook.test.ts that the templates module is current).
 * Holds on: edge function.
 */
import { describe, expect, it } from 'vitest';
import {
  confirmationUrl,
  hookInputSchema,
  recipients,
  renderMails,
} from '../../supabase/functions/send-email/hook.ts';

describe('holds on: edge function — the Send Email hook', () => {
  it("sends a secure e-mail change to both addresses with GoTrue's swapped hashes, in the user's language", () => {
    const input = hookInputSchema.parse({
      user: { email: 'old@example.com', new_email: 'new@example.com', user_metadata: { locale: 'fil' } },
      email_data: {
        email_action_type: 'email_change',
        token: '1111111111',
        token_hash: 'hash-of-new',
        token_new: '2222222222',
        token_hash_new: 'hash-of-current',
        site_url: 'https://app.example',
        redirect_to: 'https://app.example/profile',
      },
    });
    expect(recipients(input)).toEqual([
      { to: 'new@example.com', token: '2222222222', tokenHash: 'hash-of-new' },
      { to: 'old@example.com', token: '1111111111', tokenHash: 'hash-of-current' },
    ]);
    const mails = renderMails(input, 'https://api.example/auth/v1');
    expect(mails.map((m) => m.subject)).toEqual([
      'Kumpirmahin ang iyong bagong ScamCheck e-mail address',
      'Kumpirmahin ang iyong bagong ScamCheck e-mail address',
    ]);
    expect(mails[0].html).toContain('2222222222');
    expect(mails[0].html).toContain(
      'https://api.example/auth/v1/verify?token=hash-of-new&amp;type=email_change&amp;redirect_to=https://app.example/profile',
    );
    expect(mails[1].html).toContain('1111111111');
    // Without Secure Email Change, one e-mail to the new address with token/token_hash.
    const single = hookInputSchema.parse({
      ...input,
      email_data: { ...input.email_data, token_new: '', token_hash_new: '' },
    });
    expect(recipients(single)).toEqual([
      { to: 'new@example.com', token: '1111111111', tokenHash: 'hash-of-new' },
    ]);
  });

  it("writes the redirect as GoTrue does: escaped only when it holds '&', '=' or '#'", () => {
    expect(confirmationUrl('https://api.example/auth/v1', 'h', 'signup', 'https://app.example')).toBe(
      'https://api.example/auth/v1/verify?token=h&type=signup&redirect_to=https://app.example',
    );
    expect(
      confirmationUrl('https://api.example/auth/v1', 'h', 'recovery', 'https://app.example/?a=1&b#c'),
    ).toBe(
      'https://api.example/auth/v1/verify?token=h&type=recovery&redirect_to=https%3A%2F%2Fapp.example%2F%3Fa%3D1%26b%23c',
    );
  });

  it('refuses an action it has no template for', () => {
    expect(
      hookInputSchema.safeParse({ user: { email: 'a@b.ph' }, email_data: { email_action_type: 'sms' } })
        .success,
    ).toBe(false);
  });
});

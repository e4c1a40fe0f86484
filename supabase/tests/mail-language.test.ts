/**
 * Issue 15: Auth's e-mails in the user's language. The templates (supabase/templates, the same files
 * hosted GoTrue uses) choose Filipino when the user metadata's `locale` is 'fil': set at sign-up from
 * the app's language, and kept equal to profiles.language by a trigger afterwards.
 */
import { describe, expect, it } from 'vitest';
import { anonClient, codeIn, latestMail, uniqueEmail } from './auth-helpers.ts';
import { adminPool } from './helpers.ts';

describe('Auth e-mails follow the user language', () => {
  it('a sign-up in Filipino gets the confirmation e-mail in Filipino, with its code and link', async () => {
    const email = uniqueEmail('fil');
    const { error } = await anonClient().auth.signUp({
      email,
      password: 'correct horse battery',
      options: { data: { name: 'Juan', locale: 'fil' } },
    });
    expect(error).toBeNull();
    const mail = await latestMail(email);
    expect(mail.Subject).toBe('Ang iyong ScamCheck confirmation code');
    expect(mail.HTML).toContain('<html lang="fil">');
    expect(mail.HTML).toContain('Maligayang pagdating sa ScamCheck, Juan!');
    expect(mail.HTML).not.toContain('Welcome to ScamCheck');
    expect(codeIn(mail)).toMatch(/^\d{6}$/);
    const { rows } = await adminPool().query(
      'select p.language from public.profiles p join auth.users u on u.id = p.id where u.email = $1',
      [email],
    );
    expect(rows).toEqual([{ language: 'fil' }]);
  });

  it('a sign-up without a language gets the English e-mail, unchanged', async () => {
    const email = uniqueEmail('en');
    await anonClient().auth.signUp({
      email,
      password: 'correct horse battery',
      options: { data: { name: 'Ann' } },
    });
    const mail = await latestMail(email);
    expect(mail.Subject).toBe('Your ScamCheck confirmation code');
    expect(mail.HTML).toContain('<html lang="en">');
    expect(mail.HTML).toContain('Welcome to ScamCheck, Ann!');
    expect(mail.HTML).not.toContain('Maligayang');
  });

  it('a language changed in the profile decides the next e-mail (password reset)', async () => {
    const email = uniqueEmail('switch');
    await anonClient().auth.signUp({
      email,
      password: 'correct horse battery',
      options: { data: { name: 'Lia' } },
    });
    await latestMail(email);
    await adminPool().query(`update auth.users set email_confirmed_at = now() where email = $1`, [email]);
    await adminPool().query(
      `update public.profiles set language = 'fil' where id = (select id from auth.users where email = $1)`,
      [email],
    );
    expect((await anonClient().auth.resetPasswordForEmail(email)).error).toBeNull();
    const mail = await latestMail(email, 2);
    expect(mail.Subject).toBe('I-reset ang iyong ScamCheck password');
    expect(mail.HTML).toContain('I-reset ang password ko');
  });
});

/**
 * Issue 15: Auth's e-mails in the user's language. The templates (supabase/templates, the same files
 * hosted GoTrue uses) choose Filipino when the user metadata's `locale` is 'fil': set at sign-up from
 * the app's language, and kept equal to profiles.language by a trigger afterwards.
 */
import { describe, expect, it } from 'vitest';
import { anonClient, codeIn, confirmedUser, latestMail, serviceClient, uniqueEmail } from './auth-helpers.ts';
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
    expect(mail.HTML).toContain('Maligayang pagdating sa ScamCheck!');
    expect(mail.HTML).not.toContain('Welcome to ScamCheck');
    expect(codeIn(mail)).toMatch(/^\d{10}$/);
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
    expect(mail.HTML).toContain('Welcome to ScamCheck!');
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

  it('an invitation with the Filipino locale is written in Filipino; without one it stays English', async () => {
    const email = uniqueEmail('invite-fil');
    const invited = await serviceClient().auth.admin.inviteUserByEmail(email, {
      data: { name: 'Rosa', locale: 'fil' },
    });
    expect(invited.error).toBeNull();
    const mail = await latestMail(email);
    expect(mail.Subject).toBe('Inimbitahan ka sa ScamCheck');
    expect(mail.HTML).toContain('<html lang="fil">');
    expect(mail.HTML).toContain(`Gumawa ang isang administrator ng ScamCheck account para sa ${email}.`);
    expect(mail.HTML).toContain('Tanggapin ang imbitasyon');
    expect(mail.HTML).not.toContain('Accept the invitation');
    expect(codeIn(mail)).toMatch(/^\d{10}$/);

    const other = uniqueEmail('invite-en');
    expect((await serviceClient().auth.admin.inviteUserByEmail(other)).error).toBeNull();
    const english = await latestMail(other);
    expect(english.Subject).toBe('You have been invited to ScamCheck');
    expect(english.HTML).toContain('Accept the invitation');
    expect(english.HTML).not.toContain('Inimbitahan');
  });

  it('the reauthentication code comes in the profile language', async () => {
    const { email, password, user } = await confirmedUser({ name: 'Ben' });
    await adminPool().query(`update public.profiles set language = 'fil' where id = $1`, [user.id]);
    const client = anonClient();
    await client.auth.signInWithPassword({ email, password });
    expect((await client.auth.reauthenticate()).error).toBeNull();
    const mail = await latestMail(email, 2);
    expect(mail.Subject).toBe('Ang iyong ScamCheck verification code');
    expect(mail.HTML).toContain('<html lang="fil">');
    expect(mail.HTML).toContain(
      'Ilagay ang code na ito para kumpirmahin ang pagbabago sa iyong ScamCheck account:',
    );
    expect(mail.HTML).not.toContain('Confirm it is you');
    expect(codeIn(mail)).toMatch(/^\d{10}$/);
  });
});

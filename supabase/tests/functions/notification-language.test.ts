/**
 * Issue 15: notification e-mails are written in the recipient's language (profiles.language); English
 * stays the wording it always was.
 */
import { describe, expect, it } from 'vitest';
import { adminPool, unique } from '../helpers.ts';
import { mailsTo } from '../auth-helpers.ts';
import { api, createUser, runJob } from './helpers.ts';

async function watchAndReport(language: 'en' | 'fil') {
  const watcher = await createUser(`lang-${language}`);
  await adminPool().query('update public.profiles set language = $2 where id = $1', [watcher.id, language]);
  const site = `${unique('watched')}.example`;
  expect((await api('POST', '/notify', { token: watcher.token, json: { assetName: site } })).status).toBe(
    201,
  );
  await adminPool().query(
    `insert into public.reports (incident_date, incident_type, reported_account_type, reported_account)
     values ('2026-01-01', 'hacked', 'website', $1)`,
    [`https://${site}/login`],
  );
  await runJob('notify-dispatch');
  const [mail] = await mailsTo(watcher.email, 1, 20_000);
  return { mail, site };
}

describe('notification e-mails follow the profile language', () => {
  it('a Filipino user is told in Filipino', async () => {
    const { mail, site } = await watchAndReport('fil');
    expect(mail.Subject).toBe(`ScamCheck: na-report ang https://${site}/login`);
    expect(mail.Text).toContain(`May nag-report ng https://${site}/login, na ipinabantay mo sa ScamCheck.`);
    expect(mail.Text).toContain('Uri ng insidente: na-hack. Naghihintay pa ng pagsusuri ang report.');
    expect(mail.Text).toContain('Tingnan ang mga report: ');
  });

  it('an English user gets the English e-mail as before', async () => {
    const { mail, site } = await watchAndReport('en');
    expect(mail.Subject).toBe(`ScamCheck: https://${site}/login was reported`);
    expect(mail.Text).toContain('Incident type: hacked. The report is waiting for review.');
  });
});

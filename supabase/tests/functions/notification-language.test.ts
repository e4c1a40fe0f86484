/**
 * Issue 15: notification e-mails are written in the recipient's language (profiles.language); English
 * stays the wording it always was.
 */
import { defang } from '../../functions/_shared/inert-text.ts';
import { describe, expect, it } from 'vitest';
import { adminPool, unique } from '../helpers.ts';
import { mailsTo } from '../auth-helpers.ts';
import { api, confirmRemovalByMail, createUser, reportFields, runJob } from './helpers.ts';

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
    expect(mail.Subject).toBe(`ScamCheck: na-report ang ${defang(`https://${site}/login`)}`);
    expect(mail.Text).toContain(
      `May nag-report ng ${defang(`https://${site}/login`)}, na ipinabantay mo sa ScamCheck.`,
    );
    expect(mail.Text).toContain('Uri ng insidente: na-hack. Naghihintay pa ng pagsusuri ang report.');
    expect(mail.Text).toContain('Tingnan ang mga report: ');
  });

  it('an English user gets the English e-mail as before', async () => {
    const { mail, site } = await watchAndReport('en');
    expect(mail.Subject).toBe(`ScamCheck: ${defang(`https://${site}/login`)} was reported`);
    expect(mail.Text).toContain('Incident type: hacked. The report is waiting for review.');
  });

  it("the removal request's confirmation to an outside address is in the requester's language", async () => {
    const reporter = await createUser('lang-rr');
    const account = `${unique('removal-lang')}@example.com`;
    const filed = await api<{ report: { _id: string } }>('POST', '/reports', {
      token: reporter.token,
      json: reportFields({ reportedAccountType: 'email', reportedAccount: account }),
    });
    expect(filed.status).toBe(201);
    const holder = await createUser('lang-holder');
    await adminPool().query(`update public.profiles set language = 'fil' where id = $1`, [holder.id]);
    const contact = `${unique('lang-contact')}@example.com`;
    const asked = await api('POST', '/removal-requests', {
      token: holder.token,
      json: { reportId: filed.body.report._id, reason: 'Akin ang e-mail na ito.', contactEmail: contact },
    });
    expect(asked.status).toBe(201);
    // The legacy API answers in English whatever the language (docs/behaviour.md §7).
    expect(asked.body.msg).toMatch(/^Removal requested: confirm your contact e-mail/);
    await runJob('notify-dispatch');
    const [mail] = await mailsTo(contact, 1, 20_000);
    expect(mail.Subject).toBe('ScamCheck: kumpirmahin ang hiling mong pag-alis ng report');
    expect(mail.Text).toContain(
      `May humiling sa ScamCheck na alisin ang isang report tungkol sa ${defang(account)}`,
    );
    expect(mail.Text).toMatch(/Kumpirmahin: http\S+\/api\/v1\/removal-requests\/[0-9a-f-]+\/confirm\?token=/);
    expect(mail.HTML).toContain('Kumpirmahin ang hiling kong pag-alis ng report');
    expect(mail.Text).not.toContain('Someone asked');
  });

  it('an English requester gets the English confirmation as before', async () => {
    const reporter = await createUser('lang-rr-en');
    const account = `${unique('removal-en')}@example.com`;
    const filed = await api<{ report: { _id: string } }>('POST', '/reports', {
      token: reporter.token,
      json: reportFields({ reportedAccountType: 'email', reportedAccount: account }),
    });
    const holder = await createUser('lang-holder-en');
    const contact = `${unique('en-contact')}@example.com`;
    await api('POST', '/removal-requests', {
      token: holder.token,
      json: { reportId: filed.body.report._id, reason: 'This is my e-mail.', contactEmail: contact },
    });
    // confirmRemovalByMail finds the mail by its English subject and opens its link.
    expect((await confirmRemovalByMail(contact)).status).toBe(200);
    const [mail] = await mailsTo(contact, 1, 20_000);
    expect(mail.Text).toContain(`Someone asked ScamCheck to remove a report about ${defang(account)}`);
    expect(mail.Text).toContain('Confirm: ');
  });
});

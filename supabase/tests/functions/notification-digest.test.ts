/**
 * Issue 11: every report on a watched identifier e-mailed each watcher (one test user received 566).
 * Past 4 e-mails an hour a user's notifications go out as one digest an hour; the rest wait for the next
 * one. The in-app notifications are all kept.
 */
import { defang } from '../../functions/_shared/inert-text.ts';
import { describe, expect, it } from 'vitest';
import { adminPool, unique } from '../helpers.ts';
import { mailsTo } from '../auth-helpers.ts';
import { api, createUser, runJob } from './helpers.ts';

/** Reports on `site` by accounts that no longer exist (each one notifies the watchers). */
async function reportsOn(site: string, n: number) {
  for (let i = 0; i < n; i++) {
    await adminPool().query(
      `insert into public.reports (incident_date, incident_type, reported_account_type, reported_account)
       values ('2026-01-01', 'scam', 'website', $1)`,
      [`https://${site}/offer-${i}`],
    );
  }
}

describe('notification flood -> digest', () => {
  it('ten reports on a watched site: four e-mails, then one digest naming the other six; later ones wait', async () => {
    const watcher = await createUser('digest');
    const site = `${unique('flooded')}.example`;
    expect((await api('POST', '/notify', { token: watcher.token, json: { assetName: site } })).status).toBe(
      201,
    );
    await reportsOn(site, 10);
    await runJob('notify-dispatch');
    const mails = await mailsTo(watcher.email, 5, 20_000);
    await new Promise((r) => setTimeout(r, 1500));
    const all = await mailsTo(watcher.email, 5);
    expect(all).toHaveLength(5);
    const subjects = all.map((m) => m.Subject).sort();
    expect(
      subjects.filter(
        // Identifiers a reporter typed are link-free in e-mails (issue 27).
        (s) => s.startsWith(`ScamCheck: ${defang(`https://${site}/offer-`)}`) && s.endsWith(' was reported'),
      ),
    ).toHaveLength(4);
    const digest = mails.find((m) => m.Subject === 'ScamCheck: 6 new notifications');
    expect(digest?.Text).toContain(`${defang(site)}, which you watch, was reported.`);
    const { rows } = await adminPool().query(
      `select count(*)::int as n, count(emailed_at)::int as emailed from public.notifications where user_id = $1`,
      [watcher.id],
    );
    expect(rows[0]).toEqual({ n: 10, emailed: 10 });

    // Three more within the hour: no e-mail now; they wait for the next digest.
    await reportsOn(site, 3);
    await runJob('notify-dispatch');
    await new Promise((r) => setTimeout(r, 1500));
    expect(await mailsTo(watcher.email, 5)).toHaveLength(5);
    const { rows: waiting } = await adminPool().query(
      `select count(*)::int as n from public.notifications where user_id = $1 and emailed_at is null and email_deferred_until > now() + interval '50 minutes'`,
      [watcher.id],
    );
    expect(waiting[0].n).toBe(3);
    // An hour later (the digest's hour, moved on here) they go out together in the next digest.
    await adminPool().query(
      `update public.notifications set email_deferred_until = now() - interval '1 second' where user_id = $1 and emailed_at is null`,
      [watcher.id],
    );
    await adminPool().query(
      `update private.rate_limit_buckets set tat = now() - interval '1 second' where name = 'email.digest' and subject = $1`,
      [`user:${watcher.id}`],
    );
    await runJob('notify-dispatch');
    const later = await mailsTo(watcher.email, 6, 20_000);
    expect(later.map((m) => m.Subject)).toContain('ScamCheck: 3 new notifications');
  });
});

/**
 * Issue 31, "numbers": in a browser, an admin decides 50 pending reports about 10 identifiers, with
 * reasons for the rejected ones, in at most 60 keyboard actions (a key or a chord such as Shift+V is
 * one action), and the database shows every decision with its reason and its log row. It also opens
 * the workspace, its detail view, the users screen and the search history and screenshots them into
 * tests/artifacts/: in English at 375 px,
 * light, in CI; with `SCREENSHOTS=1` (as the other screenshot tests) at 375 and 1280 px, light and dark,
 * English and Filipino, to look at.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { adminPool } from '../../supabase/tests/helpers.ts';
import { createUser, type TestUser } from '../../supabase/tests/functions/helpers.ts';
import { appUrl, launchBrowser, newTrackedPage, screenshot } from './helpers.ts';

let browser: Browser;
let admin: TestUser;
let reporters: TestUser[];

/** 10 identifiers, 5 pending reports each from 5 reporters, all sharing a search token of this run. */
async function seed(token: string): Promise<void> {
  await adminPool().query(
    `insert into public.reports (reporter_id, incident_date, incident_type, reported_account_type, reported_account,
                                 incident_description, location, country, amount_lost, created_at)
     select ($2::uuid[])[1 + r], current_date - 2, 'scam', 'email', $1 || 'n' || i || '@example.com',
            'Asked for a deposit, then blocked me (' || i || '/' || r || ')', 'Quezon City', 'PH', 500 * (r + 1),
            now() - interval '2 days' + (i * 5 + r) * interval '1 second'
     from generate_series(0, 9) i, generate_series(0, 4) r`,
    [token, reporters.map((u) => u.id)],
  );
}

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await createUser('kb-admin', { admin: true, name: 'Rosa' });
  reporters = await Promise.all([0, 1, 2, 3, 4].map((i) => createUser(`kb-rep${i}`)));
});
afterAll(async () => {
  await browser?.close();
});

async function logIn(page: Page, button: string) {
  await page.goto(appUrl('/login'));
  await page.getByLabel('Email').fill(admin.email);
  await page.getByLabel('Password').fill(admin.password);
  await page.getByRole('button', { name: button }).click();
  await page.waitForURL(/\/dashboard/, { timeout: 30_000 });
}

describe('review workspace by keyboard', () => {
  it('decides 50 reports about 10 identifiers, rejections with a reason, in at most 60 keyboard actions', async () => {
    const token = `kb${randomBytes(3).toString('hex')}`;
    await seed(token);
    const { page, context, errors } = await newTrackedPage(browser, { width: 1280 });
    try {
      await logIn(page, 'Login');
      await page.goto(appUrl('/dashboard/admin/pending-reports'));
      await page.getByTestId('backlog').waitFor({ timeout: 30_000 });

      let actions = 0;
      const press = async (key: string) => {
        actions += 1;
        await page.keyboard.press(key);
      };
      // Only this run's reports count (other tests file pending reports into the same database): the
      // groups are named by their identifier, which starts with this run's token.
      const ours = page.locator(`li[aria-label^="${token}"] [data-report-id]`);
      const all = page.locator('[data-report-id]');
      const search = page.getByRole('searchbox');
      // Search for this run's identifiers: '/', the token, Escape (leaves the box, keeps the search).
      await press('/');
      await expect.poll(() => search.evaluate((el) => el === document.activeElement)).toBe(true);
      for (const ch of token) await press(ch);
      await press('Escape');
      await expect.poll(() => search.inputValue()).toBe(token);
      await expect.poll(() => search.evaluate((el) => el === document.activeElement)).toBe(false);
      // The queue has answered the search: our 50 reports and nothing else.
      await expect
        .poll(async () => [await ours.count(), await all.count()], { timeout: 30_000 })
        .toEqual([50, 50]);

      const dialog = page.getByRole('dialog');
      for (let group = 0; group < 10; group++) {
        if (group % 2 === 0) {
          await press('Shift+V');
        } else {
          await press('Shift+R');
          // Radix moves the focus into the dialog after it opens; the reason keys go to the dialog.
          await expect
            .poll(() => page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]')))
            .toBe(true);
          await press('1');
          await expect.poll(() => dialog.getByRole('radio', { checked: true }).count()).toBe(1);
          await press('Enter');
          await dialog.waitFor({ state: 'hidden' });
        }
        await expect.poll(() => ours.count(), { timeout: 15_000 }).toBe(50 - 5 * (group + 1));
      }
      expect(actions).toBeLessThanOrEqual(60);
      console.log(`50 reports decided in ${actions} keyboard actions`);

      const decided = async () =>
        (
          await adminPool().query(
            `select r.status::text, r.status_reason, count(*)::int as n,
                    count(l.id) filter (where l.actor_id = $2)::int as logged
             from public.reports r left join public.moderation_log l on l.report_id = r.id and l.undo_of is null
             where r.reported_account_canonical like $1 group by 1, 2 order by 1`,
            [`${token}%`, admin.id],
          )
        ).rows;
      await expect.poll(decided, { timeout: 30_000 }).toEqual([
        { status: 'rejected', status_reason: 'no_evidence', n: 25, logged: 25 },
        { status: 'verified', status_reason: null, n: 25, logged: 25 },
      ]);
      expect(errors.filter((e) => e.startsWith('uncaught'))).toEqual([]);
    } finally {
      await context.close();
    }
  }, 180_000);

  it('shows the workspace, its detail view, the users and the searches screens (screenshots: every width, theme and language with SCREENSHOTS=1)', async () => {
    const shotToken = `kbshot${randomBytes(2).toString('hex')}`;
    await seed(shotToken);
    // A few searches for the search history (the logs keep a location only when the server resolved it).
    await adminPool().query(
      `insert into public.search_log (search_string, identifier_kind, identifier_canonical, result_count, city, region, country)
       values ('0917 555 0142', 'mobile', '+639175550142', 3, 'Cebu City', 'Central Visayas', 'PH'),
              ($1 || '@example.com', 'email', $1 || '@example.com', 0, 'Quezon City', 'Metro Manila', 'PH'),
              ('https://very-long-shop-name-' || $1 || '.example/checkout?ref=abcdefghijklmnopqrstuvwxyz', 'website', null, 0, null, null, null)`,
      [shotToken],
    );
    const all = !!process.env.SCREENSHOTS;
    for (const language of all ? (['en', 'fil'] as const) : (['en'] as const)) {
      await adminPool().query('update public.profiles set language = $2 where id = $1', [admin.id, language]);
      for (const width of all ? [375, 1280] : [375]) {
        for (const dark of all ? [false, true] : [false]) {
          const { page, context } = await newTrackedPage(browser, { width, dark });
          try {
            await context.addInitScript((l) => localStorage.setItem('language', l), language);
            await logIn(page, language === 'fil' ? 'Mag-login' : 'Login');
            await page.goto(appUrl('/dashboard/admin/pending-reports'));
            await page.getByTestId('backlog').waitFor({ timeout: 30_000 });
            await page.locator('[data-report-id]').first().waitFor();
            await page.waitForLoadState('networkidle');
            const shot = `${language}-${width}-${dark ? 'dark' : 'light'}`;
            // The current report took the focus and scrolled into view; a full-page shot of a scrolled
            // page draws the sticky header where the scroll left it.
            await page.evaluate(() => window.scrollTo(0, 0));
            await screenshot(page, `workspace-${shot}`);
            // The detail view of the current report ('e'), with its decisions.
            await page.keyboard.press('e');
            const detail = page.getByRole('dialog');
            await detail.waitFor();
            await page.waitForLoadState('networkidle');
            await screenshot(page, `workspace-detail-${shot}`, { viewport: true });
            await page.keyboard.press('Escape');
            await detail.waitFor({ state: 'detached' });
            await page.goto(appUrl('/dashboard/admin/users'));
            await page.getByTestId('admin-user').first().waitFor({ timeout: 30_000 });
            await screenshot(page, `admin-users-${shot}`);
            await page.goto(appUrl('/dashboard/admin/searches'));
            await page.getByTestId('admin-search').first().waitFor({ timeout: 30_000 });
            await screenshot(page, `admin-searches-${shot}`);
          } finally {
            await context.close();
          }
        }
      }
    }
  }, 600_000);
});

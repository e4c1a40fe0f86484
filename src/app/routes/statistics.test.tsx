import { i18n } from '@/i18n';
import type { PublicStatistics } from '@/features/public-stats/api/get-public-statistics';
import { fakeSupabase, json, type FakeRequest } from '@/testing/fake-supabase';
import { renderApp, screen, within } from '@/testing/test-utils';
import { Component as Statistics } from './statistics';

// deck.gl needs WebGL, which jsdom lacks; the table beside the map carries the same figures.
vi.mock('@/features/public-stats/components/regions-map', () => ({ RegionsMap: () => null }));

afterEach(() => vi.restoreAllMocks());

const month = (period: string, total: number) => ({
  period,
  total,
  by_incident_type: { scam: total, hacked: 0, spam: 0 },
  by_account_type: { mobile: total, email: 0, ewallet: 0, crypto: 0, website: 0, social: 0 },
  by_status: { verified: 1, pending: total - 1 },
});

const stats: PublicStatistics = {
  period: 'last_12_months',
  from: '2025-12-01',
  to: '2026-11-23',
  generated_at: '2026-11-23T10:00:00Z',
  small_count_threshold: 5,
  totals: { reports: 1234, verified: 617, pending: 617, amount_lost: 2_500_000, amount_fewer_than_5: false },
  weekly: [],
  monthly: [month('2026-10-01', 4), month('2026-11-01', 1230)],
  amounts: [
    { month: '2026-10-01', total: 1000, median: null, reports_with_amount: 2, fewer_than_5: true },
    { month: '2026-11-01', total: 2_499_000, median: 5000, reports_with_amount: 40, fewer_than_5: false },
  ],
  regions: [
    { code: 'NCR', name: 'National Capital Region', lat: 14.6, lng: 121, count: 1200, fewer_than_5: false },
    {
      code: 'CAR',
      name: 'Cordillera Administrative Region',
      lat: 17,
      lng: 121,
      count: null,
      fewer_than_5: true,
    },
  ],
  top_identifiers: [
    {
      rank: 1,
      identifier: '0917***4567',
      masked: true,
      search: null,
      ref: '00000000-0000-4000-8000-000000000001',
      reported_account_type: 'mobile',
      verified_reports: 12,
    },
  ],
  top_identifiers_refreshed_at: null,
};

function fakeStatistics() {
  return fakeSupabase((req: FakeRequest) => {
    if (req.path === '/rest/v1/rpc/public_statistics') return json(stats);
    if (req.path === '/rest/v1/rpc/moderation_statistics') return json(moderation);
  });
}

const moderationPeriod = {
  decisions: 40,
  verified: 30,
  rejected: 10,
  removed: null,
  median_hours: 20,
  p90_hours: 70,
};
const moderation = {
  generated_at: '2026-11-23T00:00:00Z',
  small_count_threshold: 5,
  time_unit: 'hours',
  last_30_days: moderationPeriod,
  all_time: { ...moderationPeriod, decisions: 200, verified: 150, rejected: 45, removed: 5 },
  removal_requests: { received: 12, open: null, kept: 7, hidden: null, removed: 5 },
  backlog: { pending: 617, oldest_filed_at: '2026-11-01T00:00:00Z' },
};

vi.setConfig({ testTimeout: 30_000 });

describe('/statistics', () => {
  it('shows the figures, the chart summaries and their tables in English', async () => {
    fakeStatistics();
    renderApp(<Statistics />, { url: '/statistics' });
    expect(screen.getByRole('heading', { level: 1, name: 'Scam statistics' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Last 12 months' })).toBeChecked();
    expect(await screen.findByText('Dec 1, 2025 to Nov 23, 2026 (UTC).')).toBeInTheDocument();
    const totals = screen.getByTestId('stats-totals');
    expect(within(totals).getByText('Reports').nextSibling).toHaveTextContent('1,234');
    expect(within(totals).getByText('Reported lost').nextSibling).toHaveAttribute('title', '₱2,500,000.00');
    expect(screen.getByText(/of 1,234 reports\./).textContent).toBe(
      '50% verified (617), 50% pending review (617) of 1,234 reports.',
    );
    // The charts are a lazy chunk (recharts): the first import takes a while on a busy machine.
    expect(
      await screen.findByText(
        '1,234 reports over 2 months; the most in Nov 2026 (1,230).',
        {},
        { timeout: 15_000 },
      ),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('img', { name: /^Bar chart of reports per month, by scam type\./ }),
    ).toBeInTheDocument();
    expect(
      await screen.findByText(/^₱2,500,000\.00 reported lost over 2 months\. The median/),
    ).toBeInTheDocument();
    expect(screen.getAllByText('Show the figures as a table')).toHaveLength(2);
    const amounts = screen.getByRole('region', { name: 'Amount reported lost per month' });
    expect(within(amounts).getByText('fewer than 5 amounts')).toBeInTheDocument();
    const regions = screen.getByRole('region', { name: 'Reports per region' });
    expect(within(regions).getByText('fewer than 5')).toBeInTheDocument();
    expect(within(regions).getByText('1,200')).toBeInTheDocument();
    expect(
      screen.getByRole('link', { name: 'Partly hidden Mobile No. 0917***4567: search its reports' }),
    ).toHaveAttribute('href', '/statistics/top/00000000-0000-4000-8000-000000000001');
    expect(screen.getByRole('link', { name: 'reports-daily.csv' })).toBeInTheDocument();

    // Issue 31: the moderation figures, small counts withheld.
    const last30 = await screen.findByRole('region', { name: 'Last 30 days' });
    expect(within(last30).getByText('Median time to decision').nextSibling).toHaveTextContent('20 hours');
    expect(within(last30).getByText('9 in 10 decided within').nextSibling).toHaveTextContent('3 days');
    expect(within(last30).getByText('Verified').nextSibling).toHaveTextContent('75%');
    expect(within(last30).getByText('Removed').nextSibling).toHaveTextContent('fewer than 5');
    const removals = screen.getByRole('region', { name: 'Removal requests' });
    expect(within(removals).getByText('Report kept').nextSibling).toHaveTextContent('7');
    expect(screen.getByTestId('moderation-backlog')).toHaveTextContent('617');
  });

  it('reads in Filipino, with dates and numbers for fil-PH', async () => {
    await i18n.changeLanguage('fil');
    fakeStatistics();
    renderApp(<Statistics />, { url: '/statistics' });
    expect(screen.getByRole('heading', { level: 1, name: 'Estadistika ng scam' })).toBeInTheDocument();
    expect(screen.getByRole('radiogroup', { name: 'Saklaw ng petsa' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Nakaraang 12 buwan' })).toBeChecked();
    expect(await screen.findByText('Dis 1, 2025 hanggang Nob 23, 2026 (UTC).')).toBeInTheDocument();
    const totals = screen.getByTestId('stats-totals');
    expect(within(totals).getByText('Mga report').nextSibling).toHaveTextContent('1,234');
    expect(within(totals).getByText('Iniulat na nawala')).toBeInTheDocument();
    expect(screen.getByText(/sa 1,234 report\./).textContent).toBe(
      '50% beripikado (617), 50% naghihintay ng pagsusuri (617) sa 1,234 report.',
    );
    expect(
      await screen.findByText('1,234 report sa loob ng 2 buwan; pinakamarami noong Nob 2026 (1,230).'),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('img', { name: /^Bar chart ng mga report kada buwan, ayon sa uri ng scam\./ }),
    ).toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'Hatiin ayon sa' })).toBeInTheDocument();
    expect(screen.getAllByText('Ipakita ang mga bilang sa isang talaan')).toHaveLength(2);
    const amounts = screen.getByRole('region', { name: 'Halagang iniulat na nawala kada buwan' });
    expect(within(amounts).getByText('wala pang 5 halaga')).toBeInTheDocument();
    expect(within(amounts).getByRole('columnheader', { name: 'Median kada report' })).toBeInTheDocument();
    const regions = screen.getByRole('region', { name: 'Mga report kada rehiyon' });
    expect(within(regions).getByText('wala pang 5')).toBeInTheDocument();
    expect(
      screen.getByRole('link', {
        name: 'Bahagyang nakatagong Mobile No. 0917***4567: hanapin ang mga report nito',
      }),
    ).toBeInTheDocument();
    expect(screen.getByText(/^Lisensya: Creative Commons/)).toBeInTheDocument();
  });
});

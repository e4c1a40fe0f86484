import { Route, Routes } from 'react-router-dom';
import userEvent from '@testing-library/user-event';
import { PublicLayout } from '@/components/layouts/public-layout';
import { fakeSupabase, json } from '@/testing/fake-supabase';
import { renderApp, screen } from '@/testing/test-utils';
import { formatAmount, formatCountry, formatDate } from '@/lib/format';
import { Component as Home } from '@/app/routes/home';
import type { SearchResult } from '@/features/search/api/search-reports';
import { SearchResults } from '@/features/search/components/search-results';
import { i18n, LANGUAGE_STORAGE_KEY, toLanguage } from '.';
import '@/lib/supabase';

beforeEach(() => {
  localStorage.clear();
  fakeSupabase((req) => (req.path === '/rest/v1/news' ? json([]) : undefined));
});
afterEach(() => {
  localStorage.clear();
  vi.restoreAllMocks();
});

function HomeInLayout() {
  return (
    <Routes>
      <Route element={<PublicLayout />}>
        <Route index element={<Home />} />
      </Route>
    </Routes>
  );
}

const result: SearchResult = {
  count: 2,
  reports: [
    {
      reported_date: '2026-11-02',
      incident_date: '2026-10-30',
      incident_type: 'hacked',
      reported_account_type: 'ewallet',
      location: 'Quezon City',
      status: 'verified',
    },
  ],
  summary: {
    count: 2,
    last_victim_country: 'PH',
    risk_level: 63,
    risk_label: 'high',
    estimated_amount_lost: 20000,
    verified_count: 2,
    pending_count: 0,
    risk_basis: 'verified',
    risk_note: null,
  },
  points: [],
};

describe('language', () => {
  it('maps browser languages: Filipino and Tagalog read Filipino, anything else English', () => {
    expect(toLanguage('fil-PH')).toBe('fil');
    expect(toLanguage('fil')).toBe('fil');
    expect(toLanguage('tl')).toBe('fil');
    expect(toLanguage('tl-PH')).toBe('fil');
    expect(toLanguage('en-US')).toBe('en');
    expect(toLanguage('ja')).toBe('en');
    expect(toLanguage(undefined)).toBe('en');
  });

  it('the header switch turns the page to Filipino, sets <html lang> and remembers the choice; the URL stays', async () => {
    const user = userEvent.setup();
    const { router } = renderApp(<HomeInLayout />, { url: '/', path: '/*' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Is it a Scam?' })).toBeInTheDocument();
    expect(document.documentElement.lang).toBe('en');

    await user.click(screen.getByRole('button', { name: 'Switch to Filipino' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Scam ba ito?' })).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'Mag-report ng Scam' }).length).toBeGreaterThan(0);
    expect(screen.getByRole('button', { name: 'Hanapin' })).toBeInTheDocument();
    expect(document.documentElement.lang).toBe('fil');
    expect(localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('fil');
    expect(router.state.location.pathname).toBe('/');

    await user.click(screen.getByRole('button', { name: 'Lumipat sa English' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Is it a Scam?' })).toBeInTheDocument();
    expect(localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('en');
  });

  it('search results read in both languages, with plurals, pesos, dates and country names for the Philippines', async () => {
    renderApp(
      <SearchResults searchString="09171234567" result={result} signedIn={false} fullReportHref="/x" />,
    );
    expect(screen.getByRole('heading', { level: 2, name: /^Reported 2 times/ })).toBeInTheDocument();
    expect(screen.getByText('63% (high)')).toBeInTheDocument();
    expect(screen.getByText('₱20,000.00')).toBeInTheDocument();
    expect(screen.getAllByText('Nov 2, 2026')[0]).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'What happened' })).toBeInTheDocument();

    await i18n.changeLanguage('fil');

    expect(
      await screen.findByRole('heading', { level: 2, name: /^Naiulat nang 2 beses/ }),
    ).toBeInTheDocument();
    expect(screen.getByText('63% (mataas)')).toBeInTheDocument();
    expect(screen.getAllByText('Nob 2, 2026')[0]).toBeInTheDocument();
    expect(screen.getByText('Pilipinas')).toBeInTheDocument();
    expect(screen.getAllByText('Na-hack')[0]).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Ano ang nangyari' })).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'Mag-login' })[0]).toHaveAttribute(
      'href',
      '/login?redirectTo=%2Fx',
    );
  });

  it('formats for en-PH and fil-PH', async () => {
    expect(formatDate('2026-11-02')).toBe('Nov 2, 2026');
    expect(formatCountry('PH')).toBe('Philippines');
    await i18n.changeLanguage('fil');
    expect(formatDate('2026-11-02')).toBe('Nob 2, 2026');
    expect(formatAmount(1234.5)).toBe('₱1,234.50');
    expect(formatCountry('PH')).toBe('Pilipinas');
    expect(formatCountry(null)).toBe('Hindi alam');
  });
});

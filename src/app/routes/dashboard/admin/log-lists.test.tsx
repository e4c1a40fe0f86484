import userEvent from '@testing-library/user-event';
import { i18n } from '@/i18n';
import { fakeSupabase, json, type FakeRequest } from '@/testing/fake-supabase';
import { fireEvent, renderApp, screen, waitFor } from '@/testing/test-utils';
import type { SearchLogRow, VisitorLogRow } from '@/features/admin/api/logs';
import { Component as Searches } from './searches';
import { Component as Visitors } from './visitors';

vi.setConfig({ testTimeout: 40_000 });
afterEach(async () => {
  vi.restoreAllMocks();
  await i18n.changeLanguage('en');
});

const search = (n: number, over: Partial<SearchLogRow> = {}): SearchLogRow => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  search_string: `0917 555 ${String(n).padStart(4, '0')}`,
  identifier_kind: 'mobile',
  result_count: 2,
  city: 'Cebu City',
  region: 'Central Visayas',
  country: 'PH',
  signed_in: false,
  created_at: new Date(Date.UTC(2026, 10, 28, 8, 0, 0) - n * 60_000).toISOString(),
  ...over,
});

function fakeLogs(searches: SearchLogRow[], visits: VisitorLogRow[] = []) {
  return fakeSupabase((req: FakeRequest) => {
    if (req.path === '/rest/v1/rpc/admin_search_log') {
      const before = (req.body as { before_id?: string } | undefined)?.before_id;
      return json(before ? searches.slice(50) : searches.slice(0, 50));
    }
    if (req.path === '/rest/v1/rpc/admin_visitor_log') return json(visits);
  });
}

describe('admin search history', () => {
  it('lists searches; search and filters reach the database; more pages by keyset', async () => {
    const rows = [
      search(1, {
        search_string: 'scam@example.com',
        identifier_kind: 'email',
        result_count: 0,
        signed_in: true,
      }),
      ...Array.from({ length: 51 }, (_, i) => search(i + 2)),
    ];
    const api = fakeLogs(rows);
    renderApp(<Searches />, { url: '/dashboard/admin/searches' });
    const items = await screen.findAllByTestId('admin-search', {}, { timeout: 8000 });
    expect(items).toHaveLength(50);
    expect(items[0]).toHaveTextContent('scam@example.com');
    expect(items[0]).toHaveTextContent('0 results');
    expect(items[0]).toHaveTextContent('Cebu City, Central Visayas, Philippines');
    expect(items[0]).toHaveTextContent('signed in');
    expect(items[1]).toHaveTextContent('2 results');
    expect(items[1]).toHaveTextContent('not signed in');

    // Show more: the next page starts after the last row shown.
    await userEvent.click(screen.getByRole('button', { name: 'Show more' }));
    await waitFor(() => expect(screen.getAllByTestId('admin-search')).toHaveLength(52));
    expect(api.sent('POST', '/rest/v1/rpc/admin_search_log').at(-1)?.body).toMatchObject({
      before_created_at: rows[49].created_at,
      before_id: rows[49].id,
    });
    expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull();

    fireEvent.change(screen.getByLabelText('Searched text or identifier'), { target: { value: '0917' } });
    await userEvent.selectOptions(screen.getByLabelText('Kind'), 'mobile');
    await userEvent.selectOptions(screen.getByLabelText('Results'), 'none');
    fireEvent.change(screen.getByLabelText('Country code (e.g. PH)'), { target: { value: 'p1h' } });
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-11-01' } });
    await waitFor(() =>
      expect(api.sent('POST', '/rest/v1/rpc/admin_search_log').at(-1)?.body).toMatchObject({
        search: '0917',
        kind: 'mobile',
        no_results: true,
        country_code: 'ph',
        since: new Date(2026, 10, 1).toISOString(),
        max_rows: 50,
      }),
    );
    expect(api.sent('POST', '/rest/v1/rpc/admin_search_log').at(-1)?.body).not.toHaveProperty('until');
    await userEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(screen.getByLabelText('Searched text or identifier')).toHaveValue('');
    expect(screen.getByLabelText('Results')).toHaveValue('');
    expect(screen.getByRole('button', { name: 'Clear filters' })).toBeDisabled();
  });

  it('says when nothing matches, and reads in Filipino', async () => {
    await i18n.changeLanguage('fil');
    fakeLogs([search(1, { result_count: 1 })]);
    renderApp(<Searches />, { url: '/dashboard/admin/searches' });
    const [item] = await screen.findAllByTestId('admin-search', {}, { timeout: 8000 });
    expect(item).toHaveTextContent('1 resulta');
    expect(item).toHaveTextContent('hindi naka-log in');
    expect(screen.getByLabelText('Hinanap na teksto o identifier')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Ipakita pa' })).toBeNull();
  });
});

describe('admin visitors', () => {
  it('lists visits and sends the filters; an empty answer under a filter says no visit matches', async () => {
    const api = fakeLogs(
      [],
      [
        {
          id: '00000000-0000-4000-8000-000000000001',
          path: '/search?q=0917',
          city: 'Iloilo City',
          region: 'Western Visayas',
          country: 'PH',
          signed_in: false,
          created_at: '2026-11-28T08:00:00Z',
        },
      ],
    );
    renderApp(<Visitors />, { url: '/dashboard/admin/visitors' });
    const [visit] = await screen.findAllByTestId('admin-visit', {}, { timeout: 8000 });
    expect(visit).toHaveTextContent('/search?q=0917');
    expect(visit).toHaveTextContent('Iloilo City, Western Visayas');
    fireEvent.change(screen.getByLabelText('Page (part of the address)'), { target: { value: '/search' } });
    fireEvent.change(screen.getByLabelText('City or region'), { target: { value: 'visayas' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-11-28' } });
    await waitFor(() =>
      expect(api.sent('POST', '/rest/v1/rpc/admin_visitor_log').at(-1)?.body).toMatchObject({
        search: '/search',
        place: 'visayas',
        until: new Date(2026, 10, 29).toISOString(),
      }),
    );
  });

  it('reads in Filipino, with its own empty text under a filter', async () => {
    await i18n.changeLanguage('fil');
    fakeLogs([], []);
    renderApp(<Visitors />, { url: '/dashboard/admin/visitors' });
    expect(
      await screen.findByText('Wala pang naitalang pagbisita.', {}, { timeout: 8000 }),
    ).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Lungsod o rehiyon'), 'cebu');
    expect(await screen.findByText('Walang pagbisitang tugma sa mga salang ito.')).toBeInTheDocument();
  });
});

import userEvent from '@testing-library/user-event';
import { i18n } from '@/i18n';
import { fakeSupabase, json, type FakeRequest } from '@/testing/fake-supabase';
import { renderApp, screen, within } from '@/testing/test-utils';
import type { AdminReportRow } from './report-rows';
import { Component as PendingReports } from './pending-reports';

afterEach(() => vi.restoreAllMocks());

const row: AdminReportRow = {
  id: '00000000-0000-4000-8000-000000000001',
  incident_type: 'scam',
  reported_account_type: 'mobile',
  reported_account: '09171234567',
  incident_description: null,
  location: 'Quezon City',
  country: 'PH',
  status: 'pending',
  amount_lost: 2500,
  evidence_path: 'u/evidence.png',
  created_at: '2026-11-20T08:00:00Z',
};

/** public.reports (pending only) and set_report_status, as the admin's PostgREST answers them. */
function fakeModeration() {
  return fakeSupabase((req: FakeRequest) => {
    if (req.path === '/rest/v1/reports' && req.method === 'GET') {
      return json([row], { headers: { 'content-range': '0-0/1' } });
    }
    if (req.path === '/rest/v1/rpc/set_report_status') return json(null);
  });
}

describe('admin Pending Reports', () => {
  it('lists a pending report and verifies it, in English', async () => {
    const api = fakeModeration();
    renderApp(<PendingReports />, { url: '/dashboard/admin/pending-reports' });
    expect(screen.getByRole('heading', { name: 'Pending Reports' })).toBeInTheDocument();
    const cells = await screen.findByText(/Scam · Mobile No\.:/);
    const report = cells.closest('tr') as HTMLElement;
    expect(within(report).getByText('No description')).toBeInTheDocument();
    expect(within(report).getByText(/Quezon City · lost ₱2,500\.00 · has evidence/)).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Filed' })).toBeInTheDocument();
    expect(screen.getByTestId('list-total')).toHaveTextContent('1 in total · page 1 of 1');

    await userEvent.click(within(report).getByRole('button', { name: 'Verify report about 09171234567' }));
    expect(await screen.findByText('Report verified')).toBeInTheDocument();
    expect(api.sent('POST', '/rest/v1/rpc/set_report_status')[0].body).toEqual({
      report_id: row.id,
      status: 'verified',
    });
  });

  it('reads in Filipino: headings, columns, row details, buttons and the toast', async () => {
    await i18n.changeLanguage('fil');
    const api = fakeModeration();
    renderApp(<PendingReports />, { url: '/dashboard/admin/pending-reports' });
    expect(screen.getByRole('heading', { name: 'Mga report na naghihintay' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Admin' })).toHaveAttribute('href', '/dashboard/admin');
    const report = (await screen.findByText('Walang paglalarawan')).closest('tr') as HTMLElement;
    expect(
      within(report).getByText(/Quezon City · nawalan ng ₱2,500\.00 · may ebidensya/),
    ).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Isinumite' })).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Aksyon' })).toBeInTheDocument();
    expect(screen.getByTestId('list-total')).toHaveTextContent('1 lahat · pahina 1 sa 1');
    expect(screen.getByRole('button', { name: 'Susunod' })).toBeDisabled();

    await userEvent.click(
      within(report).getByRole('button', { name: 'Tanggihan ang report tungkol sa 09171234567' }),
    );
    expect(await screen.findByText('Tinanggihan ang report')).toBeInTheDocument();
    expect(api.sent('POST', '/rest/v1/rpc/set_report_status')[0].body).toMatchObject({ status: 'rejected' });
  });
});

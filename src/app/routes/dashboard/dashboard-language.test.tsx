import { Route, Routes } from 'react-router-dom';
import userEvent from '@testing-library/user-event';
import { DashboardLayout } from '@/components/layouts/dashboard-layout';
import type { Language } from '@/i18n';
import { fakeSupabase, json, type FakeRequest } from '@/testing/fake-supabase';
import { storeSession } from '@/testing/session';
import { renderApp, screen, waitFor, within } from '@/testing/test-utils';
import type { AppNotification } from '@/features/notify/api/notifications';
import type { NotifyRegistration } from '@/features/notify/api/registrations';
import type { ReportRow } from '@/features/reports/api/types';
import type { UserStats } from '@/features/stats/api/get-user-stats';
import { Component as AddReport } from './add-report';
import { Component as AllReports } from './all-reports';
import { Component as NotifyMe } from './notify-me';
import { Component as Stats } from './stats';

// jsdom has no ResizeObserver; Radix radio buttons and the chart measure themselves with it.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

// Typing through user-event is slow on a busy 2-core machine.
vi.setConfig({ testTimeout: 20_000 });

/** The first screen waits for the profile and, for Filipino, its catalogue chunk (slow on a busy machine). */
const LOADED = { timeout: 8000 };

beforeEach(() => localStorage.clear());
afterEach(() => {
  localStorage.clear();
  vi.restoreAllMocks();
});

const USER_ID = '5b0a4f1e-2c6d-4e8f-9a1b-3c5d7e9f1a2b';

const report: ReportRow = {
  id: '00000000-0000-4000-8000-000000000001',
  reporter_id: USER_ID,
  incident_date: '2026-11-18',
  incident_type: 'hacked',
  reported_account_type: 'mobile',
  reported_account: '09171234567',
  consent_to_contact: true,
  evidence_path: null,
  incident_description: 'They asked for my OTP.',
  location: 'Quezon City',
  report_date: '2026-11-20',
  country: 'PH',
  status: 'pending',
  amount_lost: 2500,
  created_at: '2026-11-20T08:00:00Z',
  reported_case_count: 2,
};

const registration: NotifyRegistration = {
  id: '00000000-0000-4000-8000-0000000000a1',
  asset_name: '0917 555 0142',
  identifier_kind: 'mobile',
  identifier_canonical: '09175550142',
  created_at: '2026-11-18T08:00:00Z',
};

const notification: AppNotification = {
  id: '00000000-0000-4000-8000-0000000000b1',
  kind: 'identifier_reported',
  report_id: null,
  identifier: '09175550142',
  read_at: null,
  created_at: '2026-11-21T08:00:00Z',
};

const stats: UserStats = {
  defaultStats: { scam: 1234, hacked: 2, spam: 0 },
  monthlyApplications: [
    { date: '2026-10', count: 1 },
    { date: '2026-11', count: 2 },
  ],
};

/**
 * The signed-in user's PostgREST, Auth-free: their profile says which language they chose (the app
 * takes it up on sign-in, as for a real user), and each dashboard table answers with one row.
 */
function signedInAs(language: Language, { reports = [report] }: { reports?: ReportRow[] } = {}) {
  storeSession({ id: USER_ID, name: 'Maria Clara' });
  return fakeSupabase((req: FakeRequest) => {
    switch (req.path) {
      case '/rest/v1/profiles':
        return json([{ name: 'Maria Clara', email: 'maria@example.com', avatar_path: null, language }]);
      case '/rest/v1/user_roles':
        return json([]);
      case '/rest/v1/report_cards':
        return json(reports);
      case '/rest/v1/notify_registrations':
        return json([registration]);
      case '/rest/v1/notifications':
        if (req.method === 'HEAD')
          return new Response(null, { status: 200, headers: { 'content-range': '*/1' } });
        return json([notification]);
      case '/rest/v1/rpc/user_report_stats':
        return json(stats);
      case '/rest/v1/rpc/my_report_removal_requests':
        return json([]);
      case '/functions/v1/visitor':
        return json({ location: null });
    }
  });
}

/** A dashboard page inside the real shell (sidebar, top bar), as the router mounts it. */
function inShell(path: string, page: React.ReactElement) {
  return renderApp(
    <Routes>
      <Route element={<DashboardLayout />}>
        <Route path={path} element={page} />
      </Route>
    </Routes>,
    { url: path, path: '/*' },
  );
}

describe('the dashboard in Filipino and English', () => {
  it('report form: labels, the submit button and validation errors in Filipino', async () => {
    signedInAs('fil');
    const user = userEvent.setup({ delay: null });
    renderApp(<AddReport />, { url: '/dashboard' });

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Mag-report ng scam' }, LOADED),
    ).toBeInTheDocument();
    expect(screen.getByText('Naipaalam mo na ba sa mga awtoridad?')).toBeInTheDocument();
    expect(screen.getByLabelText('oo')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Tingnan ang aking mga report' })).toHaveAttribute(
      'href',
      '/dashboard/all-reports',
    );

    await user.click(screen.getByRole('button', { name: 'isumite' }));
    expect(await screen.findByText('Ilagay ang account na ire-report mo')).toBeInTheDocument();
    expect(screen.getByText('Ilarawan kung ano ang nangyari')).toBeInTheDocument();

    await user.type(screen.getByLabelText('Account na ire-report'), 'hindi number');
    expect(
      await screen.findByText('Maglagay ng tamang mobile number, hal. 0917 123 4567'),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Halagang nawala, sa piso (opsyonal)')).toHaveAttribute(
      'placeholder',
      'hal. 1500',
    );
  });

  it('report form in English keeps its words', async () => {
    signedInAs('en');
    const user = userEvent.setup({ delay: null });
    renderApp(<AddReport />, { url: '/dashboard' });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Report a scam' }, LOADED),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'See my reports' })).toHaveAttribute(
      'href',
      '/dashboard/all-reports',
    );
    await user.click(screen.getByRole('button', { name: 'submit' }));
    expect(await screen.findByText('Enter the account you are reporting')).toBeInTheDocument();
    expect(screen.getByText('Describe what happened')).toBeInTheDocument();
    expect(screen.getByLabelText('Amount lost in pesos (optional)')).toBeInTheDocument();
  });

  it('My Reports in Filipino, inside the dashboard shell: cards, plurals, dates, the delete dialog', async () => {
    signedInAs('fil');
    const user = userEvent.setup({ delay: null });
    inShell('/dashboard/all-reports', <AllReports />);

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Aking mga Report' }, LOADED),
    ).toBeInTheDocument();
    const sidebar = screen.getByRole('navigation', { name: 'Dashboard' });
    expect(within(sidebar).getByRole('link', { name: 'Magdagdag ng Report' })).toBeInTheDocument();
    expect(within(sidebar).getByRole('link', { name: 'Istatistika' })).toBeInTheDocument();
    expect(within(sidebar).getByRole('link', { name: /^Abisuhan Ako/ })).toBeInTheDocument();
    expect(await screen.findByTestId('greeting')).toHaveTextContent('Kumusta, Maria');

    const card = await screen.findByTestId('report-card');
    expect(within(card).getByText('Ini-report noong Nob 20, 2026')).toBeInTheDocument();
    expect(within(card).getByTestId('reported-case-count')).toHaveTextContent('2 na-report na kaso');
    expect(within(card).getByText('hindi pa nasusuri')).toBeInTheDocument();
    expect(within(card).getByText('Na-hack')).toBeInTheDocument();
    expect(
      within(card).getByRole('link', { name: 'I-edit ang report tungkol sa 09171234567' }),
    ).toHaveAttribute('href', `/dashboard/edit-report/${report.id}`);

    await user.click(within(card).getByRole('button', { name: 'Burahin ang report tungkol sa 09171234567' }));
    const dialog = await screen.findByRole('dialog', { name: 'Burahin ang report na ito?' });
    expect(dialog).toHaveTextContent(
      'Tuluyan nang mabubura ang report tungkol sa 09171234567 at ang ebidensya nito.',
    );
    expect(within(dialog).getByRole('button', { name: 'Huwag burahin' })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Burahin ang report' })).toBeInTheDocument();
  });

  it('My Reports in English: the same card and its plural', async () => {
    signedInAs('en', { reports: [{ ...report, reported_case_count: 1 }] });
    inShell('/dashboard/all-reports', <AllReports />);
    expect(await screen.findByRole('heading', { level: 1, name: 'My Reports' }, LOADED)).toBeInTheDocument();
    const card = await screen.findByTestId('report-card');
    expect(within(card).getByText('Reported Nov 20, 2026')).toBeInTheDocument();
    expect(within(card).getByTestId('reported-case-count')).toHaveTextContent('1 reported case');
    expect(within(card).getByText('not yet reviewed')).toBeInTheDocument();
    expect(screen.getByTestId('greeting')).toHaveTextContent('Hello, Maria');
  });

  it('My Reports without reports says so in Filipino', async () => {
    signedInAs('fil', { reports: [] });
    renderApp(<AllReports />, { url: '/dashboard/all-reports' });
    expect(await screen.findByRole('heading', { name: 'Wala Pang Report' })).toBeInTheDocument();
    expect(screen.getByText('Dito lalabas ang mga report na isusumite mo.')).toBeInTheDocument();
  });

  it('Notify Me in Filipino: the lists, the notification, and a bad identifier named in the error', async () => {
    signedInAs('fil');
    const user = userEvent.setup({ delay: null });
    renderApp(<NotifyMe />, { url: '/dashboard/notify-me' });

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Abisuhan Ako' }, LOADED),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Magdagdag ng babantayan' })).toBeInTheDocument();
    expect(await screen.findByText('Mobile No. · mula Nob 18, 2026')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Alisin ang 09175550142' })).toBeInTheDocument();
    const list = await screen.findByRole('list', { name: 'Mga abiso' });
    expect(list).toHaveTextContent('May nag-report ng 09175550142, na ipinabantay mo sa amin.');
    expect(within(list).getByRole('link', { name: 'Tingnan ang mga report' })).toBeInTheDocument();
    expect(screen.getByTestId('unread-count')).toHaveTextContent('1 hindi pa nababasa');

    await user.type(
      screen.getByLabelText('Ang iyong mga e-mail, mobile number, website o crypto wallet'),
      'ang pusa ko',
    );
    await user.click(screen.getByRole('button', { name: 'isumite' }));
    expect(
      await screen.findByText(
        'Ang "ang pusa ko" ay hindi e-mail, mobile number, website o crypto wallet address',
      ),
    ).toBeInTheDocument();
  });

  it('Notify Me in English keeps its words', async () => {
    signedInAs('en');
    renderApp(<NotifyMe />, { url: '/dashboard/notify-me' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Notify Me' }, LOADED)).toBeInTheDocument();
    expect(await screen.findByText('Mobile No. · since Nov 18, 2026')).toBeInTheDocument();
    expect(await screen.findByRole('list', { name: 'Notifications' })).toHaveTextContent(
      'Someone reported 09175550142, which you asked us to watch.',
    );
    expect(screen.getByTestId('unread-count')).toHaveTextContent('1 unread');
  });

  it('Stats in Filipino: cards with grouped counts, the chart and its toggle', async () => {
    signedInAs('fil');
    const user = userEvent.setup({ delay: null });
    renderApp(<Stats />, { url: '/dashboard/stats' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Istatistika' }, LOADED)).toBeInTheDocument();
    expect(await screen.findByTestId('stat-scam')).toHaveTextContent('1,234');
    expect(screen.getByRole('heading', { name: 'Report ng scam' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Report ng pag-hack' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Report bawat buwan' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Area Chart' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Bar Chart' })).toBeInTheDocument());
  });

  it('Stats in English keeps its words', async () => {
    signedInAs('en');
    renderApp(<Stats />, { url: '/dashboard/stats' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Stats' }, LOADED)).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Scam reports' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Monthly reports' })).toBeInTheDocument();
  });
});

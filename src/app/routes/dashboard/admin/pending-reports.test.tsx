import userEvent from '@testing-library/user-event';
import { i18n } from '@/i18n';
import { fakeSupabase, json, type FakeRequest } from '@/testing/fake-supabase';
import { renderApp, screen, within } from '@/testing/test-utils';
import { Component as PendingReports } from './pending-reports';

afterEach(() => vi.restoreAllMocks());

const report = (id: string, account: string) => ({
  id,
  created_at: '2026-11-20T08:00:00Z',
  incident_date: '2026-11-19',
  incident_type: 'scam',
  reported_account_type: 'mobile',
  reported_account: account,
  incident_description: null,
  amount_lost: 2500,
  location: 'Quezon City',
  country: 'PH',
  evidence_path: null,
  source: null,
  reporter: {
    id: 'u1',
    account_created_at: new Date().toISOString(),
    banned: false,
    filed: 4,
    verified: 1,
    rejected: 3,
    removed: 0,
    pending: 0,
  },
  signal: { young_account: true, shared_network_reporters: 2 },
});

const queue = {
  backlog: 3,
  groups: [
    {
      identifier: '+639171234567',
      oldest: '2026-11-20T08:00:00Z',
      report_count: 3,
      verified_count: 1,
      reports: [
        report('00000000-0000-4000-8000-000000000001', '09171234567'),
        report('00000000-0000-4000-8000-000000000002', '0917 123 4567'),
      ],
      verified: [
        {
          id: 'v1',
          created_at: '2026-10-01T00:00:00Z',
          incident_type: 'scam',
          incident_description: 'Fake seller',
        },
      ],
    },
    {
      identifier: '+639180000000',
      oldest: '2026-11-21T08:00:00Z',
      report_count: 1,
      verified_count: 0,
      reports: [report('00000000-0000-4000-8000-000000000003', '09180000000')],
      verified: [],
    },
  ],
};

function fakeModeration() {
  return fakeSupabase((req: FakeRequest) => {
    if (req.path === '/rest/v1/rpc/admin_review_queue') return json(queue);
    if (req.path === '/rest/v1/rpc/admin_moderation_log') return json([]);
    if (req.path === '/rest/v1/rpc/moderate_reports') {
      const ids = (req.body as { report_ids: string[] }).report_ids;
      return json(
        ids.map((id, i) => ({
          id: i + 1,
          report_id: id,
          identifier: 'x',
          from_status: 'pending',
          to_status: 'verified',
          reason: null,
        })),
      );
    }
    if (req.path === '/rest/v1/rpc/undo_moderation') return json({});
    if (req.path === '/rest/v1/rpc/admin_removal_queue') return json(removals);
    if (req.path === '/rest/v1/rpc/admin_removal_decisions') return json([]);
    if (req.path === '/rest/v1/rpc/decide_removal_request') return json({});
  });
}

const removals = [
  {
    request_id: '00000000-0000-4000-8000-0000000000aa',
    report_id: '00000000-0000-4000-8000-000000000009',
    reported_account: '09991112222',
    report_status: 'verified',
    request_status: 'open',
    reason: 'This is my business number.',
    contact_email: 'owner@example.com',
    requested_at: '2026-11-10T08:00:00Z',
    contact_confirmed_at: '2026-11-10T09:00:00Z',
    deadline: '2026-11-17T09:00:00Z',
    reporter_response: null,
    responded_at: null,
    escalated_at: '2026-11-17T10:00:00Z',
  },
];

describe('admin review workspace', () => {
  it('groups by identifier, shows the reporter history, and decides a group by keyboard with a reason', async () => {
    const api = fakeModeration();
    renderApp(<PendingReports />, { url: '/dashboard/admin/pending-reports' });
    expect(await screen.findByRole('heading', { name: 'Mobile No.: +639171234567' })).toBeInTheDocument();
    expect(screen.getAllByText(/Reporter: 4 filed · 25% verified · 75% rejected/)).toHaveLength(3);
    expect(screen.getAllByText('Young account (under 30 days or no verified report)')).toHaveLength(3);
    expect(screen.getAllByText('2 other reporters of this identifier on the same network')).toHaveLength(3);

    // Shift+V verifies the focused identifier's two reports at once.
    await userEvent.keyboard('V');
    expect(await screen.findByText('2 reports verified')).toBeInTheDocument();
    expect(api.sent('POST', '/rest/v1/rpc/moderate_reports')[0].body).toMatchObject({
      report_ids: ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002'],
      status: 'verified',
    });

    // r on the next report asks for a reason; Enter without one is refused; 1 then Enter rejects.
    await userEvent.keyboard('r');
    expect(await screen.findByRole('dialog', { name: 'Reject this report' })).toBeInTheDocument();
    await userEvent.keyboard('{Enter}');
    expect(screen.getByRole('alert')).toHaveTextContent('Choose a reason.');
    await userEvent.keyboard('1{Enter}');
    expect(await screen.findByText('Report rejected')).toBeInTheDocument();
    expect(api.sent('POST', '/rest/v1/rpc/moderate_reports')[1].body).toMatchObject({
      report_ids: ['00000000-0000-4000-8000-000000000003'],
      status: 'rejected',
      reason: 'no_evidence',
    });

    // u undoes the last decision.
    await userEvent.keyboard('u');
    expect(await screen.findByText('Decision undone')).toBeInTheDocument();
    expect(api.sent('POST', '/rest/v1/rpc/undo_moderation')[0].body).toEqual({ log_id: 1 });
  });

  it('decides from inside the detail view: verify, and remove with a reason', async () => {
    const api = fakeModeration();
    renderApp(<PendingReports />, { url: '/dashboard/admin/pending-reports' });
    await screen.findByRole('heading', { name: 'Mobile No.: +639171234567' });

    await userEvent.click(screen.getAllByRole('button', { name: 'View' })[0]);
    let dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Report verified')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(api.sent('POST', '/rest/v1/rpc/moderate_reports')[0].body).toMatchObject({
      report_ids: ['00000000-0000-4000-8000-000000000001'],
      status: 'verified',
    });

    await userEvent.click(screen.getAllByRole('button', { name: 'View' })[0]);
    dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove…' }));
    expect(await screen.findByRole('dialog', { name: 'Remove this report' })).toBeInTheDocument();
    await userEvent.keyboard('1{Enter}');
    expect(await screen.findByText('Report removed')).toBeInTheDocument();
    expect(api.sent('POST', '/rest/v1/rpc/moderate_reports')[1].body).toMatchObject({
      report_ids: ['00000000-0000-4000-8000-000000000002'],
      status: 'removed',
      reason: 'no_evidence',
    });
  });

  it("shows removal requests with the reporter's silence and the deadline, and decides one with a reason", async () => {
    const api = fakeModeration();
    renderApp(<PendingReports />, { url: '/dashboard/admin/pending-reports' });
    const request = await screen.findByTestId('removal-request');
    expect(request).toHaveTextContent('This is my business number.');
    expect(request).toHaveTextContent('No answer from the reporter.');
    expect(request).toHaveTextContent('Deadline passed, unanswered');
    await userEvent.click(screen.getByRole('button', { name: 'Keep: report about 09991112222' }));
    expect(
      await screen.findByRole('dialog', { name: 'Keep the report about 09991112222?' }),
    ).toBeInTheDocument();
    await userEvent.keyboard('2{Enter}');
    expect(await screen.findByText('Report about 09991112222 kept')).toBeInTheDocument();
    expect(api.sent('POST', '/rest/v1/rpc/decide_removal_request')[0].body).toEqual({
      request_id: '00000000-0000-4000-8000-0000000000aa',
      decision: 'keep',
      reason: 'not_a_scam',
    });
  });

  it('reads in Filipino', async () => {
    await i18n.changeLanguage('fil');
    fakeModeration();
    renderApp(<PendingReports />, { url: '/dashboard/admin/pending-reports' });
    expect(screen.getByRole('heading', { name: 'Mga report na naghihintay' })).toBeInTheDocument();
    expect(
      await screen.findAllByText('Bagong account (wala pang 30 araw o walang verified na report)'),
    ).toHaveLength(3);
    expect(screen.getByText('Talaan ng mga desisyon')).toBeInTheDocument();
  });
});

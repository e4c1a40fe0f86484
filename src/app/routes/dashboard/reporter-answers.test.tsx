import userEvent from '@testing-library/user-event';
import type { Language } from '@/i18n';
import { fakeSupabase, json, type FakeRequest } from '@/testing/fake-supabase';
import { storeSession } from '@/testing/session';
import { renderApp, screen, waitFor, within } from '@/testing/test-utils';
import type { ReportRemovalRequest } from '@/features/reports/api/removal-answers';
import type { ReportRow } from '@/features/reports/api/types';
import { Component as AllReports } from './all-reports';

vi.setConfig({ testTimeout: 20_000 });
const LOADED = { timeout: 8000 };

beforeEach(() => localStorage.clear());
afterEach(() => {
  localStorage.clear();
  vi.restoreAllMocks();
});

const USER_ID = '5b0a4f1e-2c6d-4e8f-9a1b-3c5d7e9f1a2b';

const base: ReportRow = {
  id: '00000000-0000-4000-8000-000000000001',
  reporter_id: USER_ID,
  incident_date: '2026-11-18',
  incident_type: 'scam',
  reported_account_type: 'mobile',
  reported_account: '09171234567',
  consent_to_contact: true,
  evidence_path: null,
  incident_description: 'Fake seller.',
  location: 'Quezon City',
  report_date: '2026-11-20',
  country: 'PH',
  status: 'verified',
  amount_lost: 2500,
  created_at: '2026-11-20T08:00:00Z',
  reported_case_count: 2,
};
const rejected: ReportRow = {
  ...base,
  id: '00000000-0000-4000-8000-000000000002',
  reported_account: '09180000000',
  status: 'rejected',
  status_reason: 'no_evidence',
  status_note: 'Please attach the chat.',
};

const open: ReportRemovalRequest = {
  id: '00000000-0000-4000-8000-0000000000c1',
  report_id: base.id,
  reason: 'This is my shop; the order was delivered.',
  status: 'open',
  created_at: '2026-11-21T08:00:00Z',
  answer_by: '2026-11-28T08:00:00Z',
  reporter_response: null,
  responded_at: null,
  escalated_at: null,
  decision: null,
  decision_reason: null,
  decision_note: null,
  decided_at: null,
  can_answer: true,
};
const decided: ReportRemovalRequest = {
  ...open,
  id: '00000000-0000-4000-8000-0000000000c2',
  reason: 'Not a scam.',
  reporter_response: 'They never delivered.',
  responded_at: '2026-11-22T08:00:00Z',
  decision: 'keep',
  decision_reason: 'not_a_scam',
  decision_note: 'The receipts match.',
  decided_at: '2026-11-23T08:00:00Z',
  can_answer: false,
};

function signedInAs(language: Language, requests: ReportRemovalRequest[]) {
  storeSession({ id: USER_ID, name: 'Maria Clara' });
  return fakeSupabase((req: FakeRequest) => {
    switch (req.path) {
      case '/rest/v1/profiles':
        return json([{ name: 'Maria Clara', email: 'maria@example.com', avatar_path: null, language }]);
      case '/rest/v1/user_roles':
        return json([]);
      case '/rest/v1/report_cards':
        return json([base, rejected]);
      case '/rest/v1/rpc/my_report_removal_requests':
        return json(requests);
      case '/rest/v1/rpc/answer_removal_request':
        return json({ id: (req.body as { request_id: string }).request_id });
    }
  });
}

const cardOf = async (account: string) =>
  (await screen.findAllByTestId('report-card', {}, LOADED)).find((c) => c.textContent?.includes(account))!;

describe("the reporter's view of decisions and removal requests", () => {
  it("shows a rejected report's reason and note, and answers an open removal request", async () => {
    const fake = signedInAs('en', [open, decided]);
    const user = userEvent.setup({ delay: null });
    renderApp(<AllReports />, { url: '/dashboard/all-reports' });

    const rejectedCard = await cardOf('09180000000');
    expect(within(rejectedCard).getByTestId('status-reason')).toHaveTextContent('Not enough evidence');
    expect(within(rejectedCard).getByTestId('status-reason')).toHaveTextContent('Please attach the chat.');
    expect(within(rejectedCard).queryByTestId('removal-answers')).toBeNull();

    const card = await cardOf('09171234567');
    const section = await within(card).findByRole('region', { name: 'Someone asked to remove this report' });
    const [openItem, decidedItem] = within(section).getAllByTestId('removal-request-item');
    expect(openItem).toHaveTextContent('This is my shop; the order was delivered.');
    expect(openItem).toHaveTextContent('Answer by Nov 28, 2026');
    expect(within(decidedItem).getByTestId('removal-decision')).toHaveTextContent(
      'Decided: the report stays',
    );
    expect(decidedItem).toHaveTextContent('Not a scam, hacking or spam');
    expect(decidedItem).toHaveTextContent('The receipts match.');
    expect(decidedItem).toHaveTextContent('They never delivered.');
    expect(within(decidedItem).queryByRole('button')).toBeNull();

    await user.click(within(openItem).getByRole('button', { name: 'Answer' }));
    await user.click(within(openItem).getByRole('button', { name: 'Send the answer' }));
    expect(await within(openItem).findByText('Write your answer.')).toBeInTheDocument();
    expect(fake.sent('POST', '/rest/v1/rpc/answer_removal_request')).toHaveLength(0);

    await user.type(within(openItem).getByRole('textbox'), '  I paid 2,500 pesos and got nothing. ');
    await user.click(within(openItem).getByRole('button', { name: 'Send the answer' }));
    await waitFor(() => expect(fake.sent('POST', '/rest/v1/rpc/answer_removal_request')).toHaveLength(1));
    const [call] = fake.sent('POST', '/rest/v1/rpc/answer_removal_request');
    expect(call.body).toEqual({ request_id: open.id, answer: 'I paid 2,500 pesos and got nothing.' });
    expect(
      await screen.findByText('Answer saved: the report stays until an admin decides.'),
    ).toBeInTheDocument();
  });

  it('in Filipino: the reason, the request and the decision', async () => {
    signedInAs('fil', [open, decided]);
    renderApp(<AllReports />, { url: '/dashboard/all-reports' });
    await screen.findByRole('heading', { level: 1, name: 'Aking mga Report' }, LOADED);
    const rejectedCard = await cardOf('09180000000');
    expect(await within(rejectedCard).findByTestId('status-reason', {}, LOADED)).toHaveTextContent(
      'Kulang ang ebidensya',
    );
    const card = await cardOf('09171234567');
    const section = await within(card).findByRole('region', {
      name: 'May humiling na alisin ang report na ito',
    });
    const [openItem, decidedItem] = within(section).getAllByTestId('removal-request-item');
    expect(within(openItem).getByRole('button', { name: 'Sumagot' })).toBeInTheDocument();
    expect(decidedItem).toHaveTextContent('Napagpasyahan: mananatili ang report');
    expect(decidedItem).toHaveTextContent('Hindi scam, hacking o spam');
  });
});

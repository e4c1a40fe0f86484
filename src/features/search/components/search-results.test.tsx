import userEvent from '@testing-library/user-event';
import { fakeSupabase, json, type FakeRequest } from '@/testing/fake-supabase';
import { storeSession } from '@/testing/session';
import { renderApp, screen, within } from '@/testing/test-utils';
import type { SearchReport, SearchResult } from '../api/search-reports';
import { SearchResults } from './search-results';

function report(i: number, extra: Partial<SearchReport> = {}): SearchReport {
  return {
    reported_date: `2026-10-${String(20 - (i % 20)).padStart(2, '0')}`,
    incident_date: '2026-09-01',
    incident_type: 'scam',
    reported_account_type: 'mobile',
    location: `Place ${i}`,
    status: i % 2 ? 'not-verified' : 'verified',
    ...extra,
  };
}

/** An answer whose verified count, by default, is what the listed reports hold. */
function result(
  reports: SearchReport[],
  count = reports.length,
  verified = reports.filter((r) => r.status === 'verified').length,
): SearchResult {
  return {
    count,
    reports,
    summary: {
      count,
      last_victim_country: 'PH',
      risk_level: 63,
      risk_label: 'high',
      estimated_amount_lost: 20000,
      verified_count: verified,
      pending_count: count - verified,
      risk_basis: 'verified',
      risk_note: null,
    },
    points: [],
  };
}

afterEach(() => vi.restoreAllMocks());

describe('SearchResults', () => {
  it("shows a verified owner's answer as a card of its own, and 'Reported, not yet reviewed' for pending-only identifiers", async () => {
    const base = result([report(1)], 1);
    renderApp(
      <SearchResults
        searchString="0917 555 0142"
        result={{
          ...base,
          summary: {
            ...base.summary,
            risk_level: 10,
            risk_label: 'low',
            verified_count: 0,
            pending_count: 1,
            risk_basis: 'unverified_only',
          },
          owner_statements: [
            {
              identifier: '+639175550142',
              statement: 'This is our store number. We never sell online.',
              updated_at: '2026-11-20T08:00:00Z',
              verified_by: 'sms',
              verified_at: '2026-11-20T07:55:00Z',
            },
          ],
        }}
        signedIn={false}
        fullReportHref="/dashboard/search/0917"
      />,
    );
    // The headline (issue 37) says what issue 32's fair display asks: reported, not yet reviewed.
    expect(document.getElementById('search-headline')?.textContent).toBe('Reported 1 time, not yet reviewed');
    const answer = (await screen.findByRole('heading', { name: "The owner's answer" })).closest(
      '[data-slot=card]',
    ) as HTMLElement;
    expect(within(answer).getByText('This is our store number. We never sell online.')).toBeInTheDocument();
    expect(within(answer).getByText('Ownership verified by SMS code')).toBeInTheDocument();
  });

  it('shows no owner card when nobody answered', async () => {
    renderApp(
      <SearchResults searchString="x" result={result([report(0)], 1)} signedIn={false} fullReportHref="/d" />,
    );
    await screen.findByRole('heading', { name: 'Summary' });
    expect(screen.queryByTestId('owner-answer')).toBeNull();
    expect(document.getElementById('search-headline')?.textContent).not.toContain('not yet reviewed');
  });

  it("shows 'No Results Found', the caution advice and the checklist link when nothing matches", () => {
    renderApp(
      <SearchResults
        searchString="nobody@example.com"
        result={result([], 0)}
        signedIn={false}
        fullReportHref="/dashboard/search/x"
      />,
    );
    expect(
      screen.getByRole('heading', { name: 'Nobody has reported this yet — that does not make it safe' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'No Results Found' })).toBeInTheDocument();
    expect(screen.getByText(/proceed with caution/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'scam-check checklist' })).toHaveAttribute('href', '/guide');
  });

  it('tells words that are no identifier, and a platform’s own host, what can be searched (issue 30)', async () => {
    const { unmount } = renderApp(
      <SearchResults
        searchString="hello"
        result={result([], 0)}
        signedIn={false}
        fullReportHref="/dashboard/search/x"
      />,
    );
    expect(screen.getByRole('heading', { name: 'That is not something we can search' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: /Nobody has reported/ })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'No Results Found' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Check a whole message' })).toHaveAttribute(
      'href',
      '/check?text=hello',
    );
    unmount();
    const { unmount: unmount2 } = renderApp(
      <SearchResults
        searchString="facebook.com"
        result={result([], 0)}
        signedIn={false}
        fullReportHref="/dashboard/search/x"
      />,
    );
    expect(screen.getByRole('heading', { name: 'That is a platform, not one account' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: /Nobody has reported/ })).toBeNull();
    unmount2();
    // A hosting platform of the Public Suffix List: its check (tldts) is fetched for this case only.
    renderApp(
      <SearchResults
        searchString="github.io"
        result={result([], 0)}
        signedIn={false}
        fullReportHref="/dashboard/search/x"
      />,
    );
    expect(
      await screen.findByRole('heading', { name: 'That is a platform, not one account' }),
    ).toBeInTheDocument();
  });

  it('shows the count, the computed summary and at most 10 rows with the limited columns for visitors', () => {
    const reports = Array.from({ length: 12 }, (_, i) => report(i));
    renderApp(
      <SearchResults
        searchString="0917 555 0142"
        result={result(reports, 14, 7)}
        signedIn={false}
        fullReportHref="/dashboard/search/0917"
      />,
    );
    // 14 reports, 7 verified by the answer's own count (the 12 listed hold 6).
    expect(screen.getByRole('heading', { level: 2, name: /^Reported/ }).textContent).toBe(
      'Reported 14 times, 7 verified: do not send money or share codes',
    );
    expect(screen.getByText('You searched for').textContent).toBe('You searched for 0917 555 0142');
    const summary = screen
      .getByRole('heading', { name: 'Summary' })
      .closest('[data-slot=card]') as HTMLElement;
    expect(within(summary).getByText('Philippines')).toBeInTheDocument();
    expect(within(summary).getByText('63% (high)')).toBeInTheDocument();
    expect(within(summary).getByText('₱20,000.00')).toBeInTheDocument();

    const table = screen.getByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual([
      'Reported on',
      'What happened',
      'Kind of account',
      'Location',
      'Status',
      'Happened on',
      'Action',
    ]);
    // docs/behaviour.md §9: the latest 10 incidents, under one header row.
    expect(within(table).getAllByRole('row')).toHaveLength(11);
    // Visitors are sent to log in first, then on to the full report.
    expect(within(table).getAllByRole('link', { name: 'View full report' })[0]).toHaveAttribute(
      'href',
      '/login?redirectTo=%2Fdashboard%2Fsearch%2F0917',
    );
    // Below 640 px the same 10 reports are cards, each with its status and action.
    const cards = within(screen.getByRole('list', { name: 'Latest reports, newest first' })).getAllByRole(
      'listitem',
    );
    expect(cards).toHaveLength(10);
    expect(within(cards[0]).getByText('verified')).toBeInTheDocument();
    expect(within(cards[1]).getByText('not yet reviewed')).toBeInTheDocument();
    expect(within(cards[1]).getByText('Place 1')).toBeInTheDocument();
    expect(within(cards[1]).getByRole('link', { name: 'View full report' })).toHaveAttribute(
      'href',
      '/login?redirectTo=%2Fdashboard%2Fsearch%2F0917',
    );
  });

  it.each([
    [[report(0), report(2)], 2, 'Reported 2 times, 2 verified: do not send money or share codes', 'verified'],
    [[report(1)], 1, 'Reported 1 time, not yet reviewed', 'pending'],
    [
      [report(1), report(3)],
      30,
      'Reported 30 times, 1 verified: do not send money or share codes',
      'verified',
      1,
    ],
    [[report(1), report(3)], 30, 'Reported 30 times, not yet reviewed', 'pending', 0],
  ])('says in one line what the answer means (%#)', (reports, count, line, tone, verified?: number) => {
    renderApp(
      <SearchResults
        searchString="x"
        result={result(reports, count, verified)}
        signedIn={false}
        fullReportHref="/dashboard/search/x"
      />,
    );
    const headline = screen.getByRole('heading', { level: 2, name: line });
    expect(headline.closest('section')).toHaveAttribute('data-headline', tone);
  });

  it('puts the filing date under Reported Date and the incident date under Incident Date', () => {
    renderApp(
      <SearchResults
        searchString="x"
        result={result([report(0, { reported_date: '2026-11-02', incident_date: '2026-10-15' })])}
        signedIn={false}
        fullReportHref="/dashboard/search/x"
      />,
    );
    const cells = within(within(screen.getByRole('table')).getAllByRole('row')[1])
      .getAllByRole('cell')
      .map((td) => td.textContent);
    expect(cells[0]).toBe('Nov 2, 2026');
    expect(cells[5]).toBe('Oct 15, 2026');
    expect(cells[4]).toContain('verified');
  });

  it('gives signed-in users the account and country columns and links straight to the report', () => {
    renderApp(
      <SearchResults
        searchString="x"
        result={result([report(1, { id: 'r1', reported_account: '0917 555 0142', country: 'PH' })])}
        signedIn
        fullReportHref="/dashboard/search/x"
      />,
    );
    expect(screen.getByRole('columnheader', { name: 'Account reported' })).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: '0917 555 0142' })).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: 'Philippines' })).toBeInTheDocument();
    for (const link of screen.getAllByRole('link', { name: 'View full report' }))
      expect(link).toHaveAttribute('href', '/dashboard/search/x');
    expect(screen.getAllByText('not yet reviewed')).toHaveLength(2);
  });

  it('asks visitors to log in before asking for a removal, and points owners to the right of reply', () => {
    renderApp(
      <SearchResults searchString="x" result={result([report(1)])} signedIn={false} fullReportHref="/d" />,
    );
    const card = screen.getByTestId('removal-request-card');
    expect(within(card).getByRole('link', { name: 'Log in' })).toHaveAttribute(
      'href',
      expect.stringContaining('/login'),
    );
    expect(within(card).getByRole('link', { name: 'Prove you own it' })).toHaveAttribute(
      'href',
      '/dashboard/ownership',
    );
  });

  it('files a removal request for a chosen report, refuses a too-short reason, and shows the decision', async () => {
    const user = storeSession();
    const inserted: unknown[] = [];
    fakeSupabase((req: FakeRequest) => {
      if (req.path === '/rest/v1/removal_requests' && req.method === 'POST') {
        inserted.push(req.body);
        return new Response(null, { status: 201 });
      }
      if (req.path === '/rest/v1/removal_requests')
        return json([
          {
            id: 'q1',
            report_id: '00000000-0000-4000-8000-0000000000a2',
            status: 'dismissed',
            created_at: '2026-11-01T00:00:00Z',
            contact_confirmed_at: '2026-11-01T01:00:00Z',
            decision: 'keep',
            decision_reason: 'not_a_scam',
            decision_note: null,
          },
        ]);
    });
    renderApp(
      <SearchResults
        searchString="x"
        result={result([
          report(1, { id: '00000000-0000-4000-8000-0000000000a1' }),
          report(2, { id: '00000000-0000-4000-8000-0000000000a2' }),
        ])}
        signedIn
        fullReportHref="/dashboard/search/x"
      />,
    );
    expect(await screen.findByTestId('my-removal-requests')).toHaveTextContent(
      'Decided: the report stays · Not a scam, hacking or spam',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Ask for a report to be removed' }));
    await userEvent.type(screen.getByLabelText('Why it is wrong (the reporter reads this)'), 'Mine');
    await userEvent.click(screen.getByRole('button', { name: 'Send the request' }));
    expect(
      await screen.findByText('Say in at least 10 characters why the report is wrong.'),
    ).toBeInTheDocument();
    expect(inserted).toEqual([]);
    await userEvent.type(
      screen.getByLabelText('Why it is wrong (the reporter reads this)'),
      ' is my shop number, not a scammer.',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Send the request' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      `We e-mailed a confirmation link to ${user.email}`,
    );
    expect(inserted).toEqual([
      {
        report_id: '00000000-0000-4000-8000-0000000000a1',
        requester_id: user.id,
        reason: 'Mine is my shop number, not a scammer.',
        contact_email: user.email,
      },
    ]);
  });
});

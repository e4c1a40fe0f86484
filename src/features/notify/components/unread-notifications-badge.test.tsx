import { QueryClient, focusManager } from '@tanstack/react-query';
import userEvent from '@testing-library/user-event';
import { queryConfig } from '@/lib/react-query';
import { fakeSupabase, type FakeRequest } from '@/testing/fake-supabase';
import { act, renderApp, screen, waitFor } from '@/testing/test-utils';
import type { AppNotification } from '../api/notifications';
import { NotificationList } from './notification-list';
import { unreadBadgeText, UnreadNotificationsBadge } from './unread-notifications-badge';

const USER_ID = '00000000-0000-4000-8000-00000000abcd';

afterEach(() => {
  focusManager.setFocused(undefined);
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** The app's own query defaults (no refetch on focus unless a query asks for it), minus retries. */
function appQueryClient() {
  return new QueryClient({
    defaultOptions: { ...queryConfig, queries: { ...queryConfig.queries, retry: false } },
  });
}

/**
 * public.notifications behind PostgREST for one user: a HEAD count of the unread rows (the number
 * in Content-Range, as PostgREST sends it) and the PATCH that marks them read.
 */
function fakeNotifications(initialUnread: number) {
  const state = { unread: initialUnread };
  const api = fakeSupabase((req: FakeRequest) => {
    if (req.path !== '/rest/v1/notifications') return undefined;
    if (req.method === 'HEAD')
      return new Response(null, { status: 200, headers: { 'content-range': `*/${state.unread}` } });
    if (req.method === 'PATCH') {
      state.unread = 0;
      return new Response(null, { status: 204 });
    }
  });
  return { state, api, counts: () => api.sent('HEAD', '/rest/v1/notifications') };
}

/**
 * The link's accessible name with the count. Chrome names it 'Notify Me 3 unread notifications' (the
 * browser tests check that exactly); jsdom's name computation drops the space between the two parts.
 */
const linkName = (count: string) => new RegExp(`^Notify Me ?${count}$`);

/** The badge where the sidebar puts it: at the end of the Notify Me link. */
function renderInLink(userId: string | null = USER_ID) {
  return renderApp(
    <a href="/dashboard/notify-me">
      Notify Me
      <UnreadNotificationsBadge userId={userId ?? undefined} />
    </a>,
    { queryClient: appQueryClient() },
  );
}

describe('UnreadNotificationsBadge', () => {
  it("asks for a head count of the user's unread notifications and shows it, named for screen readers", async () => {
    const { counts } = fakeNotifications(3);
    renderInLink();
    expect(await screen.findByRole('link', { name: linkName('3 unread notifications') })).toBeInTheDocument();
    expect(screen.getByTestId('unread-notifications-badge')).toHaveTextContent(/^3/);
    const [req] = counts();
    expect(req.url.searchParams.get('select')).toBe('id');
    expect(req.url.searchParams.get('read_at')).toBe('is.null');
    expect(req.headers.get('prefer')).toContain('count=exact');
  });

  it('is hidden when nothing is unread', async () => {
    const { counts } = fakeNotifications(0);
    renderInLink();
    await waitFor(() => expect(counts()).toHaveLength(1));
    // Give the answer time to render, then check the link is plain.
    await act(() => new Promise((r) => setTimeout(r, 50)));
    expect(screen.queryByTestId('unread-notifications-badge')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Notify Me' })).toBeInTheDocument();
  });

  it("shows '99+' above 99 but names the real number, and the singular for one", async () => {
    fakeNotifications(150);
    const view = renderInLink();
    expect(
      await screen.findByRole('link', { name: linkName('150 unread notifications') }),
    ).toBeInTheDocument();
    expect(screen.getByTestId('unread-notifications-badge')).toHaveTextContent(/^99\+/);
    view.unmount();
    vi.restoreAllMocks();

    fakeNotifications(1);
    renderInLink();
    expect(await screen.findByRole('link', { name: linkName('1 unread notification') })).toBeInTheDocument();
    expect([99, 100].map(unreadBadgeText)).toEqual(['99', '99+']);
  });

  it('drops when the user marks notifications read on the Notify Me page', async () => {
    const { counts } = fakeNotifications(2);
    const notifications: AppNotification[] = ['a', 'b'].map((x) => ({
      id: `00000000-0000-4000-8000-00000000000${x}`,
      kind: 'identifier_reported',
      report_id: null,
      identifier: `${x}.example.ph`,
      read_at: null,
      created_at: '2026-11-20T00:00:00Z',
    }));
    const user = userEvent.setup({ delay: null });
    renderApp(
      <>
        <a href="/dashboard/notify-me">
          Notify Me
          <UnreadNotificationsBadge userId={USER_ID} />
        </a>
        <NotificationList notifications={notifications} />
      </>,
      { queryClient: appQueryClient() },
    );
    expect(await screen.findByRole('link', { name: linkName('2 unread notifications') })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Mark all as read' }));
    await waitFor(() => expect(screen.queryByTestId('unread-notifications-badge')).not.toBeInTheDocument());
    expect(counts()).toHaveLength(2);
  });

  it('looks again every 60 seconds and when the window regains focus', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { state, counts } = fakeNotifications(1);
    renderInLink();
    expect(await screen.findByRole('link', { name: linkName('1 unread notification') })).toBeInTheDocument();

    state.unread = 7;
    await act(() => vi.advanceTimersByTimeAsync(50_000));
    expect(counts()).toHaveLength(1);
    await act(() => vi.advanceTimersByTimeAsync(11_000));
    expect(await screen.findByRole('link', { name: linkName('7 unread notifications') })).toBeInTheDocument();
    expect(counts()).toHaveLength(2);

    state.unread = 4;
    act(() => {
      focusManager.setFocused(false);
      focusManager.setFocused(true);
    });
    expect(await screen.findByRole('link', { name: linkName('4 unread notifications') })).toBeInTheDocument();
  });

  it('asks nothing without a signed-in user', async () => {
    const { counts } = fakeNotifications(3);
    renderInLink(null);
    await act(() => new Promise((r) => setTimeout(r, 50)));
    expect(counts()).toEqual([]);
    expect(screen.queryByTestId('unread-notifications-badge')).not.toBeInTheDocument();
  });
});

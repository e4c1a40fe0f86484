import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { RequireAuth, type Profile } from '@/lib/auth';
import { fakeSupabase } from '@/testing/fake-supabase';
import { storeSession } from '@/testing/session';
import { renderApp, screen, waitFor } from '@/testing/test-utils';
import { DashboardTopbar, firstName } from './dashboard-topbar';

const profile: Profile = {
  id: 'u1',
  name: 'Maria Clara Santos',
  email: 'maria@example.com',
  avatarPath: null,
  isAdmin: false,
  language: 'en',
};

beforeEach(() => localStorage.clear());
afterEach(() => {
  localStorage.clear();
  vi.restoreAllMocks();
});

function renderDashboard() {
  return renderApp(
    <RequireAuth>
      <DashboardTopbar profile={profile} onOpenMenu={() => undefined} />
    </RequireAuth>,
    { url: '/dashboard' },
  );
}

describe('DashboardTopbar', () => {
  it('greets by name on every screen: the first name below 640px, the full name from 640px', async () => {
    storeSession();
    renderDashboard();
    const greeting = await screen.findByTestId('greeting');
    expect(greeting.className).not.toMatch(/(^|\s)hidden(\s|$)/);
    expect(greeting.querySelector('.sm\\:hidden')).toHaveTextContent('Maria');
    expect(greeting.querySelector('.sm\\:inline')).toHaveTextContent('Maria Clara Santos');
    expect(firstName('  Juan  dela Cruz ')).toBe('Juan');
    expect(firstName(undefined)).toBe('…');
  });

  it.each([
    ['Logout', 'local'],
    ['Logout on all devices', 'global'],
  ])('%s ends on / (not the login prompt) and signs out with scope %s', async (item, scope) => {
    storeSession();
    const api = fakeSupabase((req) =>
      req.path === '/auth/v1/logout' ? new Response(null, { status: 204 }) : undefined,
    );
    const user = userEvent.setup();
    renderDashboard();
    await user.click(await screen.findByRole('button', { name: 'User menu' }));
    await user.click(await screen.findByRole('menuitem', { name: item }));
    await waitFor(() => expect(api.sent('POST', '/auth/v1/logout')).toHaveLength(1));
    expect(api.sent('POST', '/auth/v1/logout')[0].url.searchParams.get('scope')).toBe(scope);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
    // The guard had its chance after the session ended: still home, no /login?redirectTo=...
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
  });

  it('a failed logout is the error path’s toast, still on the home page, with no success toast', async () => {
    storeSession();
    const success = vi.spyOn(toast, 'success');
    const error = vi.spyOn(toast, 'error');
    fakeSupabase((req) =>
      req.path === '/auth/v1/logout'
        ? Response.json({ code: 500, msg: 'Auth is down' }, { status: 500 })
        : undefined,
    );
    const user = userEvent.setup();
    renderDashboard();
    await user.click(await screen.findByRole('button', { name: 'User menu' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Logout on all devices' }));
    await waitFor(() => expect(error).toHaveBeenCalledTimes(1));
    expect(error.mock.calls[0][1]).toEqual({ position: 'bottom-right' });
    expect(success).not.toHaveBeenCalled();
    // The router renders a navigation in a transition, which may land just after the toast.
    expect(await screen.findByTestId('location')).toHaveTextContent(/^\/$/);
  });
});

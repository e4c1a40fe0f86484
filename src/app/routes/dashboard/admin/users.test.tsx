import userEvent from '@testing-library/user-event';
import { i18n } from '@/i18n';
import { fakeSupabase, json, type FakeRequest } from '@/testing/fake-supabase';
import { renderApp, screen, waitFor, within } from '@/testing/test-utils';
import type { AdminUser } from '@/features/admin/api/users';
import { Component as Users } from './users';

vi.setConfig({ testTimeout: 20_000 });
afterEach(async () => {
  vi.restoreAllMocks();
  await i18n.changeLanguage('en');
});

const user = (over: Partial<AdminUser>): AdminUser => ({
  id: '00000000-0000-4000-8000-000000000001',
  name: 'Juan dela Cruz',
  email: 'juan@example.com',
  created_at: '2026-11-01T08:00:00Z',
  last_sign_in_at: null,
  is_admin: false,
  reports_filed: 12,
  reports_verified: 2,
  reports_rejected: 9,
  reports_removed: 1,
  suspended_until: null,
  suspension_reason: null,
  ...over,
});

const users = [
  user({}),
  user({
    id: '00000000-0000-4000-8000-000000000002',
    name: 'Pedro',
    email: 'pedro@example.com',
    suspended_until: '2026-12-05T08:00:00Z',
    suspension_reason: 'False reports about a rival shop',
  }),
  user({ id: '00000000-0000-4000-8000-000000000003', name: 'Ana', email: 'ana@example.com', is_admin: true }),
];

function fakeUsers() {
  return fakeSupabase((req: FakeRequest) => {
    if (req.path === '/rest/v1/rpc/admin_users') return json(users);
    if (req.path === '/rest/v1/rpc/admin_suspension_log')
      return json([
        {
          id: 1,
          user_id: users[1].id,
          user_email: 'pedro@example.com',
          actor_id: 'a',
          actor_email: 'admin@example.com',
          action: 'suspend',
          reason: 'False reports about a rival shop',
          suspended_until: '2026-12-05T08:00:00Z',
          created_at: '2026-11-28T08:00:00Z',
        },
      ]);
    if (req.path === '/rest/v1/rpc/admin_set_suspension') return json({});
  });
}

describe('admin users', () => {
  it('lists role, reports and suspension; filters reach the database; suspending needs a reason', async () => {
    const api = fakeUsers();
    renderApp(<Users />, { url: '/dashboard/admin/users' });
    const rows = await screen.findAllByTestId('admin-user', {}, { timeout: 8000 });
    expect(rows).toHaveLength(3);
    expect(rows[0]).toHaveTextContent('12 filed · 2 verified · 9 rejected · 1 removed');
    expect(rows[0]).toHaveTextContent('Active');
    expect(within(rows[1]).getByTestId('suspension')).toHaveTextContent('Suspended until Dec 5, 2026');
    expect(rows[1]).toHaveTextContent('Why: False reports about a rival shop');
    expect(within(rows[2]).queryByRole('button')).toBeNull();
    expect(await screen.findByText('pedro@example.com suspended by admin@example.com')).toBeInTheDocument();

    await userEvent.selectOptions(screen.getByLabelText('Role'), 'user');
    await userEvent.type(screen.getByLabelText('Search name, e-mail or user id'), 'juan');
    await waitFor(() =>
      expect(api.sent('POST', '/rest/v1/rpc/admin_users').at(-1)?.body).toMatchObject({
        search: 'juan',
        role: 'user',
      }),
    );

    const [juan, pedro] = screen.getAllByTestId('admin-user');
    await userEvent.click(within(juan).getByRole('button', { name: 'Suspend…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Suspend juan@example.com' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Suspend' }));
    expect(within(dialog).getByText('Give a reason of 3 to 500 characters.')).toBeInTheDocument();
    expect(api.sent('POST', '/rest/v1/rpc/admin_set_suspension')).toHaveLength(0);
    await userEvent.type(
      within(dialog).getByLabelText('Reason (kept in the suspension log)'),
      'Spam reports',
    );
    await userEvent.selectOptions(within(dialog).getByLabelText('For how long'), '30');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Suspend' }));
    expect(await screen.findByText('Account suspended')).toBeInTheDocument();
    expect(api.sent('POST', '/rest/v1/rpc/admin_set_suspension')[0].body).toEqual({
      user_id: users[0].id,
      suspend: true,
      reason: 'Spam reports',
      days: 30,
    });

    await userEvent.click(within(pedro).getByRole('button', { name: 'Unsuspend…' }));
    const undo = await screen.findByRole('dialog', { name: 'Unsuspend pedro@example.com' });
    expect(within(undo).queryByLabelText('For how long')).toBeNull();
  });

  it('reads in Filipino', async () => {
    await i18n.changeLanguage('fil');
    fakeUsers();
    renderApp(<Users />, { url: '/dashboard/admin/users' });
    const rows = await screen.findAllByTestId('admin-user', {}, { timeout: 8000 });
    expect(rows[0]).toHaveTextContent('12 naisampa · 2 na-verify · 9 tinanggihan · 1 inalis');
    expect(within(rows[0]).getByRole('button', { name: 'I-suspend…' })).toBeInTheDocument();
    expect(await screen.findByText('Talaan ng suspensyon')).toBeInTheDocument();
  });
});

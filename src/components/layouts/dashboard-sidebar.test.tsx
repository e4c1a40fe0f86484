import { renderApp, screen } from '@/testing/test-utils';
import { DashboardNav } from './dashboard-sidebar';

describe('DashboardNav', () => {
  it('shows a badge at the end of the entry it belongs to, and only there', () => {
    renderApp(
      <DashboardNav
        isAdmin={false}
        badges={{ notifyMe: <span data-testid="badge"> 3 unread notifications</span> }}
      />,
      {
        url: '/dashboard/stats',
      },
    );
    // jsdom drops the space Chrome puts between the link's text and the badge (tests/e2e checks Chrome's name).
    const notifyMe = screen.getByRole('link', { name: /^Notify Me ?3 unread notifications$/ });
    expect(notifyMe).toHaveAttribute('href', '/dashboard/notify-me');
    expect(notifyMe.lastElementChild).toBe(screen.getByTestId('badge'));
    expect(screen.getAllByTestId('badge')).toHaveLength(1);
    expect(screen.getByRole('link', { name: 'My Reports' })).not.toContainElement(
      screen.getByTestId('badge'),
    );
  });

  it('lists Admin and Add News only for admins', () => {
    const view = renderApp(<DashboardNav isAdmin={false} />, { url: '/dashboard' });
    expect(screen.queryByRole('link', { name: 'Add News' })).not.toBeInTheDocument();
    view.unmount();
    renderApp(<DashboardNav isAdmin />, { url: '/dashboard' });
    expect(screen.getByRole('link', { name: 'Add News' })).toHaveAttribute('href', '/dashboard/add-news');
    expect(screen.getByRole('link', { name: 'Admin' })).toHaveAttribute('href', '/dashboard/admin');
  });
});

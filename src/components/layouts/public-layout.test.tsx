import userEvent from '@testing-library/user-event';
import { renderApp, screen, within } from '@/testing/test-utils';
import { PublicLayout } from './public-layout';

describe('PublicLayout', () => {
  beforeEach(() => {
    localStorage.clear();
    document.documentElement.classList.remove('dark');
  });

  it('links the navigation and the footer as docs/behaviour.md §2 lists them, for a visitor', () => {
    renderApp(<PublicLayout />);
    const nav = screen.getByRole('navigation', { name: 'Main' });
    const links = within(nav)
      .getAllByRole('link')
      .map((a) => [a.textContent, a.getAttribute('href')]);
    expect(links).toEqual([
      ['Report a Scam', '/register'],
      ['Notify Me', '/register'],
      ['Check a message', '/check'],
      ['News', '/news'],
      ['About', '/about'],
      ['Donate', '/donate'],
      ['Login', '/login'],
      ['Register', '/register'],
    ]);
    const footer = screen.getByRole('navigation', { name: 'Footer' });
    expect(
      within(footer)
        .getAllByRole('link')
        .map((a) => a.getAttribute('href')),
    ).toEqual(['/privacy', '/tos', '/faq', '/contact', '/statistics', '/developers']);
  });

  it('opens and closes the hamburger menu', async () => {
    const user = userEvent.setup();
    renderApp(<PublicLayout />);
    expect(screen.queryByRole('navigation', { name: 'Mobile' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Open menu' }));
    expect(within(screen.getByRole('navigation', { name: 'Mobile' })).getAllByRole('link')).toHaveLength(8);
    expect(
      within(screen.getByRole('navigation', { name: 'Mobile' })).getByRole('link', {
        name: 'Check a message',
      }),
    ).toHaveAttribute('href', '/check');
    await user.click(screen.getByRole('button', { name: 'Close menu' }));
    expect(screen.queryByRole('navigation', { name: 'Mobile' })).not.toBeInTheDocument();
  });

  it("keeps the dark theme choice under localStorage 'darkTheme' and on <html>", async () => {
    const user = userEvent.setup();
    renderApp(<PublicLayout />);
    await user.click(screen.getByRole('button', { name: 'Switch to dark theme' }));
    expect(document.documentElement).toHaveClass('dark');
    expect(localStorage.getItem('darkTheme')).toBe('true');
    await user.click(screen.getByRole('button', { name: 'Switch to light theme' }));
    expect(document.documentElement).not.toHaveClass('dark');
    expect(localStorage.getItem('darkTheme')).toBe('false');
  });

  it('starts dark when the stored choice says so', () => {
    localStorage.setItem('darkTheme', 'true');
    renderApp(<PublicLayout />);
    expect(document.documentElement).toHaveClass('dark');
    expect(screen.getByRole('button', { name: 'Switch to light theme' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
  });
});

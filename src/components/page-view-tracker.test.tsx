import { afterEach, describe, expect, it, vi } from 'vitest';
import { Link } from 'react-router-dom';
import { renderApp, screen } from '@/testing/test-utils';
import userEvent from '@testing-library/user-event';
import { PageViewTracker } from './page-view-tracker';
// The AuthProvider loads supabase-js lazily; loading it here keeps that import inside the test's life.
import '@/lib/supabase';

vi.mock('@/lib/page-views', () => ({ recordPageView: vi.fn(), setPageViewCaller: vi.fn() }));
const { recordPageView } = await import('@/lib/page-views');

function Page({ name, to }: { name: string; to: string }) {
  return (
    <>
      <PageViewTracker />
      <h1>{name}</h1>
      <Link to={to}>next</Link>
    </>
  );
}

afterEach(() => vi.mocked(recordPageView).mockClear());

describe('PageViewTracker', () => {
  it('counts one view per route change, with the path only', async () => {
    renderApp(<Page name="Home" to="/about?x=1" />, {
      url: '/',
      routes: [
        { path: '/about', element: <Page name="About" to="/news" /> },
        { path: '/news', element: <Page name="News" to="/" /> },
      ],
    });
    await screen.findByRole('heading', { name: 'Home' });
    await userEvent.click(screen.getByRole('link', { name: 'next' }));
    await screen.findByRole('heading', { name: 'About' });
    await userEvent.click(screen.getByRole('link', { name: 'next' }));
    await screen.findByRole('heading', { name: 'News' });
    expect(vi.mocked(recordPageView).mock.calls).toEqual([['/'], ['/about'], ['/news']]);
  });
});

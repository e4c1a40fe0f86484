import { fakeSupabase, json } from '@/testing/fake-supabase';
import { storeSession } from '@/testing/session';
import { renderApp, screen, waitFor } from '@/testing/test-utils';
import { Component as Home } from './home';
import '@/lib/supabase';

beforeEach(() => {
  localStorage.clear();
  fakeSupabase((req) => (req.path === '/rest/v1/news' ? json([]) : undefined));
});
afterEach(() => {
  localStorage.clear();
  vi.restoreAllMocks();
});

describe('home page', () => {
  it("'Report a Scam' leads a visitor to /register", async () => {
    renderApp(<Home />);
    expect(await screen.findByRole('link', { name: 'Report a Scam' })).toHaveAttribute('href', '/register');
  });

  it("'Report a Scam' leads a signed-in user to the dashboard, as the header's does", async () => {
    storeSession();
    renderApp(<Home />);
    await waitFor(() =>
      expect(screen.getByRole('link', { name: 'Report a Scam' })).toHaveAttribute('href', '/dashboard'),
    );
  });
});

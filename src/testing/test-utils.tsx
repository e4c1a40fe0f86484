import type { ReactElement, ReactNode } from 'react';
import { render, type RenderOptions } from '@testing-library/react';
import type { QueryClient } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider, useLocation, type RouteObject } from 'react-router-dom';
import { AppProvider } from '@/app/provider';
import { createQueryClient } from '@/lib/react-query';

/**
 * A query client for tests: no retries (a failure shows at once), no cache shared between tests,
 * and data seeded with setQueryData stays fresh, so a test decides what the server "returned".
 */
export function createTestQueryClient() {
  // The app's error path (toasts from the query and mutation caches), with test-friendly defaults.
  return createQueryClient({
    queries: { retry: false, gcTime: Infinity, staleTime: Infinity },
    mutations: { retry: false },
  });
}

interface RenderAppOptions extends Omit<RenderOptions, 'wrapper'> {
  /** Where the memory router starts. */
  url?: string;
  /** Routes besides the element under test, e.g. the page a form navigates to. */
  routes?: RouteObject[];
  /** The path pattern the element is mounted at (defaults to `url`'s path). */
  path?: string;
  queryClient?: QueryClient;
}

/**
 * Renders `ui` inside the app's real providers (query client, theme, auth, toaster) and a memory
 * router, so a component behaves as it does in the app. Other routes render their path as text,
 * which lets a test see where a navigation went.
 */
export function renderApp(
  ui: ReactElement,
  { url = '/', routes = [], path, queryClient = createTestQueryClient(), ...options }: RenderAppOptions = {},
) {
  const router = createMemoryRouter(
    [{ path: path ?? url.split('?')[0], element: ui }, ...routes, { path: '*', element: <LocationProbe /> }],
    { initialEntries: [url] },
  );
  const result = render(<RouterProvider router={router} />, {
    wrapper: ({ children }: { children: ReactNode }) => (
      <AppProvider queryClient={queryClient}>{children}</AppProvider>
    ),
    ...options,
  });
  return { ...result, router, queryClient };
}

/** Shows the memory router's current path, so tests can assert where a navigation went. */
function LocationProbe() {
  const location = useLocation();
  return <p data-testid="location">{location.pathname}</p>;
}

export * from '@testing-library/react';

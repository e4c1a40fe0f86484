import type { QueryClient } from '@tanstack/react-query';
import type { ActionFunction, LoaderFunction, RouteObject } from 'react-router-dom';
import { ErrorPage } from '@/components/errors/error-page';
import { paths } from '@/config/paths';
// The words of server errors only the dashboard meets, loaded with it (docs/error-codes.md).
import '@/lib/server-errors-dashboard';

/** A dashboard page module: the router's RouteModule plus an optional action (delete-report). */
interface DashboardRouteModule {
  Component: React.ComponentType;
  clientLoader?: (queryClient: QueryClient) => LoaderFunction;
  clientAction?: (queryClient: QueryClient) => ActionFunction;
}

/**
 * Every /dashboard page (issue 7), each a lazy chunk under the dashboard layout, which sends
 * signed-out visitors to /login. Child paths are the absolute ones from config/paths.
 */
export function createDashboardRoutes(queryClient: QueryClient): RouteObject[] {
  const page = (load: () => Promise<DashboardRouteModule>): Pick<RouteObject, 'lazy'> => ({
    lazy: async () => {
      const { Component, clientLoader, clientAction } = await load();
      return { Component, loader: clientLoader?.(queryClient), action: clientAction?.(queryClient) };
    },
  });
  const d = paths.dashboard;

  const pages: RouteObject[] = [
    { index: true, ...page(() => import('./add-report')) },
    { path: d.addReport.path, ...page(() => import('./add-report')) },
    { path: d.allReports.path, ...page(() => import('./all-reports')) },
    { path: d.report.path, ...page(() => import('./edit-report')) },
    { path: d.editReport.path, ...page(() => import('./edit-report')) },
    { path: d.deleteReport.path, ...page(() => import('./delete-report')) },
    { path: d.stats.path, ...page(() => import('./stats')) },
    { path: d.search.path, ...page(() => import('./search')) },
    { path: d.searchResults.path, ...page(() => import('./search-results')) },
    { path: d.profile.path, ...page(() => import('./profile')) },
    { path: d.notifyMe.path, ...page(() => import('./notify-me')) },
    { path: d.ownership.path, ...page(() => import('./ownership')) },
    { path: d.apiKeys.path, ...page(() => import('./api-keys')) },
    { path: d.addNews.path, ...page(() => import('./add-news')) },
    {
      path: d.admin.root.path,
      // Admins only: everyone else is told so and sent to /dashboard (the data is refused by RLS too).
      lazy: async () => ({ Component: (await import('./admin/admin-outlet')).AdminOutlet }),
      children: [
        { index: true, ...page(() => import('./admin/index')) },
        { path: d.admin.users.path, ...page(() => import('./admin/users')) },
        { path: d.admin.messages.path, ...page(() => import('./admin/messages')) },
        { path: d.admin.allReports.path, ...page(() => import('./admin/all-reports')) },
        { path: d.admin.searches.path, ...page(() => import('./admin/searches')) },
        { path: d.admin.visitors.path, ...page(() => import('./admin/visitors')) },
        { path: d.admin.pendingReports.path, ...page(() => import('./admin/pending-reports')) },
        { path: d.admin.takedowns.path, ...page(() => import('./admin/takedowns')) },
        { path: d.admin.partnerKeys.path, ...page(() => import('./admin/partner-keys')) },
        { path: d.admin.ownerStatements.path, ...page(() => import('./admin/owner-statements')) },
        { path: d.admin.ownershipReviews.path, ...page(() => import('./admin/ownership-reviews')) },
      ],
    },
    { path: `${d.root.path}/*`, ...page(() => import('../not-found')) },
  ];

  return [
    {
      path: d.root.path,
      // The shell (forms, dialogs, menus) loads with the first dashboard page, not with the home page.
      lazy: async () => ({ Component: (await import('./layout')).Component }),
      // A page that crashes keeps the sidebar and top bar around the error message.
      children: [{ errorElement: <ErrorPage />, children: pages }],
    },
  ];
}

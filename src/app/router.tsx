import type { QueryClient } from '@tanstack/react-query';
import { createBrowserRouter, Outlet, type LoaderFunction, type RouteObject } from 'react-router-dom';
import { ErrorPage } from '@/components/errors/error-page';
import { LoadingStatus } from '@/components/loading-status';
import { PublicLayout } from '@/components/layouts/public-layout';
import { PageViewTracker } from '@/components/page-view-tracker';
import { paths } from '@/config/paths';
import { loadDashboardTexts } from '@/i18n';

/**
 * Route modules export `Component` and, when the page needs data, `clientLoader(queryClient)`, which
 * prefetches into the query cache so the page renders with its data (bulletproof-react's pattern).
 * Every page is a lazy chunk: the home page's first load carries only the shell.
 */
export interface RouteModule {
  Component: React.ComponentType;
  clientLoader?: (queryClient: QueryClient) => LoaderFunction;
}

export function lazyRoute(
  queryClient: QueryClient,
  load: () => Promise<RouteModule>,
): Pick<RouteObject, 'lazy'> {
  return {
    lazy: async () => {
      const { Component, clientLoader } = await load();
      return { Component, loader: clientLoader?.(queryClient) };
    },
  };
}

function HydrateFallback() {
  return <LoadingStatus />;
}

/** Every page, public or dashboard: the page itself, and one counted view per route change. */
function Root() {
  return (
    <>
      <PageViewTracker />
      <Outlet />
    </>
  );
}

/** Sits at the root so that a crash in any layout still ends on a page with a <main> landmark. */
function RootErrorPage() {
  return (
    <main>
      <ErrorPage />
    </main>
  );
}

export function createRoutes(queryClient: QueryClient): RouteObject[] {
  const page = (load: () => Promise<RouteModule>) => lazyRoute(queryClient, load);

  const publicPages: RouteObject[] = [
    { index: true, ...page(() => import('./routes/home')) },
    { path: paths.search.path, ...page(() => import('./routes/search')) },
    { path: paths.check.path, ...page(() => import('./routes/check')) },
    { path: paths.statistics.path, ...page(() => import('./routes/statistics')) },
    { path: paths.statisticsTop.path, ...page(() => import('./routes/statistics-top')) },
    { path: paths.news.path, ...page(() => import('./routes/news')) },
    { path: paths.newsList.path, ...page(() => import('./routes/news')) },
    { path: paths.newsArticle.path, ...page(() => import('./routes/news-article')) },
    { path: paths.about.path, ...page(() => import('./routes/about')) },
    { path: paths.developers.path, ...page(() => import('./routes/developers')) },
    { path: paths.donate.path, ...page(() => import('./routes/donate')) },
    { path: paths.guide.path, ...page(() => import('./routes/guide')) },
    { path: paths.privacy.path, ...page(() => import('./routes/privacy')) },
    { path: paths.tos.path, ...page(() => import('./routes/tos')) },
    { path: paths.faq.path, ...page(() => import('./routes/faq')) },
    { path: paths.comingSoon.path, ...page(() => import('./routes/coming-soon')) },
    { path: paths.thankyou.path, ...page(() => import('./routes/thankyou')) },
    { path: paths.contact.path, ...page(() => import('./routes/contact')) },
    { path: paths.auth.login.path, ...page(() => import('./routes/login')) },
    { path: paths.auth.register.path, ...page(() => import('./routes/register')) },
    { path: paths.auth.twoFactor.path, ...page(() => import('./routes/two-factor')) },
    { path: paths.auth.twoFactor.pathWithId, ...page(() => import('./routes/two-factor')) },
    { path: paths.auth.forgotPassword.path, ...page(() => import('./routes/forgot-password')) },
    { path: '*', ...page(() => import('./routes/not-found')) },
  ];

  return [
    {
      id: 'root',
      element: <Root />,
      errorElement: <RootErrorPage />,
      HydrateFallback,
      children: [
        {
          path: paths.home.path,
          element: <PublicLayout />,
          // A page that crashes keeps the site's header and footer around the error message.
          children: [{ errorElement: <ErrorPage />, children: publicPages }],
        },
        // The dashboard's routes (issue 7) join here on the first visit to /dashboard: see
        // patchRoutesOnNavigation below.
      ],
    },
  ];
}

/** True for /dashboard and everything under it. */
export function isDashboardPath(pathname: string): boolean {
  const root = paths.dashboard.root.path;
  return pathname === root || pathname.startsWith(`${root}/`);
}

/**
 * The dashboard (its layout, sidebar, user menu and pages, issue 7) is loaded, routes and all, the
 * first time anyone opens /dashboard: React Router asks `patchRoutesOnNavigation` whenever a path
 * matches only the catch-all. Visitors of the public site never download any of it, which keeps the
 * home page's first load within budget (issue 6).
 */
export function createAppRouter(queryClient: QueryClient) {
  let dashboardAdded = false;
  return createBrowserRouter(createRoutes(queryClient), {
    async patchRoutesOnNavigation({ path, patch, signal }) {
      if (dashboardAdded || !isDashboardPath(new URL(path, 'http://x').pathname)) return;
      // The dashboard's texts (i18n DASHBOARD_NS) come with its routes.
      const [{ createDashboardRoutes }] = await Promise.all([
        import('./routes/dashboard/routes'),
        loadDashboardTexts(),
      ]);
      // A navigation superseded meanwhile ignores its patch; the one that replaced it patches instead.
      if (dashboardAdded || signal.aborted) return;
      patch('root', createDashboardRoutes(queryClient));
      dashboardAdded = true;
    },
  });
}

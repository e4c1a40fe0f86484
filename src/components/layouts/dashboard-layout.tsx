import { useState } from 'react';
import { Outlet, useLocation, useNavigation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle } from '@/components/ui/sheet';
import { Logo } from '@/components/logo';
import { RequireAuth, useCurrentProfile } from '@/lib/auth';
import { DashboardNav, type SidebarBadges } from './dashboard-sidebar';
import { DashboardTopbar } from './dashboard-topbar';

/** docs/behaviour.md §9: the sidebar is 250px wide. */
export const SIDEBAR_WIDTH_PX = 250;

function NavigationProgress() {
  const { t } = useTranslation();
  const navigation = useNavigation();
  if (navigation.state === 'idle') return null;
  return (
    <div
      role="progressbar"
      aria-label={t('nav.loadingPage')}
      className="bg-primary/20 fixed inset-x-0 top-0 z-50 h-1 overflow-hidden"
    >
      <div className="bg-primary h-full w-1/3 animate-pulse" />
    </div>
  );
}

function DashboardShell({ navBadges }: { navBadges?: SidebarBadges }) {
  const { t } = useTranslation();
  const profile = useCurrentProfile();
  const [menuOpen, setMenuOpen] = useState(false);
  const location = useLocation();
  // The overlay closes whenever the page changes (a link in it, or the back button).
  const [lastPath, setLastPath] = useState(location.pathname);
  if (lastPath !== location.pathname) {
    setLastPath(location.pathname);
    setMenuOpen(false);
  }
  const isAdmin = profile.data?.isAdmin ?? false;

  return (
    <div className="bg-muted/30 min-h-dvh">
      <NavigationProgress />
      <a
        href="#main"
        className="focus:bg-background sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:px-3 focus:py-2"
      >
        {t('nav.skipToContent')}
      </a>
      {/* From 992px the sidebar is a fixed column; below, the same links open as a full-screen overlay. */}
      <aside
        className="bg-background fixed inset-y-0 left-0 z-40 hidden w-[250px] flex-col border-r lg:flex"
        aria-label={t('dashboard.sidebar')}
      >
        <div className="flex h-16 items-center border-b px-5">
          <Logo />
        </div>
        <DashboardNav isAdmin={isAdmin} badges={navBadges} />
      </aside>
      <Sheet open={menuOpen} onOpenChange={setMenuOpen}>
        <SheetContent side="left" className="w-full max-w-none gap-0 sm:max-w-none lg:hidden">
          <SheetHeader className="h-16 justify-center border-b">
            <SheetTitle asChild>
              <div>
                <Logo />
              </div>
            </SheetTitle>
            <SheetDescription className="sr-only">{t('dashboard.menu')}</SheetDescription>
          </SheetHeader>
          <DashboardNav isAdmin={isAdmin} badges={navBadges} onNavigate={() => setMenuOpen(false)} />
        </SheetContent>
      </Sheet>
      <div className="flex min-h-dvh flex-col lg:pl-[250px]">
        <DashboardTopbar profile={profile.data} onOpenMenu={() => setMenuOpen(true)} />
        <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-4 py-6 md:px-8 md:py-8">
          <Outlet />
        </main>
      </div>
    </div>
  );
}

/**
 * Every /dashboard page: signed-out visitors go to /login and come back after signing in.
 * `navBadges` (composed by the app from the features) are shown on their sidebar entries.
 */
export function DashboardLayout({ navBadges }: { navBadges?: SidebarBadges }) {
  return (
    <RequireAuth>
      <DashboardShell navBadges={navBadges} />
    </RequireAuth>
  );
}

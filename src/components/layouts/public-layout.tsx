import { useEffect, useRef, useState } from 'react';
import { Link, NavLink, Outlet, useLocation, useNavigation } from 'react-router-dom';
import { Menu, X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { LanguageSwitch } from '@/components/language-switch';
import { Logo } from '@/components/logo';
import { ThemeToggle } from '@/components/theme-toggle';
import { paths } from '@/config/paths';
import { useUser } from '@/lib/auth';
import { cn } from '@/lib/utils';

interface NavItem {
  label: string;
  to: string;
  /** Calls to action (Report a Scam, Notify Me) are never highlighted as the current page. */
  action?: boolean;
}

/**
 * Report a Scam and Notify Me lead to /register (docs/behaviour.md §2). A signed-in user already has an
 * account, so the same entries open the dashboard forms they stand for.
 */
function useNavItems(): { main: NavItem[]; account: NavItem[] } {
  const { t } = useTranslation();
  const user = useUser();
  const main: NavItem[] = [
    {
      label: t('nav.reportScam'),
      to: user ? paths.dashboard.root.getHref() : paths.auth.register.getHref(),
      action: true,
    },
    {
      label: t('nav.notifyMe'),
      to: user ? paths.dashboard.notifyMe.getHref() : paths.auth.register.getHref(),
      action: true,
    },
    // The message check answers the question people come with most ("is this text a scam?").
    { label: t('nav.check'), to: paths.check.getHref() },
    { label: t('nav.news'), to: paths.news.getHref() },
    { label: t('nav.about'), to: paths.about.getHref() },
    { label: t('nav.donate'), to: paths.donate.getHref() },
  ];
  const account: NavItem[] = user
    ? [{ label: t('nav.dashboard'), to: paths.dashboard.root.getHref() }]
    : [
        { label: t('nav.login'), to: paths.auth.login.getHref() },
        { label: t('nav.register'), to: paths.auth.register.getHref() },
      ];
  return { main, account };
}

const linkClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    'rounded-md px-1 py-2 text-sm font-medium whitespace-nowrap transition-colors hover:bg-accent hover:text-accent-foreground lg:px-2',
    isActive ? 'text-primary' : 'text-foreground/80',
  );

function DesktopNav() {
  const { t } = useTranslation();
  const { main, account } = useNavItems();
  return (
    <nav
      aria-label={t('nav.mainLabel')}
      className="hidden min-w-0 flex-wrap items-center justify-end gap-0.5 md:flex"
    >
      {main.map((item) => (
        <NavLink
          key={item.label}
          to={item.to}
          end
          className={({ isActive }) => linkClass({ isActive: isActive && !item.action })}
        >
          {item.label}
        </NavLink>
      ))}
      <span className="bg-border mx-0.5 h-5 w-px lg:mx-1" aria-hidden />
      {account.map((item, i) => (
        <Button
          key={item.label}
          asChild
          size="sm"
          variant={i === account.length - 1 ? 'default' : 'ghost'}
          className="px-2.5"
        >
          <Link to={item.to}>{item.label}</Link>
        </Button>
      ))}
    </nav>
  );
}

/**
 * Under 768px the links fold behind a hamburger button into a panel under the header. A plain
 * disclosure (not a dialog) keeps the first page load small and needs no focus trap.
 */
function MobileNav() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const { main, account } = useNavItems();
  const location = useLocation();
  // Close the panel whenever a link (or the back button) changes the page.
  const [lastPath, setLastPath] = useState(location.pathname);
  if (lastPath !== location.pathname) {
    setLastPath(location.pathname);
    setOpen(false);
  }
  return (
    <div className="md:hidden">
      <Button
        variant="ghost"
        size="icon"
        aria-expanded={open}
        aria-controls="mobile-menu"
        aria-label={open ? t('nav.closeMenu') : t('nav.openMenu')}
        onClick={() => setOpen((o) => !o)}
      >
        {open ? <X aria-hidden /> : <Menu aria-hidden />}
      </Button>
      {open && (
        <nav
          id="mobile-menu"
          aria-label={t('nav.mobileLabel')}
          className="bg-background absolute inset-x-0 top-16 border-b px-4 pb-4 shadow-md"
        >
          <ul className="flex flex-col gap-1 pt-2">
            {[...main, ...account].map((item) => (
              <li key={item.label}>
                <NavLink
                  to={item.to}
                  end
                  className={({ isActive }) =>
                    cn(linkClass({ isActive: isActive && !item.action }), 'block py-3 text-base')
                  }
                >
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
      )}
    </div>
  );
}

/** A thin bar while a route's code or data loads, so slow navigations do not look frozen. */
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

/**
 * Publishes the header's height as --app-header-height on <html>, for the toasts to sit below it
 * (src/app/provider.tsx): the header grows when its links wrap onto a second line.
 */
function usePublishedHeaderHeight() {
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    const header = ref.current;
    if (!header || typeof ResizeObserver === 'undefined') return;
    const root = document.documentElement;
    const publish = () => root.style.setProperty('--app-header-height', `${header.offsetHeight}px`);
    const observer = new ResizeObserver(publish);
    observer.observe(header);
    publish();
    return () => {
      observer.disconnect();
      root.style.removeProperty('--app-header-height');
    };
  }, []);
  return ref;
}

export function PublicLayout() {
  const { t } = useTranslation();
  const headerRef = usePublishedHeaderHeight();
  const footerLinks: NavItem[] = [
    { label: t('footer.privacy'), to: paths.privacy.getHref() },
    { label: t('footer.terms'), to: paths.tos.getHref() },
    { label: t('footer.faq'), to: paths.faq.getHref() },
    { label: t('footer.contact'), to: paths.contact.getHref() },
    { label: t('footer.statistics'), to: paths.statistics.getHref() },
    { label: t('footer.developers'), to: paths.developers.getHref() },
  ];
  return (
    <div className="flex min-h-dvh flex-col">
      <NavigationProgress />
      <a
        href="#main"
        className="focus:bg-background sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:px-3 focus:py-2"
      >
        {t('nav.skipToContent')}
      </a>
      <header
        ref={headerRef}
        className="relative bg-background/95 supports-[backdrop-filter]:bg-background/80 top-0 z-40 border-b backdrop-blur md:sticky"
      >
        {/* The links fit on one line from 1280 px in both languages (the header is at most 1152 px wide at any
            desktop width, so the spacing is tight and the language switch shows its icon only); between 768 and
            1280 px Filipino's longer labels wrap onto a second line rather than overflow. */}
        <div className="mx-auto flex min-h-16 max-w-6xl items-center justify-between gap-2 px-4 py-2">
          <Logo />
          <div className="flex min-w-0 items-center justify-end gap-0.5">
            <DesktopNav />
            <LanguageSwitch />
            <ThemeToggle />
            <MobileNav />
          </div>
        </div>
      </header>
      <main id="main" className="flex-1">
        <Outlet />
      </main>
      <footer className="bg-muted/40 border-t">
        <div className="mx-auto flex max-w-6xl flex-col gap-4 px-4 py-8 md:flex-row md:items-start md:justify-between">
          <div className="space-y-2 text-sm">
            <Logo />
            <p className="text-muted-foreground max-w-sm">{t('footer.tagline')}</p>
          </div>
          <nav aria-label={t('footer.label')}>
            <ul className="flex flex-wrap gap-x-6 gap-y-2 text-sm">
              {footerLinks.map((item) => (
                <li key={item.to}>
                  <Link
                    to={item.to}
                    className="text-muted-foreground hover:text-foreground underline-offset-4 hover:underline"
                  >
                    {item.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        </div>
        <p className="text-muted-foreground border-t py-4 text-center text-xs">
          {t('footer.copyright', { year: new Date().getFullYear() })}
        </p>
      </footer>
    </div>
  );
}

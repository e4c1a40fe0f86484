import type { ReactNode } from 'react';
import { NavLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { ParseKeys } from 'i18next';
import {
  BarChart3,
  BellRing,
  FilePlus2,
  Files,
  KeyRound,
  MessageSquareQuote,
  Newspaper,
  Search,
  ShieldCheck,
  UserRound,
  type LucideIcon,
} from 'lucide-react';
import { paths } from '@/config/paths';
import { cn } from '@/lib/utils';

export type SidebarItemId =
  | 'search'
  | 'addReport'
  | 'allReports'
  | 'stats'
  | 'profile'
  | 'notifyMe'
  | 'ownership'
  | 'apiKeys'
  | 'admin'
  | 'addNews';

interface SidebarItem {
  /** Names the entry for `badges`. */
  id: SidebarItemId;
  /** The entry's name in the catalogues (src/i18n/locales). */
  label: ParseKeys;
  to: string;
  icon: LucideIcon;
  /** Only the exact path counts as current (the add-report index would match every page). */
  end?: boolean;
}

/** docs/behaviour.md §2: the sidebar's entries, in its order; admin and Add News only for admins. */
const userItems: SidebarItem[] = [
  { id: 'search', label: 'dashboard.nav.search', to: paths.dashboard.search.getHref(), icon: Search },
  {
    id: 'addReport',
    label: 'dashboard.nav.addReport',
    to: paths.dashboard.root.getHref(),
    icon: FilePlus2,
    end: true,
  },
  { id: 'allReports', label: 'reports.list.title', to: paths.dashboard.allReports.getHref(), icon: Files },
  { id: 'stats', label: 'dashboard.nav.stats', to: paths.dashboard.stats.getHref(), icon: BarChart3 },
  { id: 'profile', label: 'dashboard.nav.profile', to: paths.dashboard.profile.getHref(), icon: UserRound },
  { id: 'notifyMe', label: 'nav.notifyMe', to: paths.dashboard.notifyMe.getHref(), icon: BellRing },
  {
    id: 'ownership',
    label: 'dashboard.nav.ownership',
    to: paths.dashboard.ownership.getHref(),
    icon: MessageSquareQuote,
  },
  { id: 'apiKeys', label: 'dashboard.nav.apiKeys', to: paths.dashboard.apiKeys.getHref(), icon: KeyRound },
];

const adminItems: SidebarItem[] = [
  { id: 'admin', label: 'dashboard.nav.admin', to: paths.dashboard.admin.root.getHref(), icon: ShieldCheck },
  { id: 'addNews', label: 'dashboard.nav.addNews', to: paths.dashboard.addNews.getHref(), icon: Newspaper },
];

/**
 * Something shown at the end of a sidebar entry, e.g. the unread count on Notify Me. The app composes
 * these from the features (app/routes/dashboard/layout.tsx); the layout only places them.
 */
export type SidebarBadges = Partial<Record<SidebarItemId, ReactNode>>;

/**
 * The dashboard's navigation. `isAdmin` comes from the database (user_roles under RLS), so hiding the
 * admin entries is only a convenience: the admin pages and their data are refused on the server too.
 */
export function DashboardNav({
  isAdmin,
  onNavigate,
  badges = {},
}: {
  isAdmin: boolean;
  onNavigate?: () => void;
  badges?: SidebarBadges;
}) {
  const { t } = useTranslation();
  const items = isAdmin ? [...userItems, ...adminItems] : userItems;
  return (
    <nav aria-label={t('dashboard.nav.label')} className="flex flex-col gap-1 p-3">
      {items.map(({ id, label, to, icon: Icon, end }) => (
        <NavLink
          key={to}
          to={to}
          end={end}
          onClick={onNavigate}
          className={({ isActive }) =>
            cn(
              'flex items-center gap-3 rounded-md px-3 py-2.5 text-sm font-medium transition-colors',
              isActive
                ? 'bg-primary text-primary-foreground'
                : 'text-foreground/80 hover:bg-accent hover:text-accent-foreground',
            )
          }
        >
          <Icon className="size-4" aria-hidden />
          {t(label)}
          {badges[id]}
        </NavLink>
      ))}
    </nav>
  );
}

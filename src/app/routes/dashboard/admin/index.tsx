import { Link } from 'react-router-dom';
import {
  BadgeCheck,
  ClipboardList,
  Eye,
  FileClock,
  Inbox,
  KeyRound,
  MessageSquareQuote,
  Search,
  ShieldBan,
  UserCheck,
  Users,
  type LucideIcon,
} from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { ParseKeys } from 'i18next';
import { Card, CardContent } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/errors';
import { formatNumber } from '@/lib/format';
import { useAppStats, type AppStats } from '@/features/admin/api/get-app-stats';
import { PageHeader } from '@/components/layouts/page-header';

const a = paths.dashboard.admin;

/** docs/behaviour.md §2: overview cards linking to users, messages, reports, searches, visitors, pending. */
const cards: { title: ParseKeys; stat?: keyof AppStats; to: string; icon: LucideIcon; note?: ParseKeys }[] = [
  { title: 'admin.users.title', stat: 'users', to: a.users.getHref(), icon: Users },
  {
    title: 'admin.messages.title',
    stat: 'contact',
    to: a.messages.getHref(),
    icon: Inbox,
    note: 'admin.overview.contactNote',
  },
  { title: 'admin.reports.title', stat: 'reports', to: a.allReports.getHref(), icon: ClipboardList },
  {
    title: 'admin.verifiedReports.title',
    stat: 'verifiedReports',
    to: a.allReports.getHref(),
    icon: BadgeCheck,
  },
  { title: 'admin.searches.title', stat: 'search', to: a.searches.getHref(), icon: Search },
  { title: 'admin.visitors.title', stat: 'visitor', to: a.visitors.getHref(), icon: Eye },
  {
    title: 'admin.pending.title',
    stat: 'pendingReports',
    to: a.pendingReports.getHref(),
    icon: FileClock,
    note: 'admin.overview.pendingNote',
  },
  // Threat feeds (issue 34): no counter, the lists say it all.
  {
    title: 'admin.takedowns.title',
    to: a.takedowns.getHref(),
    icon: ShieldBan,
    note: 'admin.takedowns.note',
  },
  {
    title: 'admin.partnerKeys.title',
    to: a.partnerKeys.getHref(),
    icon: KeyRound,
    note: 'admin.partnerKeys.note',
  },
  // Right of reply (issue 32): owners' statements, and hiding an abusive one.
  {
    title: 'admin.ownerStatements.title',
    to: a.ownerStatements.getHref(),
    icon: MessageSquareQuote,
    note: 'admin.ownerStatements.note',
  },
  // Social accounts' owners' evidence, approved or rejected by an admin who is not the owner.
  {
    title: 'admin.ownershipReviews.title',
    to: a.ownershipReviews.getHref(),
    icon: UserCheck,
    note: 'admin.ownershipReviews.cardNote',
  },
];

export function Component() {
  const { t } = useTranslation();
  const stats = useAppStats();
  return (
    <>
      <PageHeader title={t('admin.overview.title')} description={t('admin.overview.description')} />
      {stats.isError && <p className="text-destructive mb-4">{errorMessage(stats.error)}</p>}
      <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-3">
        {cards.map(({ title, stat, to, icon: Icon, note }) => (
          <li key={title}>
            <Link
              to={to}
              className="group block h-full rounded-xl focus-visible:ring-2 focus-visible:outline-none"
              aria-label={t(title)}
            >
              <Card className="group-hover:border-primary h-full py-5 transition-colors">
                <CardContent className="flex items-center justify-between gap-4">
                  <div>
                    {!stat ? null : stats.data ? (
                      <p className="text-3xl font-bold" data-testid={`admin-stat-${stat}`}>
                        {formatNumber(stats.data[stat])}
                      </p>
                    ) : (
                      <Skeleton className="h-9 w-16" />
                    )}
                    <h2 className="text-muted-foreground mt-1 font-medium">{t(title)}</h2>
                    {note && <p className="text-muted-foreground text-xs">{t(note)}</p>}
                  </div>
                  <span className="bg-primary/10 text-primary flex size-12 items-center justify-center rounded-lg">
                    <Icon className="size-6" aria-hidden />
                  </span>
                </CardContent>
              </Card>
            </Link>
          </li>
        ))}
      </ul>
    </>
  );
}

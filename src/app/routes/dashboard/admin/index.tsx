import { Link } from 'react-router-dom';
import {
  BadgeCheck,
  ClipboardList,
  Eye,
  FileClock,
  Inbox,
  Search,
  Users,
  type LucideIcon,
} from 'lucide-react';
import { Card, CardContent } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/errors';
import { useAppStats, type AppStats } from '@/features/admin/api/get-app-stats';
import { PageHeader } from '@/components/layouts/page-header';

const a = paths.dashboard.admin;

/** docs/behaviour.md §2: overview cards linking to users, messages, reports, searches, visitors, pending. */
const cards: { title: string; stat: keyof AppStats; to: string; icon: LucideIcon; note?: string }[] = [
  { title: 'Registered Users', stat: 'users', to: a.users.getHref(), icon: Users },
  { title: 'Admin Messages', stat: 'contact', to: a.messages.getHref(), icon: Inbox, note: 'contact inbox' },
  { title: 'Submitted Reports', stat: 'reports', to: a.allReports.getHref(), icon: ClipboardList },
  { title: 'Verified Reports', stat: 'verifiedReports', to: a.allReports.getHref(), icon: BadgeCheck },
  { title: 'Search History', stat: 'search', to: a.searches.getHref(), icon: Search },
  { title: 'Visitor Stats', stat: 'visitor', to: a.visitors.getHref(), icon: Eye },
  {
    title: 'Pending Reports',
    stat: 'pendingReports',
    to: a.pendingReports.getHref(),
    icon: FileClock,
    note: 'waiting for review',
  },
];

export function Component() {
  const stats = useAppStats();
  return (
    <>
      <PageHeader title="Admin" description="Site-wide counters; open a card for the list behind it." />
      {stats.isError && <p className="text-destructive mb-4">{errorMessage(stats.error)}</p>}
      <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-3">
        {cards.map(({ title, stat, to, icon: Icon, note }) => (
          <li key={title}>
            <Link
              to={to}
              className="group block h-full rounded-xl focus-visible:ring-2 focus-visible:outline-none"
              aria-label={title}
            >
              <Card className="group-hover:border-primary h-full py-5 transition-colors">
                <CardContent className="flex items-center justify-between gap-4">
                  <div>
                    {stats.data ? (
                      <p className="text-3xl font-bold" data-testid={`admin-stat-${stat}`}>
                        {stats.data[stat].toLocaleString('en-PH')}
                      </p>
                    ) : (
                      <Skeleton className="h-9 w-16" />
                    )}
                    <h2 className="text-muted-foreground mt-1 font-medium">{title}</h2>
                    {note && <p className="text-muted-foreground text-xs">{note}</p>}
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

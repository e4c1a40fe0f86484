import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Bell, BellDot, Check } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { formatDate } from '@/lib/format';
import { cn } from '@/lib/utils';
import { useMarkNotificationsRead, type AppNotification } from '../api/notifications';

function describe(n: AppNotification): { text: ReactNode; link: { to: string; label: string } | null } {
  const id = <strong className="break-all">{n.identifier}</strong>;
  switch (n.kind) {
    case 'identifier_reported':
      return {
        text: <>Someone reported {id}, which you asked us to watch.</>,
        link: n.identifier
          ? { to: paths.dashboard.searchResults.getHref(n.identifier), label: 'See the reports' }
          : null,
      };
    case 'report_status_changed':
      return {
        text: <>An admin reviewed your report about {id}.</>,
        link: { to: paths.dashboard.allReports.getHref(), label: 'See its status' },
      };
    case 'removal_requested':
      return {
        text: (
          <>
            The holder of {id} asked us to remove your report. Without an answer it is removed after a week;
            you may also delete it.
          </>
        ),
        link: { to: paths.dashboard.allReports.getHref(), label: 'My Reports' },
      };
  }
}

export function NotificationList({ notifications }: { notifications: AppNotification[] }) {
  const markRead = useMarkNotificationsRead();
  const unread = notifications.filter((n) => !n.read_at).length;
  return (
    <div className="flex flex-col gap-3">
      <div className="flex items-center justify-between gap-2">
        <p className="text-muted-foreground text-sm" data-testid="unread-count">
          {unread === 0 ? 'No unread notifications' : `${unread} unread`}
        </p>
        {unread > 0 && (
          <Button
            variant="outline"
            size="sm"
            onClick={() => markRead.mutate(undefined)}
            disabled={markRead.isPending}
          >
            <Check aria-hidden />
            Mark all as read
          </Button>
        )}
      </div>
      {notifications.length === 0 ? (
        <p className="text-muted-foreground">
          Nothing yet. We tell you here, and by e-mail, when something you watch is reported.
        </p>
      ) : (
        <ul className="divide-y rounded-md border" aria-label="Notifications">
          {notifications.map((n) => {
            const { text, link } = describe(n);
            return (
              <li
                key={n.id}
                className={cn('flex flex-wrap items-start gap-3 px-4 py-3', !n.read_at && 'bg-primary/5')}
                data-unread={!n.read_at}
              >
                {n.read_at ? (
                  <Bell className="text-muted-foreground mt-0.5 size-4 shrink-0" aria-hidden />
                ) : (
                  <BellDot className="text-primary mt-0.5 size-4 shrink-0" aria-hidden />
                )}
                {/* The button wraps under the text on a phone rather than squeezing it into a narrow column. */}
                <div className="min-w-48 flex-1 text-sm">
                  <p>
                    {!n.read_at && <Badge className="mr-2">New</Badge>}
                    {text}
                  </p>
                  <p className="text-muted-foreground mt-1 text-xs">
                    {formatDate(n.created_at)}
                    {link && (
                      <>
                        {' · '}
                        <Link to={link.to} className="text-primary underline underline-offset-4">
                          {link.label}
                        </Link>
                      </>
                    )}
                  </p>
                </div>
                {!n.read_at && (
                  <Button
                    variant="ghost"
                    size="sm"
                    className="ml-4 sm:ml-0"
                    onClick={() => markRead.mutate(n.id)}
                    disabled={markRead.isPending}
                  >
                    Mark as read
                  </Button>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}

import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Bell, BellDot, Check } from 'lucide-react';
import { Trans, useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { formatDate } from '@/lib/format';
import { cn } from '@/lib/utils';
import { useMarkNotificationsRead, type AppNotification } from '../api/notifications';

function describe(
  n: AppNotification,
  t: TFunction,
): { text: ReactNode; link: { to: string; label: string } | null } {
  const message = (
    key:
      | 'notify.notifications.identifierReported'
      | 'notify.notifications.statusChanged'
      | 'notify.notifications.removalRequested',
  ) => (
    <Trans
      i18nKey={key}
      values={{ identifier: n.identifier }}
      components={{ id: <strong className="break-all" /> }}
    />
  );
  switch (n.kind) {
    case 'identifier_reported':
      return {
        text: message('notify.notifications.identifierReported'),
        link: n.identifier
          ? {
              to: paths.dashboard.searchResults.getHref(n.identifier),
              label: t('notify.notifications.seeReports'),
            }
          : null,
      };
    case 'report_status_changed':
      return {
        text: message('notify.notifications.statusChanged'),
        link: { to: paths.dashboard.allReports.getHref(), label: t('notify.notifications.seeStatus') },
      };
    case 'removal_requested':
      return {
        text: message('notify.notifications.removalRequested'),
        link: { to: paths.dashboard.allReports.getHref(), label: t('reports.list.title') },
      };
  }
}

export function NotificationList({ notifications }: { notifications: AppNotification[] }) {
  const { t } = useTranslation();
  const markRead = useMarkNotificationsRead();
  const unread = notifications.filter((n) => !n.read_at).length;
  return (
    <div className="flex flex-col gap-3">
      <div className="flex items-center justify-between gap-2">
        <p className="text-muted-foreground text-sm" data-testid="unread-count">
          {unread === 0
            ? t('notify.notifications.noneUnread')
            : t('notify.notifications.unread', { count: unread })}
        </p>
        {unread > 0 && (
          <Button
            variant="outline"
            size="sm"
            onClick={() => markRead.mutate(undefined)}
            disabled={markRead.isPending}
          >
            <Check aria-hidden />
            {t('notify.notifications.markAll')}
          </Button>
        )}
      </div>
      {notifications.length === 0 ? (
        <p className="text-muted-foreground">{t('notify.notifications.empty')}</p>
      ) : (
        <ul className="divide-y rounded-md border" aria-label={t('notify.notifications.label')}>
          {notifications.map((n) => {
            const { text, link } = describe(n, t);
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
                    {!n.read_at && <Badge className="mr-2">{t('notify.notifications.new')}</Badge>}
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
                    {t('notify.notifications.markOne')}
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

import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import type { Tables } from '@/types/database.types';
import { Badge } from '@/components/ui/badge';
import { formatDate } from '@/lib/format';
import { useMarkMessageHandled } from '@/features/admin/api/moderate';
import { PagedList } from '@/features/admin/components/paged-list';
import { PageHeader } from '@/components/layouts/page-header';
import { BackToAdmin } from '@/features/admin/components/back-to-admin';
import { MessageExtras } from '@/features/admin/components/message-extras';

type MessageRow = Pick<
  Tables<'contact_messages'>,
  'id' | 'nickname' | 'email' | 'subject' | 'message' | 'handled_at' | 'created_at'
>;

export function Component() {
  const { t } = useTranslation();
  const mark = useMarkMessageHandled();
  return (
    <>
      <BackToAdmin />
      <PageHeader title={t('admin.messages.title')} description={t('admin.messages.description')} />
      <PagedList<MessageRow>
        name="messages"
        empty={t('admin.messages.empty')}
        columns={[
          {
            header: t('admin.columns.received'),
            cell: (r) => formatDate(r.created_at),
            className: 'whitespace-nowrap align-top',
          },
          {
            header: t('admin.columns.sender'),
            cell: (r) => (
              <div className="max-w-48">
                <p className="truncate font-medium">{r.nickname || t('admin.messages.anonymous')}</p>
                {r.email && (
                  <a
                    href={`mailto:${r.email}`}
                    className="text-primary block truncate text-xs underline-offset-4 hover:underline"
                  >
                    {r.email}
                  </a>
                )}
              </div>
            ),
            className: 'align-top',
          },
          {
            header: t('admin.columns.message'),
            cell: (r) => (
              <div className="max-w-xl min-w-64 whitespace-normal">
                <p className="font-medium">{r.subject || t('admin.messages.noSubject')}</p>
                <p className="text-muted-foreground whitespace-pre-wrap">{r.message}</p>
                <MessageExtras message={r} />
              </div>
            ),
          },
          {
            header: t('admin.columns.status'),
            cell: (r) =>
              r.handled_at ? (
                <div className="flex flex-col items-start gap-1">
                  <Badge variant="secondary">{t('admin.messages.handled')}</Badge>
                  <Button
                    variant="link"
                    size="sm"
                    className="h-auto p-0"
                    onClick={() => mark.mutate({ id: r.id, handled: false })}
                  >
                    {t('admin.messages.backToInbox')}
                  </Button>
                </div>
              ) : (
                <Button
                  variant="outline"
                  size="sm"
                  onClick={() => mark.mutate({ id: r.id, handled: true })}
                  disabled={mark.isPending}
                >
                  {t('admin.messages.markHandled')}
                </Button>
              ),
            className: 'align-top',
          },
        ]}
      />
    </>
  );
}

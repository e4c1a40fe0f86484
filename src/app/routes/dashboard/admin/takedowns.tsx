import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Tables } from '@/types/database.types';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { formatDate } from '@/lib/format';
import { errorMessage } from '@/lib/errors';
import { useReviewTakedown } from '@/features/admin/api/feeds';
import { PagedList } from '@/features/admin/components/paged-list';
import { PageHeader } from '@/components/layouts/page-header';
import { BackToAdmin } from '@/features/admin/components/back-to-admin';

type TakedownRow = Pick<
  Tables<'takedown_reports'>,
  | 'id'
  | 'url'
  | 'host'
  | 'target_brand'
  | 'status'
  | 'abuse_contact'
  | 'created_at'
  | 'sent_at'
  | 'send_error'
>;

/** An example address: the same in every language. */
const ABUSE_PLACEHOLDER = 'abuse@host.example';

const takedownStatusKeys = {
  draft: 'admin.takedowns.status.draft',
  approved: 'admin.takedowns.status.approved',
  sent: 'admin.takedowns.status.sent',
  dismissed: 'admin.takedowns.status.dismissed',
} as const;

/** Approve (with the abuse desk's address) or dismiss one drafted report. */
function Review({ row }: { row: TakedownRow }) {
  const { t } = useTranslation();
  const review = useReviewTakedown();
  const [contact, setContact] = useState(row.abuse_contact ?? '');
  if (row.status === 'sent' || row.status === 'dismissed') return null;
  return (
    <form
      className="flex min-w-56 flex-col gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        review.mutate({ id: row.id, decision: 'approve', abuseContact: contact });
      }}
    >
      <Input
        type="email"
        value={contact}
        onChange={(e) => setContact(e.target.value)}
        placeholder={ABUSE_PLACEHOLDER}
        aria-label={t('admin.takedowns.contactLabel', { host: row.host })}
        required
      />
      <div className="flex gap-2">
        <Button type="submit" size="sm" disabled={review.isPending}>
          {t('admin.takedowns.approve')}
        </Button>
        <Button
          type="button"
          size="sm"
          variant="outline"
          disabled={review.isPending}
          onClick={() => review.mutate({ id: row.id, decision: 'dismiss' })}
        >
          {t('admin.takedowns.dismiss')}
        </Button>
      </div>
      {review.isError && <p className="text-destructive text-xs">{errorMessage(review.error)}</p>}
    </form>
  );
}

/** XARF takedown reports the open-data job drafted for newly listed phishing links (docs/feeds.md). */
export function Component() {
  const { t } = useTranslation();
  return (
    <>
      <BackToAdmin />
      <PageHeader title={t('admin.takedowns.title')} description={t('admin.takedowns.description')} />
      <PagedList<TakedownRow>
        name="takedowns"
        empty={t('admin.takedowns.empty')}
        columns={[
          {
            header: t('admin.columns.when'),
            cell: (r) => formatDate(r.created_at),
            className: 'whitespace-nowrap align-top',
          },
          {
            header: t('admin.takedowns.link'),
            cell: (r) => (
              <div className="max-w-md min-w-48 whitespace-normal break-all">
                <p className="font-mono text-xs">{r.url}</p>
                {r.target_brand && (
                  <p className="text-muted-foreground text-xs">
                    {t('admin.takedowns.imitates', { brand: r.target_brand })}
                  </p>
                )}
              </div>
            ),
            className: 'align-top',
          },
          {
            header: t('admin.columns.status'),
            cell: (r) => (
              <div className="flex flex-col items-start gap-1">
                <Badge variant={r.status === 'draft' ? 'outline' : 'secondary'}>
                  {t(takedownStatusKeys[r.status as keyof typeof takedownStatusKeys])}
                </Badge>
                {r.abuse_contact && <span className="text-muted-foreground text-xs">{r.abuse_contact}</span>}
                {r.send_error && <span className="text-destructive text-xs">{r.send_error}</span>}
              </div>
            ),
            className: 'align-top',
          },
          { header: t('admin.columns.action'), cell: (r) => <Review row={r} />, className: 'align-top' },
        ]}
      />
    </>
  );
}

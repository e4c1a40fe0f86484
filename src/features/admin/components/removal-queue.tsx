import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage, toastError } from '@/lib/errors';
import { formatDate } from '@/lib/format';
import { moderationReasonLabel, moderationStatusLabel } from '@/lib/moderation-reasons';
import {
  useDecideRemoval,
  useRemovalDecisions,
  useRemovalQueue,
  type RemovalDecision,
  type RemovalQueueRow,
} from '@/features/admin/api/removals';
import { ReasonDialog } from './reason-dialog';

const decisionKeys = {
  keep: 'moderation.removals.keep',
  hide: 'moderation.removals.hide',
  remove: 'moderation.removals.remove',
} as const satisfies Record<RemovalDecision, string>;
/** Keep, hide, remove: in the order the buttons show them. */
const DECISIONS = Object.keys(decisionKeys) as RemovalDecision[];
const askKeys = {
  keep: 'moderation.removals.askKeep',
  hide: 'moderation.removals.askHide',
  remove: 'moderation.removals.askRemove',
} as const satisfies Record<RemovalDecision, string>;
const decidedKeys = {
  keep: 'moderation.removals.decidedKeep',
  hide: 'moderation.removals.decidedHide',
  remove: 'moderation.removals.decidedRemove',
} as const satisfies Record<RemovalDecision, string>;

/**
 * Removal requests (issue 27's queue) in the review workspace: the request, the reporter's answer or
 * their silence, the deadline; an admin keeps the report, hides it (rejected) or removes it, with a
 * reason the requester and the reporter both see (docs/moderation.md).
 */
export function RemovalQueue() {
  const { t } = useTranslation();
  const queue = useRemovalQueue();
  const decisions = useRemovalDecisions();
  const decide = useDecideRemoval();
  const [asking, setAsking] = useState<{ row: RemovalQueueRow; decision: RemovalDecision } | null>(null);
  return (
    <section className="mt-6" aria-labelledby="removal-queue">
      <h2 id="removal-queue" className="mb-1 text-lg font-semibold">
        {t('moderation.removals.title')}
      </h2>
      <p className="text-muted-foreground mb-2 text-sm">{t('moderation.removals.description')}</p>
      {queue.isError && <p className="text-destructive">{errorMessage(queue.error)}</p>}
      {queue.isPending && <Skeleton className="h-24 w-full" />}
      {queue.data && queue.data.length === 0 && (
        <p className="text-muted-foreground text-sm">{t('moderation.removals.empty')}</p>
      )}
      <ul className="flex flex-col gap-3">
        {queue.data?.map((row) => (
          <li key={row.request_id} className="rounded-md border p-3 text-sm" data-testid="removal-request">
            <div className="flex flex-wrap items-center gap-2">
              <span className="font-mono font-medium break-all">{row.reported_account}</span>
              <Badge variant="outline">{moderationStatusLabel(row.report_status)}</Badge>
              {row.escalated_at && <Badge variant="destructive">{t('moderation.removals.escalated')}</Badge>}
            </div>
            <p className="text-muted-foreground mt-1 text-xs">
              {t('moderation.removals.filed', { date: formatDate(row.requested_at) })}
              {' · '}
              {row.deadline
                ? t('moderation.removals.deadline', { date: formatDate(row.deadline) })
                : t('moderation.removals.unconfirmed')}
            </p>
            <p className="mt-2 text-xs font-medium">{t('moderation.removals.request')}</p>
            <blockquote className="border-l-2 pl-2 break-words whitespace-pre-wrap">{row.reason}</blockquote>
            <p className="mt-2 text-xs font-medium">{t('moderation.removals.answer')}</p>
            {row.reporter_response ? (
              <blockquote className="border-l-2 pl-2 break-words whitespace-pre-wrap">
                {row.reporter_response}
              </blockquote>
            ) : (
              <p className="text-muted-foreground">{t('moderation.removals.noAnswer')}</p>
            )}
            <div className="mt-3 flex flex-wrap gap-2">
              {DECISIONS.map((d) => (
                <Button
                  key={d}
                  size="sm"
                  variant={d === 'keep' ? 'default' : d === 'hide' ? 'outline' : 'destructive'}
                  onClick={() => setAsking({ row, decision: d })}
                  aria-label={t('moderation.removals.decideLabel', {
                    decision: t(decisionKeys[d]),
                    account: row.reported_account,
                  })}
                >
                  {t(decisionKeys[d])}
                </Button>
              ))}
            </div>
          </li>
        ))}
      </ul>
      {decisions.data && decisions.data.length > 0 && (
        <details className="mt-3 text-sm">
          <summary className="cursor-pointer">{t('moderation.removals.decided')}</summary>
          <ul className="mt-2 divide-y rounded-md border">
            {decisions.data.map((d) => (
              <li key={d.request_id} className="p-2 break-all">
                {formatDate(d.decided_at)} · {d.reported_account} ·{' '}
                {d.decision ? t(decisionKeys[d.decision]) : '—'}
                {d.decision_reason && ` · ${moderationReasonLabel(d.decision_reason)}`}
                {d.decided_by_email && ` · ${d.decided_by_email}`}
              </li>
            ))}
          </ul>
        </details>
      )}
      {asking && (
        <ReasonDialog
          open
          title={t(askKeys[asking.decision], { account: asking.row.reported_account })}
          description={t('moderation.removals.askDescription')}
          confirmLabel={t(decisionKeys[asking.decision])}
          busy={decide.isPending}
          onCancel={() => setAsking(null)}
          onConfirm={(reason, note) => {
            const { row, decision } = asking;
            setAsking(null);
            decide.mutate(
              { requestId: row.request_id, decision, reason, note },
              {
                onSuccess: () =>
                  toast.success(t(decidedKeys[decision], { account: row.reported_account }), {
                    id: 'moderation-decision',
                  }),
                onError: (error) => void toastError(error),
              },
            );
          }}
        />
      )}
    </section>
  );
}

import { useTranslation } from 'react-i18next';
import { moderationReasonLabel } from '@/lib/moderation-reasons';
import type { MyRemovalRequest } from '../api/removal-requests';

/** The removal request form's select (the results page's, and the dashboard's removal answers). */
export const selectClass =
  'border-input bg-background dark:bg-input/30 h-9 w-full rounded-md border px-2 text-sm shadow-xs focus-visible:ring-ring/50 focus-visible:ring-[3px] outline-none';

const decisionKeys = {
  keep: 'removal.mine.keep',
  hide: 'removal.mine.hide',
  remove: 'removal.mine.remove',
} as const;

/** Where one of the user's requests stands, in words. */
export function RequestState({ request }: { request: MyRemovalRequest }) {
  const { t } = useTranslation();
  if (request.decision)
    return (
      <>
        {t(decisionKeys[request.decision])}
        {request.decision_reason && ` · ${moderationReasonLabel(request.decision_reason)}`}
        {request.decision_note && ` · ${request.decision_note}`}
      </>
    );
  if (request.status === 'report_removed') return <>{t('removal.mine.remove')}</>;
  if (request.status === 'dismissed') return <>{t('removal.mine.keep')}</>;
  return <>{request.contact_confirmed_at ? t('removal.mine.waiting') : t('removal.mine.unconfirmed')}</>;
}

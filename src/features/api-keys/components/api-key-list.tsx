import { useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Ban } from 'lucide-react';
import { toast } from 'sonner';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { formatDate } from '@/lib/format';
import { useRevokeApiKey, type ApiKey } from '../api/api-keys';

/**
 * The keys the caller may see (their own; an admin sees every user's, marked as such), newest first,
 * each with its prefix, dates and state, and a Revoke button behind a confirmation.
 */
export function ApiKeyList({ keys, userId }: { keys: ApiKey[]; userId: string }) {
  const { t } = useTranslation();
  const revoke = useRevokeApiKey();
  const [confirming, setConfirming] = useState<ApiKey | null>(null);
  if (keys.length === 0) return <p className="text-muted-foreground">{t('apiKeys.none')}</p>;
  return (
    <>
      <ul className="divide-y rounded-md border" aria-label={t('apiKeys.listLabel')}>
        {keys.map((k) => (
          <li key={k.id} className="flex flex-wrap items-center gap-3 px-4 py-3">
            <div className="min-w-0 flex-1">
              <p className="flex flex-wrap items-center gap-2 font-medium">
                <span className="truncate">{k.name}</span>
                {k.revoked_at ? (
                  <Badge variant="secondary">{t('apiKeys.revoked')}</Badge>
                ) : (
                  <Badge variant="outline">{t('apiKeys.active')}</Badge>
                )}
                {k.user_id !== userId && <Badge variant="secondary">{t('apiKeys.othersKey')}</Badge>}
              </p>
              <p className="text-muted-foreground text-xs">
                <code className="font-mono">{k.prefix}…</code>
                {[
                  t('apiKeys.made', { date: formatDate(k.created_at) }),
                  t('apiKeys.lastUsed', {
                    date: k.last_used_at ? formatDate(k.last_used_at) : t('apiKeys.never'),
                  }),
                  ...(k.revoked_at ? [t('apiKeys.revokedOn', { date: formatDate(k.revoked_at) })] : []),
                ]
                  .map((part) => ` · ${part}`)
                  .join('')}
              </p>
            </div>
            {!k.revoked_at && (
              <Button
                variant="outline"
                size="sm"
                onClick={() => setConfirming(k)}
                aria-label={t('apiKeys.revokeNamed', { name: k.name })}
              >
                <Ban aria-hidden />
                {t('apiKeys.revoke')}
              </Button>
            )}
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={!!confirming}
        onOpenChange={(open) => !open && setConfirming(null)}
        pending={revoke.isPending}
        title={t('apiKeys.confirmTitle')}
        description={
          <Trans
            i18nKey="apiKeys.confirmText"
            values={{ name: confirming?.name ?? '', prefix: confirming?.prefix ?? '' }}
            components={{
              strong: <strong className="break-words" />,
              code: <code className="font-mono" />,
            }}
          />
        }
        keepLabel={t('apiKeys.keep')}
        action={
          <Button
            variant="destructive"
            disabled={revoke.isPending}
            onClick={() =>
              confirming &&
              revoke.mutate(confirming.id, {
                onSuccess: () => {
                  toast.success(t('apiKeys.revokedToast'));
                  setConfirming(null);
                },
              })
            }
          >
            {revoke.isPending ? t('apiKeys.revoking') : t('apiKeys.revokeKey')}
          </Button>
        }
      />
    </>
  );
}

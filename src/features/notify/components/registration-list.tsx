import { Trash2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { accountTypeLabel, formatDate } from '@/lib/format';
import { useDeleteRegistration, type NotifyRegistration } from '../api/registrations';

export function RegistrationList({ registrations }: { registrations: NotifyRegistration[] }) {
  const { t } = useTranslation();
  const remove = useDeleteRegistration();
  if (registrations.length === 0)
    return <p className="text-muted-foreground">{t('notify.registrations.none')}</p>;
  return (
    <ul className="divide-y rounded-md border" aria-label={t('notify.registrations.label')}>
      {registrations.map((r) => (
        <li key={r.id} className="flex items-center gap-3 px-4 py-3">
          <div className="min-w-0 flex-1">
            <p className="truncate font-medium">{r.identifier_canonical}</p>
            <p className="text-muted-foreground text-xs">
              {t('notify.registrations.since', {
                kind: accountTypeLabel(r.identifier_kind),
                date: formatDate(r.created_at),
              })}
            </p>
          </div>
          <Button
            variant="ghost"
            size="sm"
            disabled={remove.isPending && remove.variables === r.id}
            onClick={() => remove.mutate(r.id)}
            aria-label={t('notify.registrations.removeNamed', { identifier: r.identifier_canonical })}
          >
            <Trash2 aria-hidden />
            <span className="hidden sm:inline">{t('notify.registrations.remove')}</span>
          </Button>
        </li>
      ))}
    </ul>
  );
}

import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { Skeleton } from '@/components/ui/skeleton';
import { Textarea } from '@/components/ui/textarea';
import { useUser } from '@/lib/auth';
import { formatDate, incidentTypeLabel } from '@/lib/format';
import { moderationStatusLabel } from '@/lib/moderation-reasons';
import { useMyRemovalRequests } from '@/features/search/api/removal-requests';
import { RequestState, selectClass } from '@/features/search/components/removal-request-state';
import {
  ownerRemovalSchema,
  useOwnedReports,
  useOwnerRemoval,
  type OwnerRemovalInput,
} from '@/features/ownership/api/ownership';
import { ownershipError } from '@/features/ownership/components/shared';

/**
 * A verified owner asks for a report on their identifier to be removed: no e-mailed link (the proof
 * stands for it), so the reporter is told at once and an admin decides (docs/right-of-reply.md).
 */
export function OwnerRemoval({ identifier }: { identifier: string }) {
  const { t } = useTranslation();
  const user = useUser();
  const [open, setOpen] = useState(false);
  const [filed, setFiled] = useState(false);
  const reports = useOwnedReports(identifier, open);
  const mine = useMyRemovalRequests(user?.id);
  const file = useOwnerRemoval();
  const form = useForm<OwnerRemovalInput>({
    resolver: zodResolver(ownerRemovalSchema),
    defaultValues: { reportId: '', reason: '' },
  });
  const list = reports.data ?? [];
  const ids = new Set(list.map((r) => r.id));
  const myHere = (mine.data ?? []).filter((r) => ids.has(r.report_id));

  return (
    <section className="flex flex-col gap-3 border-t pt-4">
      <h3 className="font-semibold">{t('ownership.removal.title')}</h3>
      <p className="text-muted-foreground">{t('ownership.removal.description')}</p>
      {filed && (
        <p role="status" className="rounded-md border border-emerald-600/40 p-3">
          {t('ownership.removal.filed')}
        </p>
      )}
      {!open ? (
        <Button variant="outline" className="self-start" onClick={() => setOpen(true)}>
          {t('removal.open')}
        </Button>
      ) : reports.isPending ? (
        <Skeleton className="h-24" />
      ) : reports.error ? (
        <p role="alert" className="text-destructive">
          {ownershipError(t, reports.error)}
        </p>
      ) : list.length === 0 ? (
        <p>{t('removal.noReports')}</p>
      ) : (
        <Form {...form}>
          <form
            noValidate
            className="flex flex-col gap-3"
            onSubmit={form.handleSubmit((v) =>
              file.mutate(v, {
                onSuccess: () => {
                  setFiled(true);
                  setOpen(false);
                  form.reset({ reportId: '', reason: '' });
                },
                onError: (e) => form.setError('reason', { message: ownershipError(t, e) }),
              }),
            )}
          >
            <FormField
              control={form.control}
              name="reportId"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>{t('removal.form.report')}</FormLabel>
                  <FormControl>
                    <select className={selectClass} {...field}>
                      <option value="">{t('removal.form.chooseReport')}</option>
                      {list.map((r) => (
                        <option key={r.id} value={r.id}>
                          {formatDate(r.created_at)} · {incidentTypeLabel(r.incident_type)} ·{' '}
                          {moderationStatusLabel(r.status)}
                        </option>
                      ))}
                    </select>
                  </FormControl>
                  <FormMessage />
                </FormItem>
              )}
            />
            <FormField
              control={form.control}
              name="reason"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>{t('removal.form.reason')}</FormLabel>
                  <FormControl>
                    <Textarea rows={3} maxLength={5000} {...field} />
                  </FormControl>
                  <FormMessage />
                </FormItem>
              )}
            />
            <div className="flex flex-wrap gap-2">
              <Button type="submit" disabled={file.isPending}>
                {t('removal.form.submit')}
              </Button>
              <Button type="button" variant="outline" onClick={() => setOpen(false)}>
                {t('removal.form.cancel')}
              </Button>
            </div>
          </form>
        </Form>
      )}
      {myHere.length > 0 && (
        <ul className="divide-y rounded-md border" aria-label={t('removal.mine.title')}>
          {myHere.map((r) => (
            <li key={r.id} className="p-2 break-words">
              {formatDate(r.created_at)} · <RequestState request={r} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

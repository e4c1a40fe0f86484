import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import type { User } from '@supabase/supabase-js';
import { Button } from '@/components/ui/button';
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { toastError } from '@/lib/errors';
import { formatDate, incidentTypeLabel } from '@/lib/format';
import { moderationStatusLabel } from '@/lib/moderation-reasons';
import type { SearchReport } from '@/lib/search-result';
import {
  removalRequestSchema,
  useFileRemovalRequest,
  useMyRemovalRequests,
  type RemovalRequestInput,
} from '../api/removal-requests';
import { RequestState, selectClass } from './removal-request-state';

/**
 * The signed-in part of the results page's removal card (issue 31, src/features/search/components/removal-request.tsx):
 * the request form and the user's requests for these reports with the admins' decision. A chunk of its
 * own, loaded only for a signed-in user: its form library and validation (react-hook-form, zod) stay out
 * of the results page's first load, which is mostly signed-out visitors' (docs/performance.md).
 */
export default function RemovalRequestForm({
  user,
  reports: withIds,
}: {
  user: User;
  reports: (SearchReport & { id: string })[];
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const mine = useMyRemovalRequests(user.id);
  const file = useFileRemovalRequest(user.id);
  const ids = new Set(withIds.map((r) => r.id));
  const myHere = (mine.data ?? []).filter((r) => ids.has(r.report_id));
  const form = useForm<RemovalRequestInput>({
    resolver: zodResolver(removalRequestSchema),
    defaultValues: { reportId: withIds[0]?.id ?? '', reason: '', contactEmail: user.email ?? '' },
  });
  const onSubmit = (values: RemovalRequestInput) =>
    file.mutate(values, {
      onSuccess: () => {
        setSentTo(values.contactEmail.trim());
        setOpen(false);
        form.reset({ ...values, reason: '' });
      },
      onError: (error) => void toastError(error),
    });

  return (
    <>
      {sentTo && (
        <p role="status" className="rounded-md border border-emerald-600/40 p-3">
          {t('removal.sent', { email: sentTo })}
        </p>
      )}
      {!open ? (
        <Button
          variant="outline"
          className="self-start"
          onClick={() => {
            // The session may arrive after the first render: the address is filled in on opening.
            if (!form.getValues('contactEmail')) form.setValue('contactEmail', user.email ?? '');
            if (!form.getValues('reportId')) form.setValue('reportId', withIds[0].id);
            setOpen(true);
          }}
        >
          {t('removal.open')}
        </Button>
      ) : (
        <Form {...form}>
          <form onSubmit={form.handleSubmit(onSubmit)} className="flex flex-col gap-4" noValidate>
            <FormField
              control={form.control}
              name="reportId"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>{t('removal.form.report')}</FormLabel>
                  <FormControl>
                    <select className={selectClass} {...field}>
                      {withIds.map((r) => (
                        <option key={r.id} value={r.id}>
                          {formatDate(r.reported_date)} · {incidentTypeLabel(r.incident_type)} ·{' '}
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
                    <Textarea rows={4} maxLength={5000} {...field} />
                  </FormControl>
                  <FormMessage />
                </FormItem>
              )}
            />
            <FormField
              control={form.control}
              name="contactEmail"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>{t('removal.form.email')}</FormLabel>
                  <FormControl>
                    <Input type="email" autoComplete="email" {...field} />
                  </FormControl>
                  <FormMessage />
                </FormItem>
              )}
            />
            <p className="text-muted-foreground">{t('removal.form.how')}</p>
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
        <section aria-label={t('removal.mine.title')}>
          <h3 className="mb-1 font-medium">{t('removal.mine.title')}</h3>
          <ul className="divide-y rounded-md border" data-testid="my-removal-requests">
            {myHere.map((r) => (
              <li key={r.id} className="p-2 break-words">
                {formatDate(r.created_at)} · <RequestState request={r} />
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}

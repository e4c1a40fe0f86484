import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Trans, useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { paths } from '@/config/paths';
import { useUser } from '@/lib/auth';
import { toastError } from '@/lib/errors';
import { formatDate, incidentTypeLabel } from '@/lib/format';
import { moderationReasonLabel, moderationStatusLabel } from '@/lib/moderation-reasons';
import type { SearchReport } from '@/lib/search-result';
import {
  removalRequestSchema,
  useFileRemovalRequest,
  useMyRemovalRequests,
  type MyRemovalRequest,
  type RemovalRequestInput,
} from '../api/removal-requests';

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

/**
 * "This report is wrong / I own this identifier" on the results page (issue 31): files the removal
 * request the legacy API files (its contact address confirmed by an e-mailed link), and lists the
 * user's requests for these reports with the admins' decision and reason.
 */
export function RemovalRequest({ reports, returnTo }: { reports: SearchReport[]; returnTo: string }) {
  const { t } = useTranslation();
  const user = useUser();
  const [open, setOpen] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const mine = useMyRemovalRequests(user?.id);
  const file = useFileRemovalRequest(user?.id);
  const withIds = reports.filter((r): r is SearchReport & { id: string } => !!r.id);
  const ids = new Set(withIds.map((r) => r.id));
  const myHere = (mine.data ?? []).filter((r) => ids.has(r.report_id));
  const form = useForm<RemovalRequestInput>({
    resolver: zodResolver(removalRequestSchema),
    defaultValues: { reportId: withIds[0]?.id ?? '', reason: '', contactEmail: user?.email ?? '' },
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
    <Card data-testid="removal-request-card">
      <CardHeader>
        <CardTitle>
          <h2 className="text-lg">{t('removal.title')}</h2>
        </CardTitle>
        <CardDescription>{t('removal.description')}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4 text-sm">
        <p data-testid="owner-reply-link">
          <Trans
            i18nKey="removal.owner"
            components={{
              prove: (
                <Link
                  to={paths.dashboard.ownership.getHref()}
                  className="text-primary font-medium underline underline-offset-4"
                />
              ),
            }}
          />
        </p>
        {!user ? (
          <p>
            <Trans
              i18nKey="removal.signIn"
              components={{
                login: (
                  <Link
                    to={paths.auth.login.getHref(returnTo)}
                    className="text-primary underline underline-offset-4"
                  />
                ),
              }}
            />
          </p>
        ) : withIds.length === 0 ? (
          <p className="text-muted-foreground">{t('removal.noReports')}</p>
        ) : (
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
        )}
      </CardContent>
    </Card>
  );
}

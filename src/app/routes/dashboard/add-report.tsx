import { useCallback, useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { toast } from 'sonner';
import { Trans, useTranslation } from 'react-i18next';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Card, CardContent } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { useUser } from '@/lib/auth';
import { duplicateReportOf, useCreateReport } from '@/features/reports/api/create-report';
import { emptyReportForm, type ReportFormValues } from '@/features/reports/api/report-form-schema';
import { ACCOUNT_TYPES } from '@/features/reports/api/types';
import { ComplaintRedirect } from '@/features/reports/components/complaint-redirect';
import { ReportForm } from '@/features/reports/components/report-form';
import { PageHeader } from '@/components/layouts/page-header';

/**
 * Fields a page may fill in before the form opens (the message check's "Report this"): the kind,
 * the identifier and the message as the description, all still editable. Anything else is ignored.
 */
function prefilled(state: unknown): ReportFormValues {
  const base = emptyReportForm();
  const p = (state as { prefill?: Record<string, unknown> } | null)?.prefill;
  if (!p) return base;
  const type = ACCOUNT_TYPES.find((t) => t === p.reportedAccountType);
  return {
    ...base,
    ...(type ? { reportedAccountType: type } : {}),
    ...(typeof p.reportedAccount === 'string' ? { reportedAccount: p.reportedAccount.slice(0, 320) } : {}),
    ...(typeof p.incidentDescription === 'string'
      ? { incidentDescription: p.incidentDescription.slice(0, 5000) }
      : {}),
  };
}

export function Component() {
  const { t } = useTranslation();
  const user = useUser();
  const { state } = useLocation();
  const [redirecting, setRedirecting] = useState(false);
  const [defaults] = useState(() => prefilled(state));
  const create = useCreateReport();
  const stopRedirect = useCallback(() => setRedirecting(false), []);
  const duplicate = duplicateReportOf(create.error);

  return (
    <>
      <PageHeader
        title={t('reports.add.title')}
        description={
          <Trans
            i18nKey="reports.add.description"
            components={{
              reports: (
                <Link
                  to={paths.dashboard.allReports.getHref()}
                  className="text-primary underline underline-offset-4"
                />
              ),
            }}
          />
        }
      />
      {redirecting && (
        <div className="mb-6">
          <ComplaintRedirect onDone={stopRedirect} />
        </div>
      )}
      {duplicate && (
        <Alert variant="destructive" className="mb-6">
          <AlertTitle className="line-clamp-none">{t('reports.add.duplicateTitle')}</AlertTitle>
          <AlertDescription>
            <p>{duplicate.message}</p>
            <Link
              to={paths.dashboard.editReport.getHref(duplicate.reportId)}
              className="font-medium underline underline-offset-4"
            >
              {t('reports.add.editExisting')}
            </Link>
          </AlertDescription>
        </Alert>
      )}
      <Card>
        <CardContent>
          <ReportForm
            defaultValues={defaults}
            isPending={create.isPending}
            onSubmit={(values, reset) =>
              create.mutate(
                { values, userId: user!.id },
                {
                  onSuccess: () => {
                    toast.success(t('reports.add.created'));
                    reset();
                    if (values.consentToContact !== 'yes') setRedirecting(true);
                  },
                },
              )
            }
          />
        </CardContent>
      </Card>
    </>
  );
}

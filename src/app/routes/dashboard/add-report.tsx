import { useCallback, useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { toast } from 'sonner';
import { Trans, useTranslation } from 'react-i18next';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { useUser } from '@/lib/auth';
import { duplicateReportOf, useCreateReport } from '@/features/reports/api/create-report';
import { downloadEvidence } from '@/features/reports/api/get-evidence-url';
import {
  emptyReportForm,
  type ReportFormInput,
  type ReportFormValues,
} from '@/features/reports/api/report-form-schema';
import { AfterScamChecklist } from '@/features/after-scam/components/after-scam-checklist';
import { ComplaintPackButton } from '@/features/after-scam/components/complaint-pack-button';
import type { PackSource } from '@/features/after-scam/api/pack-source';
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

/** The complaint pack's starting point from the report just filed, with its stored images. */
function packSource(values: ReportFormInput, id: string, evidencePaths: string[]): PackSource {
  const amount = values.amountLost.replace(/,/g, '');
  return {
    identifiers: [{ kind: values.reportedAccountType, written: values.reportedAccount.trim() }],
    incidentType: values.incidentType,
    incidentDate: values.incidentDate,
    description: values.incidentDescription,
    amountLost: amount === '' ? null : Number(amount),
    reportId: id,
    loadEvidence: () => downloadEvidence(evidencePaths),
  };
}

export function Component() {
  const { t } = useTranslation();
  const user = useUser();
  const { state } = useLocation();
  const [redirecting, setRedirecting] = useState(false);
  const [defaults] = useState(() => prefilled(state));
  const [filed, setFiled] = useState<PackSource | null>(null);
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
      {filed && (
        <Card className="mb-6" data-testid="after-filing">
          <CardHeader>
            <CardTitle>{t('afterScam.title')}</CardTitle>
            <CardDescription>{t('afterScam.afterFilingIntro')}</CardDescription>
          </CardHeader>
          <CardContent className="flex flex-col gap-4">
            <ComplaintPackButton source={filed} className="w-fit" />
            <AfterScamChecklist />
          </CardContent>
        </Card>
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
                  onSuccess: ({ id, evidencePaths }) => {
                    toast.success(t('reports.add.created'));
                    setFiled(packSource(values, id, evidencePaths));
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

import { useEffect } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import type { QueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { useTranslation } from 'react-i18next';
import { Card, CardContent } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { paths } from '@/config/paths';
import { downloadEvidence, useEvidenceUrls } from '@/features/reports/api/get-evidence-url';
import { ComplaintPackButton } from '@/features/after-scam/components/complaint-pack-button';
import { getReportQueryOptions, useReport } from '@/features/reports/api/get-report';
import { reportToForm } from '@/features/reports/api/report-form-schema';
import { useUpdateReport } from '@/features/reports/api/update-report';
import { ReportForm } from '@/features/reports/components/report-form';
import { ReportStatusBadge } from '@/components/report-status-badge';
import { PageHeader } from '@/components/layouts/page-header';

export const clientLoader =
  (queryClient: QueryClient) =>
  async ({ params }: { params: { id?: string } }) => {
    if (params.id) void queryClient.prefetchQuery(getReportQueryOptions(params.id));
    return null;
  };

/** Edit a report (edit-report/:id, also all-reports/:id): the filing form, filled in. */
export function Component() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const report = useReport(id);
  const evidence = useEvidenceUrls(report.data?.evidence_paths);
  const update = useUpdateReport({
    onSuccess: () => {
      toast.success(t('reports.edit.updated'));
      navigate(paths.dashboard.allReports.getHref());
    },
  });

  // docs/behaviour.md §4: a report that cannot be loaded sends the user back to My Reports.
  // The query's error path shows the reason as a toast.
  useEffect(() => {
    if (report.isError) navigate(paths.dashboard.allReports.getHref(), { replace: true });
  }, [report.isError, navigate]);

  return (
    <>
      <PageHeader
        title={t('reports.edit.title')}
        description={t('reports.edit.description')}
        actions={
          report.data && (
            <div className="flex flex-wrap items-center gap-2">
              <ReportStatusBadge status={report.data.status} />
              <ComplaintPackButton
                source={{
                  identifiers: [
                    { kind: report.data.reported_account_type, written: report.data.reported_account },
                  ],
                  incidentType: report.data.incident_type,
                  incidentDate: report.data.incident_date,
                  description: report.data.incident_description ?? '',
                  amountLost: report.data.amount_lost == null ? null : Number(report.data.amount_lost),
                  reportId: report.data.id,
                  loadEvidence: () => downloadEvidence(report.data.evidence_paths),
                }}
              />
            </div>
          )
        }
      />
      <Card>
        <CardContent>
          {report.data ? (
            <ReportForm
              key={report.data.id}
              defaultValues={reportToForm(report.data)}
              evidenceUrls={evidence.data}
              isPending={update.isPending}
              onSubmit={(values) => update.mutate({ report: report.data, values })}
            />
          ) : (
            <Skeleton className="h-96 w-full" aria-label={t('reports.edit.loading')} />
          )}
        </CardContent>
      </Card>
    </>
  );
}

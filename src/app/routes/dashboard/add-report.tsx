import { useCallback, useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import type { QueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Card, CardContent } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { useUser } from '@/lib/auth';
import { duplicateReportOf, useCreateReport } from '@/features/reports/api/create-report';
import {
  getVisitorLocationQueryOptions,
  useVisitorLocation,
} from '@/features/reports/api/get-visitor-location';
import { emptyReportForm, type ReportFormValues } from '@/features/reports/api/report-form-schema';
import { ACCOUNT_TYPES } from '@/features/reports/api/types';
import { ComplaintRedirect } from '@/features/reports/components/complaint-redirect';
import { ReportForm } from '@/features/reports/components/report-form';
import { PageHeader } from '@/components/layouts/page-header';

export const clientLoader = (queryClient: QueryClient) => async () => {
  // The server-side location lookup runs while the user fills the form.
  void queryClient.prefetchQuery(getVisitorLocationQueryOptions());
  return null;
};

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
  const user = useUser();
  const { state } = useLocation();
  const location = useVisitorLocation();
  const [redirecting, setRedirecting] = useState(false);
  const [defaults] = useState(() => prefilled(state));
  const create = useCreateReport();
  const stopRedirect = useCallback(() => setRedirecting(false), []);
  const duplicate = duplicateReportOf(create.error);

  return (
    <>
      <PageHeader
        title="Report a scam"
        description={
          <>
            Your report warns the next person. It is reviewed before it shows as verified; your name is never
            shown.{' '}
            <Link
              to={paths.dashboard.allReports.getHref()}
              className="text-primary underline underline-offset-4"
            >
              See my reports
            </Link>
          </>
        }
      />
      {redirecting && (
        <div className="mb-6">
          <ComplaintRedirect onDone={stopRedirect} />
        </div>
      )}
      {duplicate && (
        <Alert variant="destructive" className="mb-6">
          <AlertTitle>You already reported this</AlertTitle>
          <AlertDescription>
            <p>{duplicate.message}</p>
            <Link
              to={paths.dashboard.editReport.getHref(duplicate.reportId)}
              className="font-medium underline underline-offset-4"
            >
              Edit your existing report
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
                { values, userId: user!.id, location: location.data ?? null },
                {
                  onSuccess: () => {
                    toast.success('Reported Sucessfully');
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

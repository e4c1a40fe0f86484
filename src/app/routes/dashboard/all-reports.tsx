import { Link } from 'react-router-dom';
import { FilePlus2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { paths } from '@/config/paths';
import { useUser } from '@/lib/auth';
import { useReports } from '@/features/reports/api/get-reports';
import { ReportCard } from '@/features/reports/components/report-card';
import { useReportRemovalRequests } from '@/features/reports/api/removal-answers';
import { PageHeader } from '@/components/layouts/page-header';

export function Component() {
  const { t } = useTranslation();
  const user = useUser();
  const reports = useReports(user?.id);
  const removalRequests = useReportRemovalRequests(user?.id);

  return (
    <>
      <PageHeader
        title={t('reports.list.title')}
        description={t('reports.list.description')}
        actions={
          <Button asChild>
            <Link to={paths.dashboard.addReport.getHref()}>
              <FilePlus2 aria-hidden />
              {t('reports.list.add')}
            </Link>
          </Button>
        }
      />
      {reports.isPending ? (
        <div
          className="grid grid-cols-1 gap-4 xl:grid-cols-2"
          aria-busy="true"
          aria-label={t('reports.list.loading')}
        >
          <Skeleton className="h-52" />
          <Skeleton className="h-52" />
        </div>
      ) : reports.data && reports.data.length > 0 ? (
        <ul className="grid grid-cols-1 gap-4 xl:grid-cols-2">
          {reports.data.map((report) => (
            <li key={report.id}>
              <ReportCard
                report={report}
                removalRequests={removalRequests.data?.filter((r) => r.report_id === report.id)}
              />
            </li>
          ))}
        </ul>
      ) : (
        <div className="flex flex-col items-center gap-4 rounded-lg border border-dashed p-10 text-center">
          <h2 className="text-xl font-semibold">{t('reports.list.emptyTitle')}</h2>
          <p className="text-muted-foreground">{t('reports.list.emptyText')}</p>
          <Button asChild variant="outline">
            <Link to={paths.dashboard.addReport.getHref()}>{t('reports.list.emptyAction')}</Link>
          </Button>
        </div>
      )}
    </>
  );
}

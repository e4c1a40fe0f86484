import { Link } from 'react-router-dom';
import { FilePlus2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { paths } from '@/config/paths';
import { useUser } from '@/lib/auth';
import { useReports } from '@/features/reports/api/get-reports';
import { ReportCard } from '@/features/reports/components/report-card';
import { PageHeader } from '@/components/layouts/page-header';

export function Component() {
  const user = useUser();
  const reports = useReports(user?.id);

  return (
    <>
      <PageHeader
        title="My Reports"
        description="Everything you reported, with how many people reported the same account."
        actions={
          <Button asChild>
            <Link to={paths.dashboard.addReport.getHref()}>
              <FilePlus2 aria-hidden />
              Add report
            </Link>
          </Button>
        }
      />
      {reports.isPending ? (
        <div className="grid grid-cols-1 gap-4 xl:grid-cols-2" aria-busy="true" aria-label="Loading reports">
          <Skeleton className="h-52" />
          <Skeleton className="h-52" />
        </div>
      ) : reports.data && reports.data.length > 0 ? (
        <ul className="grid grid-cols-1 gap-4 xl:grid-cols-2">
          {reports.data.map((report) => (
            <li key={report.id}>
              <ReportCard report={report} />
            </li>
          ))}
        </ul>
      ) : (
        <div className="flex flex-col items-center gap-4 rounded-lg border border-dashed p-10 text-center">
          <h2 className="text-xl font-semibold">No Reports Found</h2>
          <p className="text-muted-foreground">Reports you file appear here.</p>
          <Button asChild variant="outline">
            <Link to={paths.dashboard.addReport.getHref()}>Report a scam</Link>
          </Button>
        </div>
      )}
    </>
  );
}

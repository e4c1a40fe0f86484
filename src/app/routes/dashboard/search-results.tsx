import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { Skeleton } from '@/components/ui/skeleton';
import { paths } from '@/config/paths';
import { useAuth } from '@/lib/auth';
import { toastError } from '@/lib/errors';
import { FullReportDialog } from '@/features/reports/components/full-report-dialog';
import { useSearchReports } from '@/features/search/api/search-reports';
import { SearchForm } from '@/features/search/components/search-form';
import { SearchResults } from '@/features/search/components/search-results';
import { PageHeader } from './page-header';

/** Results for signed-in users: every column, the heatmap, and each report opening in full. */
export function Component() {
  const { id: searchString = '' } = useParams();
  const { user, ready } = useAuth();
  const navigate = useNavigate();
  const search = useSearchReports(searchString, user?.id ?? null, { enabled: ready && !!user });
  const [openReport, setOpenReport] = useState<string | null>(null);

  // SPEC.md section 4: a failed search on the dashboard goes back to /dashboard.
  useEffect(() => {
    if (search.isError) {
      toastError(search.error);
      navigate(paths.dashboard.root.getHref(), { replace: true });
    }
  }, [search.isError, search.error, navigate]);

  return (
    <>
      <PageHeader title="Search results" />
      <SearchForm
        key={searchString}
        defaultValue={searchString}
        hrefFor={paths.dashboard.searchResults.getHref}
        className="mb-8 max-w-2xl"
      />
      {search.data ? (
        <SearchResults
          searchString={searchString}
          result={search.data}
          signedIn
          fullReportHref={paths.dashboard.searchResults.getHref(searchString)}
          onViewReport={(report) => report.id && setOpenReport(report.id)}
        />
      ) : (
        <div className="flex flex-col gap-4" aria-busy="true" aria-label="Searching">
          <Skeleton className="h-10 w-64" />
          <Skeleton className="h-40 w-full" />
        </div>
      )}
      <FullReportDialog reportId={openReport} onClose={() => setOpenReport(null)} />
    </>
  );
}

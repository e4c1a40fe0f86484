import { useEffect, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Skeleton } from '@/components/ui/skeleton';
import { paths } from '@/config/paths';
import { useAuth } from '@/lib/auth';
import { useSearchReports, type SearchReport, type SearchResult } from '../api/search-reports';
import { SearchResults } from './search-results';

/**
 * One search page's body, for the public /search/:searchString and the dashboard's results: runs the
 * search once the stored session is known (a signed-in user's search returns more columns than
 * anon's), shows the results, and on failure shows the error as a toast and goes to `fallbackHref`
 * (docs/behaviour.md: home for the public page, /dashboard for the dashboard's).
 */
export function SearchOutcome({
  searchString,
  fallbackHref,
  signedInOnly = false,
  onViewReport,
  after,
}: {
  searchString: string;
  fallbackHref: string;
  /** Wait for a signed-in user before searching (the dashboard's page). */
  signedInOnly?: boolean;
  onViewReport?: (report: SearchReport) => void;
  /** What the page shows below an answer, given that answer (the results page's "what to do now"). */
  after?: (result: SearchResult) => ReactNode;
}) {
  const { t } = useTranslation();
  const { user, ready } = useAuth();
  const navigate = useNavigate();
  const search = useSearchReports(searchString, user?.id ?? null, {
    enabled: ready && (!signedInOnly || !!user),
  });

  // The query's error path shows the reason as a toast; the page leaves.
  useEffect(() => {
    if (search.isError) navigate(fallbackHref, { replace: true });
  }, [search.isError, navigate, fallbackHref]);

  if (!search.data) {
    return (
      <div
        className="flex flex-col gap-4"
        role="status"
        aria-busy="true"
        aria-label={t('search.results.searching')}
      >
        <Skeleton className="h-10 w-64" />
        <Skeleton className="h-40 w-full" />
        <Skeleton className="h-[40vh] w-full" />
      </div>
    );
  }
  return (
    <>
      <SearchResults
        searchString={searchString}
        result={search.data}
        signedIn={!!user}
        fullReportHref={paths.dashboard.searchResults.getHref(searchString)}
        onViewReport={onViewReport}
      />
      {after?.(search.data)}
    </>
  );
}

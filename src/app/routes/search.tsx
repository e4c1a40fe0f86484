import { useEffect } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { Skeleton } from '@/components/ui/skeleton';
import { paths } from '@/config/paths';
import { useAuth } from '@/lib/auth';
import { toastError } from '@/lib/errors';
import { useSearchReports } from '@/features/search/api/search-reports';
import { SearchForm } from '@/features/search/components/search-form';
import { SearchResults } from '@/features/search/components/search-results';

export function Component() {
  const { searchString = '' } = useParams();
  const { user, ready } = useAuth();
  const navigate = useNavigate();
  // Wait for the stored session: a signed-in user's search returns more columns than anon's.
  const search = useSearchReports(searchString, user?.id ?? null, { enabled: ready });

  // SPEC.md section 4: a failed search from the home page goes back home, with the error as a toast.
  useEffect(() => {
    if (search.isError) {
      toastError(search.error);
      navigate(paths.home.getHref(), { replace: true });
    }
  }, [search.isError, search.error, navigate]);

  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-8 px-4 py-10">
      <header className="flex flex-col gap-4">
        <h1 className="text-3xl font-bold tracking-tight">Search results</h1>
        <SearchForm key={searchString} defaultValue={searchString} className="max-w-2xl" />
      </header>
      {search.data ? (
        <SearchResults
          searchString={searchString}
          result={search.data}
          signedIn={!!user}
          fullReportHref={paths.dashboard.searchResults.getHref(searchString)}
        />
      ) : (
        <div className="flex flex-col gap-4" role="status" aria-busy="true" aria-label="Searching">
          <Skeleton className="h-10 w-64" />
          <Skeleton className="h-40 w-full" />
          <Skeleton className="h-[40vh] w-full" />
        </div>
      )}
    </div>
  );
}

import { useParams } from 'react-router-dom';
import { Link } from 'react-router-dom';
import { Trans, useTranslation } from 'react-i18next';
import { Skeleton } from '@/components/ui/skeleton';
import { paths } from '@/config/paths';
import { useAuth } from '@/lib/auth';
import { errorMessage } from '@/lib/errors';
import { useSearchTopIdentifier } from '@/features/public-stats/api/search-top-identifier';
import { SearchResults } from '@/features/search/components/search-results';

/**
 * The search of a masked most-reported identifier, opened from /statistics by its handle: the results
 * are search_reports' (anonymous visitors get the limited columns), the identifier stays masked.
 */
export function Component() {
  const { t } = useTranslation();
  const { ref = '' } = useParams();
  const { user, ready } = useAuth();
  const search = useSearchTopIdentifier(ref, user?.id ?? null, ready);
  const result = search.data;
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-8 px-4 py-10">
      <header className="flex flex-col gap-2">
        <h1 className="text-3xl font-bold tracking-tight">{t('search.results.title')}</h1>
        <p className="text-muted-foreground">
          <Trans
            i18nKey="statistics.top.lead"
            components={{
              statistics: (
                <Link to={paths.statistics.getHref()} className="text-primary underline underline-offset-4" />
              ),
            }}
          />
        </p>
      </header>
      {search.isError && <p className="text-destructive">{errorMessage(search.error)}</p>}
      {result ? (
        <SearchResults
          searchString={t('statistics.top.searchString')}
          result={result}
          signedIn={!!user}
          fullReportHref={paths.statistics.getHref()}
        />
      ) : (
        !search.isError && (
          <div
            className="flex flex-col gap-4"
            role="status"
            aria-busy="true"
            aria-label={t('search.results.searching')}
          >
            <Skeleton className="h-40 w-full" />
          </div>
        )
      )}
    </div>
  );
}

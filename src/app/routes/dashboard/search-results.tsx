import { useState } from 'react';
import { useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '@/components/layouts/page-header';
import { paths } from '@/config/paths';
import { FullReportDialog } from '@/features/reports/components/full-report-dialog';
import { SearchForm } from '@/features/search/components/search-form';
import { SearchOutcome } from '@/features/search/components/search-outcome';
import { AfterScamHelp } from '@/features/after-scam/components/after-scam-help';

/** Results for signed-in users: every column, the heatmap, and each report opening in full. */
export function Component() {
  const { t } = useTranslation();
  const { id: searchString = '' } = useParams();
  const [openReport, setOpenReport] = useState<string | null>(null);
  return (
    <>
      <PageHeader title={t('search.results.title')} />
      <SearchForm
        key={searchString}
        defaultValue={searchString}
        hrefFor={paths.dashboard.searchResults.getHref}
        className="mb-8 max-w-2xl"
      />
      <SearchOutcome
        searchString={searchString}
        fallbackHref={paths.dashboard.root.getHref()}
        signedInOnly
        onViewReport={(report) => report.id && setOpenReport(report.id)}
        after={(result) => <AfterScamHelp searchString={searchString} result={result} />}
      />
      <FullReportDialog reportId={openReport} onClose={() => setOpenReport(null)} />
    </>
  );
}

import { useState } from 'react';
import { useParams } from 'react-router-dom';
import { PageHeader } from '@/components/layouts/page-header';
import { paths } from '@/config/paths';
import { FullReportDialog } from '@/features/reports/components/full-report-dialog';
import { SearchForm } from '@/features/search/components/search-form';
import { SearchOutcome } from '@/features/search/components/search-outcome';

/** Results for signed-in users: every column, the heatmap, and each report opening in full. */
export function Component() {
  const { id: searchString = '' } = useParams();
  const [openReport, setOpenReport] = useState<string | null>(null);
  return (
    <>
      <PageHeader title="Search results" />
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
      />
      <FullReportDialog reportId={openReport} onClose={() => setOpenReport(null)} />
    </>
  );
}

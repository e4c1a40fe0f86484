import { Card, CardContent } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { SearchForm } from '@/features/search/components/search-form';
import { PageHeader } from '@/components/layouts/page-header';

/** The dashboard's search form (field searchString); results open under /dashboard/search/:id. */
export function Component() {
  return (
    <>
      <PageHeader
        title="Search"
        description="Check a number, e-mail, website, e-wallet or crypto address against every report."
      />
      <Card className="max-w-3xl">
        <CardContent className="flex flex-col gap-3">
          <SearchForm hrefFor={paths.dashboard.searchResults.getHref} />
          <p className="text-muted-foreground text-sm">
            For example: <code>https://gcash-rewards-ph.com</code>, <code>0917 555 0142</code> or{' '}
            <code>claims@bpi-secure-verify.com</code>.
          </p>
        </CardContent>
      </Card>
    </>
  );
}

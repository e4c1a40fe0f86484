import { Trans, useTranslation } from 'react-i18next';
import { Card, CardContent } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { SearchForm } from '@/features/search/components/search-form';
import { PageHeader } from '@/components/layouts/page-header';

/** The dashboard's search form (field searchString); results open under /dashboard/search/:id. */
export function Component() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('dashboard.nav.search')} description={t('dashboard.search.description')} />
      <Card className="max-w-3xl">
        <CardContent className="flex flex-col gap-3">
          <SearchForm hrefFor={paths.dashboard.searchResults.getHref} />
          <p className="text-muted-foreground text-sm">
            <Trans
              i18nKey="dashboard.search.examples"
              values={{
                website: 'https://gcash-rewards-ph.com',
                mobile: '0917 555 0142',
                email: 'claims@bpi-secure-verify.com',
              }}
              components={{ code: <code /> }}
            />
          </p>
        </CardContent>
      </Card>
    </>
  );
}

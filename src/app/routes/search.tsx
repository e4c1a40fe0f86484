import type { ReactNode } from 'react';
import { useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { paths } from '@/config/paths';
import { SearchForm } from '@/features/search/components/search-form';
import { SearchOutcome } from '@/features/search/components/search-outcome';
import { AfterScamHelp } from '@/features/after-scam/components/after-scam-help';

/**
 * The results page's frame: its title and search box above the answer. index.html's results shell
 * (src/boot/build/render-page-shells.tsx) renders the same frame, so React's first commit replaces it unchanged.
 */
export function SearchPageFrame({ searchString, children }: { searchString: string; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-8 px-4 py-10">
      <header className="flex flex-col gap-4">
        <h1 className="text-3xl font-bold tracking-tight">{t('search.results.title')}</h1>
        <SearchForm key={searchString} defaultValue={searchString} className="max-w-2xl" />
      </header>
      {children}
    </div>
  );
}

export function Component() {
  const { searchString = '' } = useParams();
  return (
    <SearchPageFrame searchString={searchString}>
      <SearchOutcome
        searchString={searchString}
        fallbackHref={paths.home.getHref()}
        after={(result) => <AfterScamHelp searchString={searchString} result={result} />}
      />
    </SearchPageFrame>
  );
}

/**
 * The page shell's markup (src/boot/page-shell.ts): the build renders the home page with the app's own
 * components, for a signed-out visitor before any data arrives, in each language and theme; index.html
 * shows the right one until React renders the same page over it.
 *
 * Runs only at build time, in Node (vite.config.ts's page-shell plugin); the app never imports it.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToString } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router-dom';
import { PublicLayout } from '@/components/layouts/public-layout';
import { i18n } from '@/i18n';
import fil from '@/i18n/locales/fil.json';
import { AuthProvider } from '@/lib/auth';
import { ThemeProvider } from '@/lib/theme';
import {
  PAGE_SHELL_LANGUAGES,
  PAGE_SHELL_THEMES,
  pageShellTemplateId,
  RESULTS_SHELL_TERM,
  resultsShellTemplateId,
  type PageShellTheme,
} from '@/boot/page-shell';
import type { HeadlineTone } from '@/lib/search-headline';
import { SearchHeadline } from '@/features/search/components/search-headline';
import {
  DetailsSkeleton,
  NoResults,
  SEARCH_RESULTS_CLASS,
} from '@/features/search/components/search-results';
import { Component as HomePage } from '@/app/routes/home';
import { SearchPageFrame } from '@/app/routes/search';

const routes = [{ path: '/', element: <PublicLayout />, children: [{ index: true, element: <HomePage /> }] }];

/** The themes differ only in the header's theme switch; the colours come from <html class="dark">. */
async function renderHome(language: string, theme: PageShellTheme): Promise<string> {
  await i18n.changeLanguage(language);
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request('http://localhost/'));
  if (context instanceof Response) throw new Error(`page shell: the home page answered ${context.status}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  return renderToString(
    <QueryClientProvider client={new QueryClient()}>
      <I18nextProvider i18n={i18n}>
        <ThemeProvider initialDark={theme === 'dark'}>
          <AuthProvider>
            <StaticRouterProvider router={router} context={context} hydrate={false} />
          </AuthProvider>
        </ThemeProvider>
      </I18nextProvider>
    </QueryClientProvider>,
  );
}

/** A sample answer of each tone; the shell script puts the real sentence and searched value in. */
const SAMPLE_ANSWERS: Record<HeadlineTone, { count: number; reports: { status: string }[] }> = {
  none: { count: 0, reports: [] },
  pending: { count: 1, reports: [{ status: 'not-verified' }] },
  verified: { count: 1, reports: [{ status: 'verified' }] },
};

/**
 * The results page as React first paints it once the answer is in (src/boot/page-shell.ts,
 * showResultsShell): the frame, then for each tone its headline and what follows it (the "No Results
 * Found" advice, or the places of the summary and map). The script keeps the answer's tone, drops the
 * other two and unwraps it.
 */
function ResultsShell() {
  return (
    <SearchPageFrame searchString="">
      <div className={SEARCH_RESULTS_CLASS}>
        {(Object.keys(SAMPLE_ANSWERS) as HeadlineTone[]).map((tone) => (
          <div key={tone} data-shell-tone={tone}>
            <SearchHeadline answer={SAMPLE_ANSWERS[tone]} searchString={RESULTS_SHELL_TERM} />
            {tone === 'none' ? <NoResults /> : <DetailsSkeleton />}
          </div>
        ))}
      </div>
    </SearchPageFrame>
  );
}

/** The results shell's markup and the headline's sentences in the current language (the script's data). */
async function renderResults(language: string, theme: PageShellTheme): Promise<string> {
  await i18n.changeLanguage(language);
  const routes = [
    { path: '/', element: <PublicLayout />, children: [{ path: 'search/:q', element: <ResultsShell /> }] },
  ];
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request('http://localhost/search/shell'));
  if (context instanceof Response) throw new Error(`page shell: the results page answered ${context.status}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  const html = renderToString(
    <QueryClientProvider client={new QueryClient()}>
      <I18nextProvider i18n={i18n}>
        <ThemeProvider initialDark={theme === 'dark'}>
          <AuthProvider>
            <StaticRouterProvider router={router} context={context} hydrate={false} />
          </AuthProvider>
        </ThemeProvider>
      </I18nextProvider>
    </QueryClientProvider>,
  );
  const strings = i18n.getResource(language, 'translation', 'search.headline') as Record<string, string>;
  return `<div hidden data-shell-strings="${escapeAttribute(JSON.stringify(strings))}"></div>${html}`;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/** Every page shell, by its template id. */
export async function renderPageShells(): Promise<Record<string, string>> {
  // The app fetches the Filipino catalogue as a chunk of its own; here it is simply read.
  i18n.addResourceBundle('fil', 'translation', fil);
  const shells: Record<string, string> = {};
  for (const language of PAGE_SHELL_LANGUAGES) {
    for (const theme of PAGE_SHELL_THEMES) {
      const html = await renderHome(language, theme);
      if (!html.includes('<h1'))
        throw new Error(`page shell: the home page (${language}, ${theme}) has no heading`);
      shells[pageShellTemplateId(language, theme)] = html;
      const results = await renderResults(language, theme);
      for (const tone of Object.keys(SAMPLE_ANSWERS)) {
        if (!results.includes(`data-shell-tone="${tone}"`))
          throw new Error(`page shell: the results page (${language}, ${theme}) has no ${tone} headline`);
      }
      shells[resultsShellTemplateId(language, theme)] = results;
    }
  }
  return shells;
}

/**
 * The page shell's markup (src/lib/page-shell.ts): the build renders the home page with the app's own
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
  type PageShellTheme,
} from '@/lib/page-shell';
import { Component as HomePage } from './routes/home';

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
    }
  }
  return shells;
}

import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, type AppRouter } from '@/app';
import { createAppRouter } from '@/app/router';
import { i18nReady } from '@/i18n';
import { pageShownByShell } from '@/boot/page-shell';
import { createQueryClient } from '@/lib/react-query';
import '@/index.css';

/** Resolves once the router has loaded the first page's code (and run its loader). */
function routerReady(router: AppRouter): Promise<void> {
  return new Promise((resolve) => {
    if (router.state.initialized) return resolve();
    const unsubscribe = router.subscribe((state) => {
      if (!state.initialized) return;
      unsubscribe();
      resolve();
    });
  });
}

/**
 * Ends the current task, so that the browser can handle input and paint before the next start-up step:
 * a phone's main thread is then blocked by each step alone, not by the whole start-up in one task
 * (Lighthouse's total blocking time). scheduler.yield where the browser has it (its continuation runs
 * before other queued tasks), else a timeout.
 */
function yieldToMain(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

// English is bundled and ready at once; a Filipino reader's catalogue is fetched first, so the first
// paint is already in their language. Each start-up step runs in a task of its own (the entry's
// evaluation, the query client and router, React's first render), and the first render is a transition:
// React renders the app in short slices instead of one long task, which kept a low-end phone's main
// thread blocked (Lighthouse TBT).
void i18nReady.finally(async () => {
  await yieldToMain();
  const queryClient = createQueryClient();
  const router = createAppRouter(queryClient);
  // index.html already shows this page (src/boot/page-shell.ts): React's first commit replaces it with
  // the page itself, not with the "Loading…" placeholder the router shows while the page's code loads.
  const shown = pageShownByShell();
  if (shown) await routerReady(router);
  // A results shell painted the answer: the query cache gets the same answer before React's first
  // render, so React commits the headline the shell shows instead of a loading state.
  if (shown?.searchString !== undefined) {
    const { seedSearchAnswer } = await import('@/features/search/api/search-reports');
    await seedSearchAnswer(queryClient, shown.searchString);
  }
  await yieldToMain();
  const root = createRoot(document.getElementById('root')!);
  startTransition(() => {
    root.render(
      <StrictMode>
        <App queryClient={queryClient} router={router} />
      </StrictMode>,
    );
  });
});

// Installable app with an offline shell and the Web Share Target into /check (public/sw.js). Only in
// built apps: the dev server's modules change on every edit and must not be cached.
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  window.addEventListener('load', () => {
    navigator.serviceWorker.register('/sw.js').catch(() => undefined);
  });
}

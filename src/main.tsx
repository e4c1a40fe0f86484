import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from '@/app';
import { i18nReady } from '@/i18n';
import './index.css';

// English is bundled and ready at once; a Filipino reader's catalogue is fetched first, so the first
// paint is already in their language. The first render is a transition: React renders the app in short
// slices instead of one long task, which kept a low-end phone's main thread blocked (Lighthouse TBT).
void i18nReady.finally(() => {
  const root = createRoot(document.getElementById('root')!);
  startTransition(() => {
    root.render(
      <StrictMode>
        <App />
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

import '@testing-library/jest-dom/vitest';
import { configure } from '@testing-library/react';
import { toast } from 'sonner';
import { i18n, loadDashboardTexts } from '@/i18n';

// Component tests render dashboard screens directly, without the router that fetches their texts.
await loadDashboardTexts();

// findBy*/waitFor wait 1 s by default. Under a full parallel run on a loaded 2-core machine a screen can
// take longer than that to settle (a logout test failed only there); waiting longer changes no outcome,
// only how long a failing test takes to say so.
configure({ asyncUtilTimeout: 5_000 });

// sonner keeps toasts in a module-level store and replays the active ones to every new Toaster, so
// without this a toast from one test would show up (and satisfy findByText) in the next.
afterEach(async () => {
  toast.dismiss();
  // A test that reads a screen in Filipino leaves the next one in English, as a first visit would be.
  if (i18n.language !== 'en') await i18n.changeLanguage('en');
});

// jsdom has no layout, hence no ResizeObserver; Radix's Checkbox measures itself with one. Nothing is
// ever resized in jsdom, so an observer that never calls back is exactly what a browser would do here.
class NoLayoutResizeObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver ??= NoLayoutResizeObserver;

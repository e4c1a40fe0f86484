import '@testing-library/jest-dom/vitest';
import { toast } from 'sonner';

// sonner keeps toasts in a module-level store and replays the active ones to every new Toaster, so
// without this a toast from one test would show up (and satisfy findByText) in the next.
afterEach(() => {
  toast.dismiss();
});

// jsdom has no layout, hence no ResizeObserver; Radix's Checkbox measures itself with one. Nothing is
// ever resized in jsdom, so an observer that never calls back is exactly what a browser would do here.
class NoLayoutResizeObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver ??= NoLayoutResizeObserver;

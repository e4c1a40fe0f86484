import { i18n } from '@/i18n';
import { translateServerError, translateServerMessage } from './server-errors';

/**
 * The one error path for toasts (STYLE.md): server errors show their message at the bottom right
 * (docs/behaviour.md §8), while successes keep the default top-right position. A known server error
 * is shown in the reader's language (./server-errors.ts: by its code where it has one, else by its
 * message), any other as the server sent it.
 */
export function errorMessage(error: unknown): string {
  if (typeof error === 'string') return translateServerMessage(error);
  const byCode = translateServerError(error);
  if (byCode) return byCode;
  if (error && typeof error === 'object') {
    const e = error as { message?: unknown; msg?: unknown; error_description?: unknown };
    for (const candidate of [e.message, e.msg, e.error_description]) {
      if (typeof candidate === 'string' && candidate.trim()) return translateServerMessage(candidate);
    }
  }
  return i18n.t('errors.generic');
}

/**
 * sonner loads on the first toast (and with the lazy Toaster, src/app/provider.tsx): a page that never
 * fails keeps its ~15 KB gzipped out of the first load's JavaScript (Lighthouse, docs/benchmarks.md).
 */
export function toastError(error: unknown): Promise<void> {
  const message = errorMessage(error);
  return import('sonner').then(({ toast }) => {
    toast.error(message, { position: 'bottom-right' });
  });
}

import { i18n } from '@/i18n';
import { translateServerError } from './server-errors';

/**
 * The one error path for toasts (STYLE.md): server errors show their message at the bottom right
 * (docs/behaviour.md §8), while successes keep the default top-right position. A server error with a
 * code the app knows is shown in the reader's language (./server-errors.ts), a failed connection as
 * such, any other as the server sent it.
 */
export function errorMessage(error: unknown): string {
  if (isNetworkFailure(error)) return i18n.t('serverErrors.network');
  const byCode = translateServerError(error);
  if (byCode) return byCode;
  if (typeof error === 'string' && error.trim()) return error;
  if (error && typeof error === 'object') {
    const e = error as { message?: unknown; msg?: unknown; error_description?: unknown };
    for (const candidate of [e.message, e.msg, e.error_description]) {
      if (typeof candidate === 'string' && candidate.trim()) return candidate;
    }
  }
  return i18n.t('errors.generic');
}

/**
 * The request never reached the server: fetch rejects with a TypeError (whatever the browser's words),
 * which supabase-js's clients wrap by name, and postgrest-js hands over as `{code: '', message:
 * 'TypeError: ...'}`.
 */
function isNetworkFailure(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const e = error as { name?: unknown; code?: unknown; message?: unknown };
  if (['TypeError', 'FunctionsFetchError', 'AuthRetryableFetchError'].includes(String(e.name))) return true;
  return e.code === '' && typeof e.message === 'string' && e.message.startsWith('TypeError: ');
}

/**
 * sonner loads on the first toast (and with the lazy Toaster, src/app/provider.tsx): a page that never
 * fails keeps its ~15 KB gzipped out of the first load's JavaScript (Lighthouse, docs/performance.md).
 */
export function toastError(error: unknown): Promise<void> {
  const message = errorMessage(error);
  return import('sonner').then(({ toast }) => {
    toast.error(message, { position: 'bottom-right' });
  });
}

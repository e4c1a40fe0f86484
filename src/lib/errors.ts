import { toast } from 'sonner';

/**
 * The one error path for toasts (STYLE.md): server errors show their message at the bottom right
 * (docs/behaviour.md §8), while successes keep the default top-right position.
 */
export function errorMessage(error: unknown): string {
  if (typeof error === 'string') return error;
  if (error && typeof error === 'object') {
    const e = error as { message?: unknown; msg?: unknown; error_description?: unknown };
    for (const candidate of [e.message, e.msg, e.error_description]) {
      if (typeof candidate === 'string' && candidate.trim()) return candidate;
    }
  }
  return 'Something went wrong, Please try again';
}

export function toastError(error: unknown) {
  toast.error(errorMessage(error), { position: 'bottom-right' });
}

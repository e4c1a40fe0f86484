import { toastError } from '@/lib/errors';

/** The Auth UI calls whose server errors docs/behaviour.md §8 shows as toasts (login, verify, reset). */
const TOASTED = new Set(['signInWithPassword', 'verifyOtp', 'resetPasswordForEmail', 'updateUser']);

type AuthResult = { error?: unknown } | null | undefined;

/**
 * Wraps a supabase-js client so that the auth calls above also report their error as a bottom-right
 * toast. Supabase's Auth UI shows errors only inline under its form; docs/behaviour.md §8 wants the
 * server's answer as a toast, and this keeps Auth UI itself untouched.
 */
export function withAuthErrorToasts<C extends { auth: object }>(
  client: C,
  onError: (error: unknown) => void = toastError,
): C {
  const auth = new Proxy(client.auth, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      if (!TOASTED.has(String(prop))) return value.bind(target);
      return async (...args: unknown[]) => {
        const result = (await value.apply(target, args)) as AuthResult;
        if (result?.error) onError(result.error);
        return result;
      };
    },
  });
  return new Proxy(client, {
    get: (target, prop) => (prop === 'auth' ? auth : Reflect.get(target, prop, target)),
  });
}

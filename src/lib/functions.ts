import { loadSupabase } from '@/lib/load-supabase';

/** A refused or failed edge-function call: the function's own `msg` and the HTTP status. */
export class FunctionCallError extends Error {
  constructor(
    message: string,
    public status: number,
  ) {
    super(message);
    this.name = 'FunctionCallError';
  }
}

/**
 * Calls an edge function as the signed-in user (or anon) and returns its JSON answer. A non-2xx answer
 * throws a FunctionCallError with the function's `msg` (what the user should read) and its status (so
 * the query client does not retry a 4xx); a network failure throws supabase-js's own error.
 */
export async function invokeFunction<T>(name: string, body: Record<string, unknown>): Promise<T> {
  // supabase-js loads on first use: a results page whose answer came early (index.html) never waits for it.
  const [supabase, { FunctionsHttpError }] = await Promise.all([
    loadSupabase(),
    import('@supabase/supabase-js'),
  ]);
  const { data, error } = await supabase.functions.invoke(name, { body });
  if (error instanceof FunctionsHttpError) throw await functionCallError(error.context as Response);
  if (error) throw error;
  return data as T;
}

/** A function's answer fetched without supabase-js (src/boot/early-search.ts): its JSON, or the same error. */
export async function readFunctionAnswer<T>(res: Response): Promise<T> {
  if (res.ok) return (await res.json()) as T;
  throw await functionCallError(res);
}

async function functionCallError(res: Response): Promise<FunctionCallError> {
  const answer = (await res.json().catch(() => null)) as { msg?: unknown } | null;
  const msg =
    typeof answer?.msg === 'string' && answer.msg ? answer.msg : 'Something went wrong, Please try again';
  return new FunctionCallError(msg, res.status);
}

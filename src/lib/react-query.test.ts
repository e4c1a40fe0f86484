import { PostgrestError } from '@supabase/supabase-js';
import { toast } from 'sonner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FunctionCallError } from './functions';
import { httpStatusOf } from './http-status';
import { createQueryClient, queryConfig, runMutation, type ErrorMeta } from './react-query';

const retry = queryConfig.queries.retry;
const pgError = (code: string) => new PostgrestError({ message: 'refused', details: '', hint: '', code });

describe('the status behind an error', () => {
  it("reads it from the error, a function's answer, or the code PostgREST chose it by", () => {
    expect(httpStatusOf(new FunctionCallError('Not found', 404))).toBe(404);
    expect(httpStatusOf({ name: 'FunctionsHttpError', context: new Response('{}', { status: 429 }) })).toBe(
      429,
    );
    expect(httpStatusOf({ name: 'AuthApiError', status: 422, code: 'weak_password' })).toBe(422);
    expect(httpStatusOf(pgError('PGRST116'))).toBe(400);
    expect(httpStatusOf(pgError('PGRST301'))).toBe(401);
    expect(httpStatusOf(pgError('PGRST001'))).toBe(503);
    expect(httpStatusOf(pgError('42501'))).toBe(403);
    expect(httpStatusOf(pgError('23505'))).toBe(409);
    expect(httpStatusOf(pgError('22023'))).toBe(400);
    expect(httpStatusOf(pgError('P0001'))).toBe(400);
    expect(httpStatusOf(pgError('57014'))).toBe(500);
    expect(httpStatusOf(pgError('08006'))).toBe(500);
    expect(httpStatusOf(new TypeError('Failed to fetch'))).toBeUndefined();
  });
});

describe('query retries', () => {
  it('never retries a refused request (4xx); retries network failures and 5xx twice', () => {
    for (const e of [
      new FunctionCallError('Bad', 400),
      pgError('PGRST116'),
      pgError('42501'),
      pgError('22P02'),
      Object.assign(new Error('Not found'), { status: 404 }),
    ]) {
      expect(retry(0, e)).toBe(false);
    }
    for (const e of [
      new TypeError('Failed to fetch'),
      new FunctionCallError('Down', 503),
      pgError('57014'),
    ]) {
      expect(retry(0, e)).toBe(true);
      expect(retry(1, e)).toBe(true);
      expect(retry(2, e)).toBe(false);
    }
  });

  it('a 4xx query fails after one call, at once', async () => {
    const client = createQueryClient();
    const queryFn = vi.fn().mockRejectedValue(new FunctionCallError('searchString is required', 400));
    const started = Date.now();
    await expect(client.fetchQuery({ queryKey: ['x'], queryFn, retry })).rejects.toThrow(
      'searchString is required',
    );
    expect(queryFn).toHaveBeenCalledTimes(1);
    expect(Date.now() - started).toBeLessThan(500);
  });
});

describe('the one error path', () => {
  afterEach(() => vi.restoreAllMocks());
  const failing = () => Promise.reject(new Error('Report not found'));

  async function toastsAfter(run: (client: ReturnType<typeof createQueryClient>) => Promise<unknown>) {
    const error = vi.spyOn(toast, 'error');
    error.mockClear();
    await run(createQueryClient({ queries: { retry: false }, mutations: { retry: false } })).catch(() => {});
    // toastError loads sonner on demand
    await vi.dynamicImportSettled();
    await new Promise((resolve) => setTimeout(resolve, 0));
    return error.mock.calls.map(([message, options]) => [message, options]);
  }
  const mutate = (meta?: ErrorMeta) => {
    return (client: ReturnType<typeof createQueryClient>) =>
      client.getMutationCache().build(client, { mutationFn: failing, meta }).execute(undefined);
  };

  it('runMutation (route actions) goes through it too, and says whether the mutation succeeded', async () => {
    const onSuccess = vi.fn();
    let ok: boolean | undefined;
    expect(
      await toastsAfter(async (c) => {
        ok = await runMutation(c, { mutationFn: failing, onSuccess }, undefined);
      }),
    ).toEqual([['Report not found', { position: 'bottom-right' }]]);
    expect(ok).toBe(false);
    expect(onSuccess).not.toHaveBeenCalled();
    expect(
      await toastsAfter(async (c) => {
        ok = await runMutation(c, { mutationFn: (n: number) => Promise.resolve(n * 2), onSuccess }, 21);
      }),
    ).toEqual([]);
    expect(ok).toBe(true);
    expect(onSuccess).toHaveBeenCalledWith(42, 21, undefined, expect.anything());
  });

  it('a failed mutation shows its message as a bottom-right toast unless its meta says otherwise', async () => {
    expect(await toastsAfter(mutate())).toEqual([['Report not found', { position: 'bottom-right' }]]);
    expect(await toastsAfter(mutate({ errorToast: false }))).toEqual([]);
    expect(
      await toastsAfter(mutate({ errorToast: (e) => `Could not save: ${(e as Error).message}` })),
    ).toEqual([['Could not save: Report not found', { position: 'bottom-right' }]]);
    expect(await toastsAfter(mutate({ errorToast: () => null }))).toEqual([]);
  });

  it('a failed query is silent unless its meta asks for a toast', async () => {
    expect(await toastsAfter((c) => c.fetchQuery({ queryKey: ['a'], queryFn: failing }))).toEqual([]);
    expect(
      await toastsAfter((c) =>
        c.fetchQuery({ queryKey: ['b'], queryFn: failing, meta: { errorToast: true } }),
      ),
    ).toEqual([['Report not found', { position: 'bottom-right' }]]);
  });
});

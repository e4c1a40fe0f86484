import { withAuthErrorToasts } from './auth-error-toasts';

function fakeClient(error: { message: string } | null) {
  return {
    from: () => 'table',
    auth: {
      calls: 0,
      async signInWithPassword(this: { calls: number }) {
        this.calls++;
        return { data: { session: null }, error };
      },
      async getSession() {
        return { data: { session: null }, error };
      },
    },
  };
}

describe('withAuthErrorToasts', () => {
  it('reports a failed sign-in through the toast path and still hands the result back', async () => {
    const onError = vi.fn();
    const raw = fakeClient({ message: 'Invalid login credentials' });
    const client = withAuthErrorToasts(raw, onError);
    const result = await client.auth.signInWithPassword();
    expect(result.error).toEqual({ message: 'Invalid login credentials' });
    expect(onError).toHaveBeenCalledWith({ message: 'Invalid login credentials' });
    expect(raw.auth.calls).toBe(1);
  });

  it('stays quiet on success and leaves other calls and the rest of the client alone', async () => {
    const onError = vi.fn();
    const client = withAuthErrorToasts(fakeClient(null), onError);
    expect((await client.auth.signInWithPassword()).error).toBeNull();
    const failing = withAuthErrorToasts(fakeClient({ message: 'x' }), onError);
    await failing.auth.getSession();
    expect(onError).not.toHaveBeenCalled();
    expect(client.from()).toBe('table');
  });
});

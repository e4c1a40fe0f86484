import { describe, expect, it } from 'vitest';
import { stackEnv } from './helpers.ts';

const url = () => `${stackEnv('API_URL')}/functions/v1/health`;

describe('edge functions on the local stack', () => {
  it('runs a function in Deno with the Supabase environment variables', async () => {
    const res = await fetch(url(), { headers: { authorization: `Bearer ${stackEnv('ANON_KEY')}` } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      status: 'ok',
      supabaseUrl: stackEnv('API_URL'),
      hasAnonKey: true,
      hasServiceRoleKey: true,
      hasDbUrl: true,
    });
  });

  it('rejects a call without a JWT when verify_jwt is on', async () => {
    const res = await fetch(url());
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ message: 'Missing authorization header' });
  });

  it('rejects a forged JWT', async () => {
    const [h, p] = stackEnv('SERVICE_ROLE_KEY').split('.');
    const forged = `${h}.${p}.${Buffer.from('not the signature').toString('base64url')}`;
    const res = await fetch(url(), { headers: { authorization: `Bearer ${forged}` } });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ message: 'Invalid JWT' });
  });

  it('answers 404 for a function that does not exist', async () => {
    const res = await fetch(`${stackEnv('API_URL')}/functions/v1/no-such-function`, {
      headers: { authorization: `Bearer ${stackEnv('ANON_KEY')}` },
    });
    expect(res.status).toBe(404);
  });
});

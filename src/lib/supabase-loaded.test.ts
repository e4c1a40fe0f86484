import { beforeEach, describe, expect, it, vi } from 'vitest';

// A fresh module per test: whether supabase-js was announced is module state.
let mod: typeof import('./supabase-loaded');
beforeEach(async () => {
  vi.resetModules();
  mod = await import('./supabase-loaded');
});

const storageEvent = (key: string | null, newValue: string | null) =>
  window.dispatchEvent(new StorageEvent('storage', { key, newValue }));

describe('whenSupabaseNeeded', () => {
  it('waits until a page loads supabase-js, then runs once', () => {
    const task = vi.fn();
    mod.whenSupabaseNeeded(task);
    expect(task).not.toHaveBeenCalled();
    mod.announceSupabaseLoaded();
    mod.announceSupabaseLoaded();
    storageEvent('sb-127-auth-token', '{}');
    expect(task).toHaveBeenCalledTimes(1);
  });

  it('runs at once when supabase-js is already loaded', () => {
    mod.announceSupabaseLoaded();
    const task = vi.fn();
    mod.whenSupabaseNeeded(task);
    expect(task).toHaveBeenCalledTimes(1);
  });

  it('runs when another tab stores a session, not for other keys or a removed session', () => {
    const task = vi.fn();
    mod.whenSupabaseNeeded(task);
    storageEvent('language', 'fil');
    storageEvent('sb-127-auth-token', null);
    storageEvent(null, null);
    expect(task).not.toHaveBeenCalled();
    storageEvent('sb-127-auth-token', '{"access_token":"x"}');
    storageEvent('sb-127-auth-token', '{"access_token":"y"}');
    expect(task).toHaveBeenCalledTimes(1);
  });

  it('runs nothing once cancelled', () => {
    const task = vi.fn();
    const cancel = mod.whenSupabaseNeeded(task);
    cancel();
    storageEvent('sb-127-auth-token', '{}');
    mod.announceSupabaseLoaded();
    expect(task).not.toHaveBeenCalled();
  });
});

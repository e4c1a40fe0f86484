/**
 * dispatchSoon's coalescing (supabase/functions/_shared/dispatch.ts): a call during a run leads to
 * exactly one more run after it, so nothing asked for is missed and a burst is not one run per call.
 */
import { describe, expect, it } from 'vitest';
import { coalesce } from '../../supabase/functions/_shared/dispatch.ts';

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { opened, open };
}

describe('coalesce', () => {
  it('runs at once when idle, and once more after a run for any number of calls made during it', async () => {
    const gates = [gate(), gate(), gate()];
    let runs = 0;
    const seen: number[] = [];
    let state = 0;
    const trigger = coalesce(async () => {
      const mine = runs++;
      seen.push(state);
      await gates[mine].opened;
    });
    const first = trigger();
    expect(runs).toBe(1);
    state = 1; // something new arrives during the first run ...
    const joined = [trigger(), trigger(), trigger()];
    expect(runs).toBe(1);
    gates[0].open();
    await new Promise((r) => setTimeout(r, 0));
    expect(runs).toBe(2); // ... and one more run sees it
    expect(seen).toEqual([0, 1]);
    gates[1].open();
    await Promise.all([first, ...joined]);
    expect(runs).toBe(2);
    // Idle again: the next call runs at once.
    gates[2].open();
    await trigger();
    expect(runs).toBe(3);
  });

  it('keeps going after a failed run', async () => {
    let runs = 0;
    const g = gate();
    const trigger = coalesce(async () => {
      runs++;
      if (runs === 1) {
        await g.opened;
        throw new Error('SMTP down');
      }
    });
    const a = trigger();
    const b = trigger();
    g.open();
    await expect(Promise.all([a, b])).resolves.toBeDefined();
    expect(runs).toBe(2);
  });
});

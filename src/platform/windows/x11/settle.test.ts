import { describe, expect, it } from 'vitest';
import { pollUntil, pollUntilSettled } from './settle';

/** A reader that returns the given values in turn, then repeats the last one. */
function sequence<T>(...values: T[]) {
  let i = 0;
  const read = async () => values[Math.min(i++, values.length - 1)]!;
  return { read, reads: () => i };
}

const same = (a: string, b: string) => a === b;
const fast = { timeoutMs: 5000, quietMs: 20, reactMs: 40, intervalMs: 1 };

describe('bounded waiting', () => {
  it('pollUntil stops as soon as the condition holds, or reports that it never did', async () => {
    const s = sequence(1, 2, 3, 4);
    expect(await pollUntil(s.read, (v) => v === 3, 5000, 1)).toEqual({ value: 3, met: true });
    expect(s.reads()).toBe(3);
    expect(await pollUntil(sequence(0).read, (v) => v === 1, 10, 1)).toEqual({ value: 0, met: false });
  });

  it('pollUntilSettled returns the target once reached', async () => {
    expect(await pollUntilSettled(sequence('old', 'moving', 'target').read, (v) => v === 'target', same, fast)).toEqual({ value: 'target', met: true });
  });

  it('returns what the window settled on when it cannot reach the target', async () => {
    const s = sequence('old', 'old', 'adjusted');
    // The reaction is a read away whatever the clock says: only quietMs may end this wait.
    expect(await pollUntilSettled(s.read, (v) => v === 'target', same, { ...fast, reactMs: 60_000 })).toEqual({ value: 'adjusted', met: false });
    expect(s.reads()).toBeGreaterThan(3); // it watched the adjusted value stay put
  });

  it('gives up on a request nothing reacts to', async () => {
    expect(await pollUntilSettled(sequence('old').read, (v) => v === 'target', same, fast)).toEqual({ value: 'old', met: false });
  });
});

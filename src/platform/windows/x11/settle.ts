// Bounded waiting for the window manager: it applies requests asynchronously and may refuse
// them, so every wait ends at a deadline and reports whether its condition was met.

import { sleep } from '../../../engine/sleep';

/** Reads until `done` holds or `timeoutMs` passes; resolves with the last value read. */
export async function pollUntil<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs: number,
  intervalMs: number,
): Promise<{ value: T; met: boolean }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return { value, met: true };
    if (Date.now() >= deadline) return { value, met: false };
    await sleep(intervalMs);
  }
}

/**
 * Reads until `done` holds, the value has settled, or `timeoutMs` passes: for requests the
 * window manager may adjust (a size rounded to character cells) or ignore. Settled means
 * unchanged for `quietMs` after a change, or unchanged for `reactMs` since the first read
 * (the window manager never reacted: the request was refused, or asked for nothing new).
 */
export async function pollUntilSettled<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  same: (a: T, b: T) => boolean,
  { timeoutMs, quietMs, reactMs, intervalMs }: { timeoutMs: number; quietMs: number; reactMs: number; intervalMs: number },
): Promise<{ value: T; met: boolean }> {
  const start = Date.now();
  let last: T | undefined;
  let lastChange = start;
  let changed = false;
  for (;;) {
    const value = await read();
    const now = Date.now();
    if (done(value)) return { value, met: true };
    if (last === undefined) {
      last = value;
    } else if (!same(last, value)) {
      last = value;
      lastChange = now;
      changed = true;
    }
    const settled = now - lastChange >= (changed ? quietMs : reactMs);
    if (settled || now - start >= timeoutMs) return { value, met: false };
    await sleep(intervalMs);
  }
}

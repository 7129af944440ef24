// The one way tests wait: on a condition, polled, with a deadline generous enough that a busy
// machine (other test files, other work: a load of 20 on two cores) makes a test slower, never red.
// The deadline only turns a hang into a clear failure; nothing waits for it on a healthy run.

/** How long a test waits for a condition before failing. */
export const WAIT_MS = 60_000;

/** Options for vitest's expect.poll (its default gives up after 1 s). */
export const POLL = { timeout: WAIT_MS, interval: 50 } as const;

const POLL_MS = 25;

/** Polls until the probe yields a value (not undefined/false); fails with what it waited for. */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = WAIT_MS): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

/** A promise the test resolves when it is ready, e.g. to hold a scripted server's answer. */
export function gate(): { opened: Promise<void>; open(): void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

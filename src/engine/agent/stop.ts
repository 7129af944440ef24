// Stop for the agent run: the person's signal aborts whatever the run is waiting for — a model
// request, the plan's approval, a safety question — and the run ends as 'stopped'.

export class Stopped extends Error {
  constructor() {
    super('stopped by the user');
  }
}

export function checkStop(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new Stopped();
}

/** Settles with the promise, or rejects with Stopped as soon as the signal aborts. */
export function abortable<T>(signal: AbortSignal | undefined, p: Promise<T>): Promise<T> {
  if (!signal) return p;
  if (signal.aborted) {
    p.catch(() => undefined);
    return Promise.reject(new Stopped());
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Stopped());
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener('abort', onAbort);
        reject(signal.aborted ? new Stopped() : e);
      },
    );
  });
}

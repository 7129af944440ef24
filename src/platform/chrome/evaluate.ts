import { call, type CdpConnection } from './cdp-connection';

export const TIMED_OUT = Symbol('timed out');

/**
 * Evaluates `expression` in a page through a short-lived flat session. Resolves TIMED_OUT after
 * `timeoutMs` however far it got: a hung renderer never answers Runtime.evaluate, so the
 * deadline, not the answer, ends the wait. The session is detached either way (late, if the
 * attach itself only completes after the deadline). Throws for a target that does not exist.
 */
export async function evaluateInPage(
  conn: CdpConnection,
  targetId: string,
  expression: string,
  timeoutMs: number,
): Promise<unknown | typeof TIMED_OUT> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), timeoutMs);
  });
  let sessionId: string | undefined;
  let finished = false;
  const detach = (sid: string) => void call(conn, 'Target.detachFromTarget', { sessionId: sid }, { timeoutMs: 5000 }).catch(() => undefined);

  const work = (async () => {
    // Bounded well past the deadline only so nothing waits forever on a dead socket.
    const attached = await call(conn, 'Target.attachToTarget', { targetId, flatten: true }, { timeoutMs: timeoutMs + 5000 });
    sessionId = attached.sessionId;
    if (finished) {
      detach(sessionId);
      return TIMED_OUT;
    }
    const evaluated = await call(
      conn,
      'Runtime.evaluate',
      { expression, returnByValue: true, silent: true, awaitPromise: false },
      { sessionId, timeoutMs: timeoutMs + 5000 },
    );
    if (evaluated.exceptionDetails) throw new Error(`evaluation failed in ${targetId}: ${evaluated.exceptionDetails.text}`);
    return evaluated.result.value as unknown;
  })();
  // The deadline may win; the late rejection of `work` must not surface as unhandled.
  work.catch(() => undefined);

  try {
    return await Promise.race([work, deadline]);
  } finally {
    finished = true;
    clearTimeout(timer);
    if (sessionId !== undefined) detach(sessionId);
  }
}

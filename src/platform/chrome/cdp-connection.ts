import type ProtocolMapping from 'devtools-protocol/types/protocol-mapping';
import type { Protocol } from 'devtools-protocol';

// The backend talks to Chrome through this narrow surface instead of the chrome-remote-interface
// client type, so unit tests can drive the same code with a scripted fake.

export type CdpCommand = keyof ProtocolMapping.Commands;
export type CdpParams<M extends CdpCommand> = ProtocolMapping.Commands[M]['paramsType'][0];
export type CdpResult<M extends CdpCommand> = ProtocolMapping.Commands[M]['returnType'];

// `any`: listeners declare the event's own parameter type, which a stricter type would reject.
export type CdpListener = (params: any, sessionId?: string) => void;

export interface CdpConnection {
  send(method: string, params?: object, sessionId?: string): Promise<unknown>;
  /** chrome-remote-interface also emits `${method}.${sessionId}` for session events. */
  on(event: string, listener: CdpListener): unknown;
  removeListener(event: string, listener: CdpListener): unknown;
  close(): Promise<void>;
}

/**
 * Chrome's tab-strip facts on `tab` targets. Experimental and absent from the bundled protocol
 * types, so every field is checked at runtime before use.
 */
export interface EmbedderData {
  tabStripIndex: number;
  tabActive: boolean;
  tabPinned: boolean;
}

export type TargetInfo = Protocol.Target.TargetInfo & { embedderData?: unknown };

/** Chrome never answers commands for a renderer that hangs, and a half-open socket never errors. */
export const DEFAULT_CALL_TIMEOUT_MS = 10_000;

export class CdpTimeoutError extends Error {
  constructor(readonly method: string, readonly timeoutMs: number) {
    super(`Chrome did not answer ${method} within ${timeoutMs} ms`);
    this.name = 'CdpTimeoutError';
  }
}

export function call<M extends CdpCommand>(
  conn: CdpConnection,
  method: M,
  params?: CdpParams<M>,
  opts: { sessionId?: string; timeoutMs?: number } = {},
): Promise<CdpResult<M>> {
  const pending = conn.send(method, params ?? {}, opts.sessionId) as Promise<CdpResult<M>>;
  return withTimeout(pending, opts.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS, () => new CdpTimeoutError(method, opts.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS));
}

export function withTimeout<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(onTimeout()), ms);
    timer.unref?.();
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}

/** Chrome's answer when an id names no target (activate, close, attach, getWindowForTarget). */
export function isNoTargetError(e: unknown): boolean {
  return e instanceof Error && /no target with given id/i.test(e.message);
}

export function readEmbedderData(info: TargetInfo): EmbedderData | null {
  const d = info.embedderData;
  if (typeof d !== 'object' || d === null) return null;
  const { tabStripIndex, tabActive, tabPinned } = d as Record<string, unknown>;
  if (typeof tabStripIndex !== 'number' || !Number.isInteger(tabStripIndex) || typeof tabActive !== 'boolean') return null;
  return { tabStripIndex, tabActive, tabPinned: tabPinned === true };
}

// The CDP modules wait with the one shared sleep.
export { sleep } from '../../engine/sleep';

/** Runs `fn` over `items` with at most `limit` in flight, keeping result order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

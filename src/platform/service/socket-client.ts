import net from 'node:net';
import { MAX_SERVICE_LINE } from '../../protocol/service';
import { readLines, writeLine } from './ndjson';
import { trustedSocket } from './socket-folder';

// The client end of the service socket: requests matched to responses by id, events to a
// listener. Nothing here knows the methods; src/app/remote-desk.ts checks each answer.

export interface RawResponse {
  id: number;
  ok: boolean;
  result?: unknown;
  error?: { code: string; message: string };
}

export class ServiceConnectionError extends Error {
  constructor(
    message: string,
    readonly code: 'service_gone' | 'service_bad_answer',
  ) {
    super(message);
  }
}

export interface ServiceClient {
  request(method: string, params: unknown): Promise<RawResponse>;
  onEvent(fn: (event: unknown) => void): void;
  /** False once the socket closed or failed. */
  readonly connected: boolean;
  close(): void;
}

/**
 * Connects, or resolves null when no service listens there (no socket, or a dead one), or
 * when the socket or its folder is not this user's (then it is not this user's service).
 */
export async function connectService(socketPath: string): Promise<ServiceClient | null> {
  if (!socketPath.startsWith('\\\\') && !(await trustedSocket(socketPath))) return null;
  return new Promise((resolve) => {
    const socket = net.connect(socketPath);
    socket.once('error', () => resolve(null));
    socket.once('connect', () => {
      socket.removeAllListeners('error');
      resolve(clientOn(socket));
    });
  });
}

function clientOn(socket: net.Socket): ServiceClient {
  let next = 1;
  const waiting = new Map<number, { resolve: (r: RawResponse) => void; reject: (e: Error) => void }>();
  const listeners: Array<(event: unknown) => void> = [];
  let ended: Error | null = null;
  const fail = (e: Error) => {
    ended ??= e;
    for (const w of waiting.values()) w.reject(e);
    waiting.clear();
  };
  socket.on('error', (e) => fail(new ServiceConnectionError(`the DeskPilot service connection failed: ${e.message}`, 'service_gone')));
  socket.on('close', () => fail(new ServiceConnectionError('the DeskPilot service closed the connection (it may have stopped)', 'service_gone')));
  readLines(
    socket,
    MAX_SERVICE_LINE,
    (value) => {
      const v = value as Partial<RawResponse> & { event?: unknown };
      if (typeof v === 'object' && v !== null && typeof v.event === 'string') {
        for (const fn of listeners) fn(value);
        return;
      }
      const w = typeof v?.id === 'number' ? waiting.get(v.id) : undefined;
      if (!w || typeof v.ok !== 'boolean') return;
      waiting.delete(v.id!);
      w.resolve(v as RawResponse);
    },
    (why) => {
      fail(new ServiceConnectionError(`the DeskPilot service sent ${why}`, 'service_bad_answer'));
      socket.destroy();
    },
  );
  return {
    request: (method, params) => {
      if (ended) return Promise.reject(ended);
      const id = next++;
      return new Promise<RawResponse>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        writeLine(socket, { id, method, params });
      });
    },
    onEvent: (fn) => listeners.push(fn),
    get connected() {
      return ended === null;
    },
    close: () => socket.end(),
  };
}

import { chmod, lstat, unlink } from 'node:fs/promises';
import net from 'node:net';
import lockfile from 'proper-lockfile';
import { MAX_SERVICE_LINE } from '../../protocol/service';
import { endWithLine, readLines, writeLine } from './ndjson';
import { ensurePrivateFolder } from './socket-folder';

// The service's listening socket: this user only (a folder of this user's, 0700; the socket 0600, made
// under a umask so there is no moment it is open to others), one service per path (a live
// socket refuses a second service; a dead one left by a killed service is removed).

export interface Connection {
  send(value: unknown): void;
  onClose(fn: () => void): void;
}

export type OnMessage = (message: unknown, conn: Connection) => void;

export class ServiceRunningError extends Error {
  constructor(readonly socketPath: string) {
    super(`a DeskPilot service is already running on ${socketPath}`);
  }
}

export interface ListeningSocket {
  path: string;
  /** Whether a stale socket from a killed service was found and removed. */
  removedStale: boolean;
  close(): Promise<void>;
}

/** Whether something answers on the socket (a live service), as opposed to a leftover file. */
export function socketAnswers(socketPath: string, timeoutMs = 2000): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(socketPath);
    const done = (alive: boolean) => {
      s.destroy();
      clearTimeout(timer);
      resolve(alive);
    };
    // A live service accepts at once; a connect that hangs this long is treated as alive (never remove a socket in doubt).
    const timer = setTimeout(() => done(true), timeoutMs);
    timer.unref();
    s.once('connect', () => done(true));
    s.once('error', () => done(false));
  });
}

/** How long a client may take to end its connection once the service closes. */
const CLOSE_GRACE_MS = 2_000;

export async function listenService(socketPath: string, onMessage: OnMessage): Promise<ListeningSocket> {
  const windowsPipe = socketPath.startsWith('\\\\');
  if (!windowsPipe) await ensurePrivateFolder(socketPath);

  // Open connections are ended on close: a client that stays subscribed (the MCP server,
  // the app's windows) would otherwise keep server.close() waiting for ever.
  const open = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    serve(socket, onMessage);
  });
  let removedStale = false;
  // Two services starting at once must not both decide the socket is stale: the probe,
  // the removal and the bind happen under a short cross-process lock.
  const release = windowsPipe ? null : await lockfile.lock(socketPath, { realpath: false, stale: 10_000, retries: { retries: 50, minTimeout: 50, maxTimeout: 500 } });
  try {
    if (!windowsPipe && (await exists(socketPath))) {
      if (await socketAnswers(socketPath)) throw new ServiceRunningError(socketPath);
      await unlink(socketPath);
      removedStale = true;
    }
    await bindPrivately(server, socketPath, windowsPipe);
  } finally {
    await release?.().catch(() => undefined);
  }
  return {
    path: socketPath,
    removedStale,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        if (!windowsPipe) unlink(socketPath).catch(() => undefined);
        for (const socket of open) socket.end();
        // A client that does not end its side within this bound is cut off.
        setTimeout(() => open.forEach((socket) => socket.destroy()), CLOSE_GRACE_MS).unref();
      }),
  };
}

async function exists(p: string): Promise<boolean> {
  try {
    await lstat(p);
    return true;
  } catch {
    return false;
  }
}

async function bindPrivately(server: net.Server, socketPath: string, windowsPipe: boolean): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // The bind happens inside listen(): with this umask the socket is created 0600.
    const old = windowsPipe ? null : process.umask(0o177);
    try {
      server.listen(socketPath, () => {
        server.off('error', reject);
        resolve();
      });
    } finally {
      if (old !== null) process.umask(old);
    }
  });
  if (!windowsPipe) await chmod(socketPath, 0o600);
}

function serve(socket: net.Socket, onMessage: OnMessage): void {
  const closers: Array<() => void> = [];
  const conn: Connection = {
    send: (value) => writeLine(socket, value),
    onClose: (fn) => closers.push(fn),
  };
  socket.on('error', () => socket.destroy());
  socket.on('close', () => closers.forEach((fn) => fn()));
  readLines(
    socket,
    MAX_SERVICE_LINE,
    (value) => onMessage(value, conn),
    // Cut off, not just half-closed: a peer that ignores our end would otherwise go on sending.
    (why) => endWithLine(socket, { id: 0, ok: false, error: { code: 'bad_request', message: `the service closed the connection: it received ${why}` } }),
  );
}

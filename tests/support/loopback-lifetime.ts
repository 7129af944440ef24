import type { Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * What every scripted test server needs: listen on 127.0.0.1 (port 0), answer later when an
 * answer is delayed, and on stop destroy hanging requests and keep-alive sockets, which would
 * otherwise keep the test process alive.
 */
export class LoopbackLifetime {
  private readonly sockets = new Set<Socket>();
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(private readonly server: Server) {
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  /** Runs `fn` now, or after `delayMs` unless the server stopped first. */
  later(delayMs: number, fn: () => void): void {
    if (delayMs <= 0) return fn();
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      fn();
    }, delayMs);
    this.timers.add(timer);
  }

  async listen(): Promise<number> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(0, '127.0.0.1', () => resolve());
    });
    return (this.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

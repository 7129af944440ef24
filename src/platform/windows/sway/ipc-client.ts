import net from 'node:net';
import type { z } from 'zod';
import { WindowsUnavailableError, errorMessage } from '../../../engine/errors';
import { decodeFrames, encodeMessage, type Frame, type MessageType } from './ipc-framing';

// One warm connection to the i3/sway IPC socket. Replies come back in the order the requests
// were sent (the compositor answers each message before reading the next), so a FIFO of
// pending requests pairs them. Every reply is parsed with a zod schema before anyone sees it.

/** A healthy compositor answers within milliseconds; past this it is wedged (or gone). */
const ANSWER_TIMEOUT_MS = 5000;

interface Pending {
  type: number;
  resolve: (payload: string) => void;
  reject: (err: Error) => void;
}

export class IpcClient {
  private socket: net.Socket | null = null;
  private connecting: Promise<net.Socket> | null = null;
  private buffer: Buffer = Buffer.alloc(0);
  private readonly pending: Pending[] = [];
  private closed = false;

  /** `what` names the compositor in messages ("sway"). */
  constructor(
    readonly socketPath: string,
    private readonly what: string,
  ) {}

  /** Sends one message and parses its reply with `schema`. */
  async request<S extends z.ZodType>(type: MessageType, payload: string, schema: S, doing: string): Promise<z.infer<S>> {
    const raw = await this.roundTrip(type, payload, doing);
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      throw new WindowsUnavailableError(`${this.what} answered ${doing} with something that is not JSON`);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new WindowsUnavailableError(`${this.what} answered ${doing} in an unexpected shape (${issue?.path.join('.') || 'reply'}: ${issue?.message})`);
    }
    return parsed.data;
  }

  close(): void {
    this.closed = true;
    this.fail(new WindowsUnavailableError(`the ${this.what} connection was closed`));
    this.socket?.destroy();
    this.socket = null;
  }

  private async roundTrip(type: MessageType, payload: string, doing: string): Promise<string> {
    const socket = await this.connection();
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        // The reply may still come: the stream can no longer be paired, so start over.
        this.drop(new WindowsUnavailableError(`${this.what} did not answer within ${ANSWER_TIMEOUT_MS} ms (${doing})`));
      }, ANSWER_TIMEOUT_MS);
      timer.unref();
      this.pending.push({
        type,
        resolve: (p) => {
          clearTimeout(timer);
          resolve(p);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
      // Held open while an answer is awaited (else a CLI would exit mid-request), idle otherwise.
      socket.ref();
      socket.write(encodeMessage(type, payload));
    });
  }

  private connection(): Promise<net.Socket> {
    if (this.closed) return Promise.reject(new WindowsUnavailableError(`the ${this.what} window backend has been disposed`));
    if (this.socket && !this.socket.destroyed) return Promise.resolve(this.socket);
    this.connecting ??= new Promise<net.Socket>((resolve, reject) => {
      const socket = net.createConnection(this.socketPath);
      socket.once('connect', () => {
        socket.removeAllListeners('error');
        socket.on('error', (err) => this.drop(new WindowsUnavailableError(`the ${this.what} IPC connection failed: ${errorMessage(err)}`)));
        socket.on('close', () => this.drop(new WindowsUnavailableError(`${this.what} closed its IPC connection (did it exit?)`)));
        socket.on('data', (chunk: Buffer) => this.receive(chunk));
        socket.unref();
        this.socket = socket;
        resolve(socket);
      });
      socket.once('error', (err) =>
        reject(new WindowsUnavailableError(`cannot connect to ${this.what}'s IPC socket ${this.socketPath} (${errorMessage(err)}); is ${this.what} running in this session?`)),
      );
    }).finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  private receive(chunk: Buffer): void {
    let frames: Frame[];
    try {
      ({ frames, rest: this.buffer } = decodeFrames(Buffer.concat([this.buffer, chunk])));
    } catch (err) {
      this.drop(new WindowsUnavailableError(`${this.what}: ${errorMessage(err)}`));
      return;
    }
    for (const frame of frames) {
      if (frame.event) continue;
      const next = this.pending.shift();
      if (!next) continue;
      if (this.pending.length === 0) this.socket?.unref();
      if (next.type !== frame.type) next.reject(new WindowsUnavailableError(`${this.what} answered message type ${next.type} with type ${frame.type}`));
      else next.resolve(frame.payload);
    }
  }

  /** Fails every pending request and forgets the socket; the next request connects again. */
  private drop(err: Error): void {
    this.fail(err);
    this.socket?.destroy();
    this.socket = null;
    this.buffer = Buffer.alloc(0);
  }

  private fail(err: Error): void {
    for (const p of this.pending.splice(0)) p.reject(err);
  }
}

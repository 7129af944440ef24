// One X11 connection with promise-returning requests.
//
// The `x11` package is callback-based and has three traps this wrapper closes:
// - an X error with no 'error' listener crashes the process, so a listener is always attached
//   and every request's error goes to the promise that issued it;
// - a dropped socket leaves pending callbacks unanswered forever, so pending requests are
//   tracked and rejected when the connection goes away;
// - the atom cache is a module-level object shared by every client, so a cache filled by an
//   earlier (now restarted) server hands out stale atoms ("Bad atom"): each connection gets a
//   private cache seeded with the predefined atoms only.
import x11 from 'x11';
import type { XCallback, XClient, XError, XGeometry, XProperty, XTranslated } from 'x11';
import { errorMessage, WindowsUnavailableError } from '../../../engine/errors';

/** X protocol error codes we react to. */
export const X_ERROR = { BadWindow: 3, BadMatch: 8, BadDrawable: 9 } as const;

/** Predefined atoms (1..68, the last being WM_TRANSIENT_FOR) never change between servers. */
const LAST_PREDEFINED_ATOM = 68;

const AnyPropertyType = 0;
const CLOSE_TIMEOUT_MS = 500;
/** Long enough for any property we read here (titles, client lists); in 4-byte units. */
const PROPERTY_MAX_LONGS = 1 << 16;

export function isXError(err: unknown): err is XError {
  return err instanceof Error && typeof (err as Partial<XError>).error === 'number';
}

/** True for errors meaning the window id no longer names a window. */
export function isWindowGone(err: unknown): boolean {
  return isXError(err) && (err.error === X_ERROR.BadWindow || err.error === X_ERROR.BadDrawable);
}

export class ConnectionLostError extends WindowsUnavailableError {
  constructor(display: string, why: string) {
    super(`lost the connection to the X display ${display} (${why})`);
  }
}

/**
 * Drops every atom a previous server interned from the package's shared cache, and gives the
 * client a private cache holding only the predefined atoms.
 */
export function resetAtomCache(client: XClient): void {
  const shared = client.atoms;
  const atoms: Record<string, number> = {};
  const names: Record<number, string> = {};
  for (const [name, atom] of Object.entries(shared)) {
    if (atom > LAST_PREDEFINED_ATOM) {
      // Interned atoms are always numbered above the predefined ones: safe to drop.
      delete shared[name];
    } else {
      atoms[name] = atom;
      names[atom] = name;
    }
  }
  client.atoms = atoms;
  client.atom_names = names;
}

export class XConnection {
  private readonly pending = new Set<(err: Error) => void>();
  private lost: Error | null = null;
  readonly root: number;
  readonly screenWidth: number;
  readonly screenHeight: number;

  private constructor(
    readonly client: XClient,
    readonly display: string,
  ) {
    const screen = client.display.screen[0]!;
    this.root = screen.root;
    this.screenWidth = screen.pixel_width;
    this.screenHeight = screen.pixel_height;
    client.on('error', (err: unknown) => this.onClientError(err));
    client.on('end', () => this.drop(new ConnectionLostError(display, 'the server closed it')));
    client.stream.on('close', () => this.drop(new ConnectionLostError(display, 'the socket closed')));
  }

  static open(display: string, timeoutMs: number): Promise<XConnection> {
    return new Promise((resolve, reject) => {
      let settled = false;
      const fail = (err: unknown) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        reject(err instanceof Error ? err : new Error(String(err)));
      };
      // A server that accepts the socket but never completes setup must not hang us.
      const timer = setTimeout(() => {
        fail(new Error(`no answer within ${timeoutMs} ms`));
        try {
          client.terminate();
        } catch {
          // the stream never opened
        }
      }, timeoutMs);
      timer.unref();
      // Batch a burst of requests into one write: listing 20 windows issues ~200 requests at once.
      const client = x11.createClient({ display, bufferRequests: { flushOnReply: false } }, (err) => {
        if (settled) return;
        if (err) {
          fail(err);
          return;
        }
        settled = true;
        clearTimeout(timer);
        resetAtomCache(client);
        resolve(new XConnection(client, display));
      });
      // Until the constructor attaches its own listener, errors during setup must not crash us.
      client.on('error', fail);
    });
  }

  get alive(): boolean {
    return this.lost === null;
  }

  close(): Promise<void> {
    if (!this.alive) return Promise.resolve();
    this.drop(new ConnectionLostError(this.display, 'it was closed'));
    return new Promise((resolve) => {
      // A wedged server never answers close()'s round trip; don't wait for it.
      const timer = setTimeout(() => {
        this.client.terminate();
        resolve();
      }, CLOSE_TIMEOUT_MS);
      timer.unref();
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      try {
        this.client.close(done);
      } catch {
        done();
      }
    });
  }

  private onClientError(err: unknown): void {
    // Protocol errors of requests without a callback land here; they never concern a promise
    // (every request we issue has one). Anything else is the socket failing.
    if (isXError(err)) return;
    this.drop(new ConnectionLostError(this.display, errorMessage(err)));
  }

  private drop(err: Error): void {
    if (this.lost) return;
    this.lost = err;
    for (const reject of this.pending) reject(err);
    this.pending.clear();
  }

  /** Issues one request; its reply, or its X error, settles the promise. */
  request<T>(issue: (cb: XCallback<T>) => void): Promise<T> {
    if (this.lost) return Promise.reject(this.lost);
    return new Promise<T>((resolve, reject) => {
      const fail = (err: Error) => reject(err);
      this.pending.add(fail);
      try {
        issue((err, result) => {
          this.pending.delete(fail);
          if (err) reject(err);
          else resolve(result);
          // Tells the package the error was handled, so it does not emit 'error' too.
          return true;
        });
      } catch (err) {
        // The package throws synchronously once the client is closing.
        this.pending.delete(fail);
        reject(err);
      }
    });
  }

  /**
   * Issues a raw extension request (the package lacks some, e.g. RandR GetMonitors): the
   * packet must carry the extension's major opcode and a correct length.
   */
  async rawRequest<T>(packet: Buffer, unpack: (body: Buffer, detail: number) => T): Promise<T> {
    // The package calls the unpacker from its socket handler, where a throw would be uncaught:
    // parse errors travel inside the reply instead.
    const safeUnpack = (body: Buffer, detail: number): { value: T } | { error: unknown } => {
      try {
        return { value: unpack(body, detail) };
      } catch (error) {
        return { error };
      }
    };
    const reply = await this.request<{ value: T } | { error: unknown }>((cb) => {
      const client = this.client;
      client.seq_num++;
      client.replies[client.seq_num] = [safeUnpack, cb as XCallback<never>];
      client.pack_stream.put(packet);
      client.pack_stream.submit(true);
    });
    if ('error' in reply) throw reply.error;
    return reply.value;
  }

  internAtom(name: string): Promise<number> {
    return this.request<number>((cb) => this.client.InternAtom(false, name, cb));
  }

  atomName(atom: number): Promise<string> {
    return this.request<string>((cb) => this.client.GetAtomName(atom, cb));
  }

  getProperty(wid: number, property: number): Promise<XProperty> {
    return this.request<XProperty>((cb) =>
      this.client.GetProperty(0, wid, property, AnyPropertyType, 0, PROPERTY_MAX_LONGS, cb),
    );
  }

  geometry(wid: number): Promise<XGeometry> {
    return this.request<XGeometry>((cb) => this.client.GetGeometry(wid, cb));
  }

  translateToRoot(wid: number): Promise<XTranslated> {
    return this.request<XTranslated>((cb) => this.client.TranslateCoordinates(wid, this.root, 0, 0, cb));
  }

  queryExtension(name: string) {
    return this.request<{ present: number; majorOpcode: number }>((cb) => this.client.QueryExtension(name, cb));
  }

  /** An EWMH request to the window manager: a 32-bit client message about `wid`, sent to the root. */
  sendToRoot(wid: number, messageType: number, data: number[]): Promise<void> {
    const padded = [...data, 0, 0, 0, 0, 0].slice(0, 5);
    return this.request<void>((cb) =>
      this.client.SendClientMessage(
        this.root,
        wid,
        messageType,
        32,
        padded,
        x11.eventMask.SubstructureRedirect | x11.eventMask.SubstructureNotify,
        cb,
      ),
    );
  }

  /** A round trip: every request issued before it has been processed by the server. */
  sync(): Promise<void> {
    return this.request<unknown>((cb) => this.client.GetInputFocus(cb)).then(() => undefined);
  }
}

export type { XGeometry, XProperty, XTranslated };

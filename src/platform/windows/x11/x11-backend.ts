// WindowBackend for X11 desktops with an EWMH window manager, speaking the X protocol directly
// through the pure-JS `x11` package (no wmctrl/xdotool processes: those cost 12-18 ms a call).
import { DeskPilotError, WindowGoneError, WindowsUnavailableError, errorMessage } from '../../../engine/errors';
import type { RawMonitor, RawWindow, Rect4, WindowBackend } from '../../../engine/ports';
import { internAtoms, type Atoms } from './atoms';
import { requestActivate, requestAddStates, requestClose, requestIconify, requestMoveResize, requestRaise, requestRemoveStates } from './ewmh-requests';
import { expectedFrame, sameRect } from './frame-geometry';
import { readMonitorGeometry } from './monitor-source';
import { monitorWorkArea, parseStrut, type Strut } from './monitor-work-area';
import { processAlive } from './process-alive';
import { cardinals, text } from './property-decode';
import { connectFailureReason, missingDisplayReason, noWindowManagerReason } from './session-check';
import { pollUntil, pollUntilSettled } from './settle';
import { parseWindowId } from './window-id';
import { readAcceptsFocus, readActiveWindow, readClientList, readFrame, readSizeHints, readStates, readWindow, type FrameFacts } from './window-reader';
import { isWindowGone, isXError, XConnection } from './x-connection';

export interface X11WindowBackendOptions {
  /** X display, e.g. ":0"; defaults to process.env.DISPLAY. */
  display?: string;
  /** Upper bound for waiting on the window manager to apply a request (default 1000 ms). */
  settleTimeoutMs?: number;
}

const DEFAULT_SETTLE_TIMEOUT_MS = 1000;
const CONNECT_TIMEOUT_MS = 5000;
/** A healthy X server answers in well under a millisecond; past this it is wedged (e.g. grabbed). */
const ANSWER_TIMEOUT_MS = 5000;
// A frame read costs ~0.1 ms and openbox applies a move within ~1 ms: poll often so a placement returns as soon as it lands.
const POLL_MS = 2;
/** A geometry unchanged this long after it moved has been applied (the WM configures in one go). */
const QUIET_MS = 100;
/** How long the WM gets to react at all before a request counts as refused. */
const REACT_MS = 300;
/** A move is asked again at most once when the decorations changed under it. */
const MOVE_ATTEMPTS = 2;

interface Session {
  conn: XConnection;
  atoms: Atoms;
}

export function createX11WindowBackend(options: X11WindowBackendOptions = {}): X11WindowBackend {
  return new X11WindowBackend(options);
}

export class X11WindowBackend implements WindowBackend {
  private readonly display: string | undefined;
  private readonly settleTimeoutMs: number;
  private current: Session | null = null;
  private connecting: Promise<Session> | null = null;
  private disposed = false;

  constructor(options: X11WindowBackendOptions) {
    this.display = options.display ?? process.env.DISPLAY;
    this.settleTimeoutMs = options.settleTimeoutMs ?? DEFAULT_SETTLE_TIMEOUT_MS;
  }

  async describe(): Promise<string> {
    return this.run('reading the window manager name', async ({ conn, atoms }) => {
      const name = await readWmName(conn, atoms);
      return `X11 (${name ?? 'no EWMH window manager'}) on ${conn.display}`;
    });
  }

  async listMonitors(): Promise<RawMonitor[]> {
    return this.run('listing monitors', async ({ conn, atoms }) => {
      const [monitors, workarea, struts] = await Promise.all([readMonitorGeometry(conn), readWorkarea(conn, atoms), readStruts(conn, atoms)]);
      return monitors.map((m) => ({
        id: m.id,
        name: m.name,
        bounds: m.bounds,
        workArea: monitorWorkArea({ bounds: m.bounds, workarea, struts, screenWidth: conn.screenWidth, screenHeight: conn.screenHeight }),
        primary: m.primary,
        // X11 reports physical pixels; there is no per-monitor logical scale to apply.
        scale: 1,
      }));
    });
  }

  async listWindows(): Promise<RawWindow[]> {
    return this.run('listing windows', async ({ conn, atoms }) => {
      const [{ ids, stacking }, active] = await Promise.all([readClientList(conn, atoms), readActiveWindow(conn, atoms)]);
      // The stacking list is bottom-to-top; the engine wants the topmost first.
      const order = stacking ? [...ids].reverse() : ids;
      const windows = await Promise.all(
        order.map((xid) =>
          readWindow(conn, atoms, xid, active).catch((err: unknown) => {
            // Closed while we were reading it: it is simply not in the list.
            if (isWindowGone(err)) return null;
            throw err;
          }),
        ),
      );
      return windows.filter((w): w is RawWindow => w !== null);
    });
  }

  async focused(): Promise<RawWindow | null> {
    return this.run('reading the focused window', async ({ conn, atoms }) => {
      const active = await readActiveWindow(conn, atoms);
      if (!active) return null;
      return readWindow(conn, atoms, active, active).catch((err: unknown) => {
        if (isWindowGone(err)) return null;
        throw err;
      });
    });
  }

  async focus(id: string): Promise<void> {
    await this.runOn(id, 'focusing a window', async ({ conn, atoms }, xid) => {
      const focusable = await readAcceptsFocus(conn, atoms, xid);
      await requestActivate(conn, atoms, xid);
      // Done once shown and the active window; a window that refuses input focus (xclock) can
      // only be raised, so for it being shown on top of the stack is all there is to wait for.
      await pollUntil(
        async () => {
          const [active, { ids }, states] = await Promise.all([readActiveWindow(conn, atoms), readClientList(conn, atoms), readStates(conn, atoms, xid)]);
          const shown = !states.includes(atoms._NET_WM_STATE_HIDDEN);
          return shown && (focusable ? active === xid : ids[ids.length - 1] === xid);
        },
        (done) => done,
        this.settleTimeoutMs,
        POLL_MS,
      );
    });
  }

  async raise(id: string): Promise<void> {
    await this.runOn(id, 'raising a window', async ({ conn, atoms }, xid) => {
      await requestRaise(conn, atoms, xid);
      // Done once it is the top of the stacking order (a window kept above others may stay below those).
      await pollUntil(
        async () => (await readClientList(conn, atoms)).ids,
        (ids) => ids[ids.length - 1] === xid,
        this.settleTimeoutMs,
        POLL_MS,
      );
    });
  }

  async restore(id: string): Promise<void> {
    await this.runOn(id, 'restoring a window', (session, xid) => this.restoreStates(session, xid));
  }

  async minimize(id: string): Promise<void> {
    await this.runOn(id, 'minimising a window', async ({ conn, atoms }, xid) => {
      await requestIconify(conn, atoms, xid);
      await pollUntil(
        () => readStates(conn, atoms, xid),
        (states) => states.includes(atoms._NET_WM_STATE_HIDDEN),
        this.settleTimeoutMs,
        POLL_MS,
      );
    });
  }

  async setFullscreen(id: string, on: boolean): Promise<void> {
    await this.runOn(id, on ? 'making a window full screen' : 'leaving full screen', async ({ conn, atoms }, xid) => {
      const FULLSCREEN = atoms._NET_WM_STATE_FULLSCREEN;
      if (on) await requestAddStates(conn, atoms, xid, FULLSCREEN);
      else await requestRemoveStates(conn, atoms, xid, FULLSCREEN);
      await pollUntil(
        () => readStates(conn, atoms, xid),
        (states) => states.includes(FULLSCREEN) === on,
        this.settleTimeoutMs,
        POLL_MS,
      );
      await this.frameSettled({ conn, atoms }, xid);
    });
  }

  async setFrameBounds(id: string, bounds: Rect4): Promise<Rect4> {
    return this.runOn(id, 'moving a window', async (session, xid) => {
      const { conn, atoms } = session;
      // A maximised or fullscreen window ignores move/resize requests. The engine restores
      // first, but a caller that did not must still get the placement it asked for.
      await this.restoreStates(session, xid);
      // Extents can change with state (openbox drops the border of maximised windows): read them now.
      let [facts, hints] = await Promise.all([readFrame(conn, atoms, xid), readSizeHints(conn, xid)]);
      const target: Rect4 = [...bounds];
      for (let attempt = 1; ; attempt++) {
        const { extents, border } = facts;
        const expected = expectedFrame(target, extents, border, hints);
        await requestMoveResize(conn, atoms, xid, target, extents, border);
        const { value } = await pollUntilSettled(
          () => readFrame(conn, atoms, xid),
          (now) => sameRect(now.frame, expected),
          (a, b) => sameRect(a.frame, b.frame),
          this.settleOptions(),
        );
        // The client size was worked out from decorations the WM has since changed (it was still
        // re-decorating after a state change, e.g. leaving full screen): ask again with the new ones.
        if (sameDecoration(value, facts) || attempt === MOVE_ATTEMPTS) return value.frame;
        [facts, hints] = [value, await readSizeHints(conn, xid)];
      }
    });
  }

  async close(id: string): Promise<void> {
    await this.runOn(id, 'closing a window', async ({ conn, atoms }, xid) => {
      await requestClose(conn, atoms, xid);
      // The request has reached the server (and so the window manager's queue) once this returns.
      await conn.sync();
    });
  }

  processAlive(pid: number): Promise<boolean> {
    return processAlive(pid);
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    const session = this.current ?? (await this.connecting?.catch(() => null)) ?? null;
    this.current = null;
    await session?.conn.close();
  }

  // -------------------------------------------------------------------------------------------

  /** Un-minimise, un-maximise, leave fullscreen and unshade; waits (bounded) until the WM has. */
  private async restoreStates({ conn, atoms }: Session, xid: number): Promise<void> {
    const reshaping = [
      atoms._NET_WM_STATE_MAXIMIZED_VERT,
      atoms._NET_WM_STATE_MAXIMIZED_HORZ,
      atoms._NET_WM_STATE_FULLSCREEN,
      atoms._NET_WM_STATE_SHADED,
    ];
    const blocking = [atoms._NET_WM_STATE_HIDDEN, ...reshaping];
    const states = await readStates(conn, atoms, xid);
    if (!states.some((s) => blocking.includes(s))) return;
    const requests: Promise<void>[] = [];
    // HIDDEN is the WM's to set and clear (EWMH): activation is how a minimised window comes back.
    if (states.includes(atoms._NET_WM_STATE_HIDDEN)) requests.push(requestActivate(conn, atoms, xid));
    requests.push(requestRemoveStates(conn, atoms, xid, atoms._NET_WM_STATE_MAXIMIZED_VERT, atoms._NET_WM_STATE_MAXIMIZED_HORZ));
    requests.push(requestRemoveStates(conn, atoms, xid, atoms._NET_WM_STATE_FULLSCREEN, atoms._NET_WM_STATE_SHADED));
    await Promise.all(requests);
    await pollUntil(
      () => readStates(conn, atoms, xid),
      (now) => !now.some((s) => blocking.includes(s)),
      this.settleTimeoutMs,
      POLL_MS,
    );
    // Leaving these changes the decorations and the frame, and the WM writes the state first
    // (openbox: state, then frame extents, then the restored geometry): a placement measured
    // now would use the old extents. Done once the window holds still.
    if (states.some((s) => reshaping.includes(s))) await this.frameSettled({ conn, atoms }, xid);
  }

  /** Waits (bounded) until the frame and its decorations hold still after the WM reacted to a request. */
  private async frameSettled({ conn, atoms }: Session, xid: number): Promise<void> {
    await pollUntilSettled(
      () => readFrame(conn, atoms, xid),
      () => false,
      (a, b) => sameRect(a.frame, b.frame) && sameDecoration(a, b),
      this.settleOptions(),
    );
  }

  private settleOptions() {
    return { timeoutMs: this.settleTimeoutMs, quietMs: QUIET_MS, reactMs: Math.min(REACT_MS, this.settleTimeoutMs), intervalMs: POLL_MS };
  }

  private async session(): Promise<Session> {
    if (this.disposed) throw new WindowsUnavailableError('the X11 window backend has been disposed');
    if (this.current?.conn.alive) return this.current;
    // A dropped connection (X server restarted, WM crash took it down) is replaced on the next call.
    this.current = null;
    this.connecting ??= this.connect().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  private async connect(): Promise<Session> {
    const reason = missingDisplayReason(this.display, process.env);
    if (reason) throw new WindowsUnavailableError(reason);
    const display = this.display!;
    let conn: XConnection;
    try {
      conn = await XConnection.open(display, CONNECT_TIMEOUT_MS);
    } catch (err) {
      throw new WindowsUnavailableError(connectFailureReason(display, process.env, errorMessage(err)));
    }
    try {
      const atoms = await internAtoms(conn);
      if ((await readWmName(conn, atoms)) === null) throw new WindowsUnavailableError(noWindowManagerReason(display));
      if (this.disposed) throw new WindowsUnavailableError('the X11 window backend has been disposed');
      this.current = { conn, atoms };
      return this.current;
    } catch (err) {
      await conn.close();
      throw err;
    }
  }

  /** Runs `op` on the live session, bounded in time; a wedged server costs the connection, not a hang. */
  private async run<T>(what: string, op: (session: Session) => Promise<T>, budgetMs = ANSWER_TIMEOUT_MS): Promise<T> {
    const session = await this.session();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        void session.conn.close();
        reject(new WindowsUnavailableError(`the X server at ${session.conn.display} did not answer within ${budgetMs} ms (${what})`));
      }, budgetMs);
      timer.unref();
    });
    try {
      return await Promise.race([op(session), timeout]);
    } catch (err) {
      if (err instanceof DeskPilotError) throw err;
      // Other protocol errors are bugs or server oddities; say where, without crashing anything.
      if (isXError(err)) throw new DeskPilotError(`X11 request failed while ${what}: ${err.message} (error ${err.error})`, 'x11_error');
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Runs `op` on one managed window. An id that no longer names a window the window manager
   * manages (closed, or unmanaged and its id not yet reused) is a WindowGoneError.
   */
  private runOn<T>(id: string, what: string, op: (session: Session, xid: number) => Promise<T>): Promise<T> {
    const xid = parseWindowId(id);
    if (xid === null) return Promise.reject(new WindowGoneError(id));
    return this.run(
      what,
      async (session) => {
        if (!(await readClientList(session.conn, session.atoms)).ids.includes(xid)) throw new WindowGoneError(id);
        try {
          return await op(session, xid);
        } catch (err) {
          if (isWindowGone(err)) throw new WindowGoneError(id);
          throw err;
        }
      },
      ANSWER_TIMEOUT_MS + 3 * this.settleTimeoutMs,
    );
  }
}

/** Same decorations: what the client size of a frame is worked out from. */
function sameDecoration(a: FrameFacts, b: FrameFacts): boolean {
  const [x, y] = [a.extents, b.extents];
  return a.border === b.border && x.left === y.left && x.right === y.right && x.top === y.top && x.bottom === y.bottom;
}

/**
 * The EWMH window manager's name, or null when none runs: _NET_SUPPORTING_WM_CHECK on the root
 * names a child window that must point to itself (a stale value outlives a crashed WM).
 */
async function readWmName(conn: XConnection, atoms: Atoms): Promise<string | null> {
  const check = cardinals(await conn.getProperty(conn.root, atoms._NET_SUPPORTING_WM_CHECK))[0];
  if (!check) return null;
  try {
    const [self, name] = await Promise.all([
      conn.getProperty(check, atoms._NET_SUPPORTING_WM_CHECK),
      conn.getProperty(check, atoms._NET_WM_NAME),
    ]);
    if (cardinals(self)[0] !== check) return null;
    return text(name, atoms.UTF8_STRING) || 'unnamed window manager';
  } catch (err) {
    if (isWindowGone(err)) return null;
    throw err;
  }
}

/** _NET_WORKAREA of the current desktop (one x, y, width, height per desktop). */
async function readWorkarea(conn: XConnection, atoms: Atoms): Promise<Rect4 | null> {
  const [areas, current] = await Promise.all([
    conn.getProperty(conn.root, atoms._NET_WORKAREA).then(cardinals),
    conn.getProperty(conn.root, atoms._NET_CURRENT_DESKTOP).then(cardinals),
  ]);
  const desk = current[0] ?? 0;
  const area = areas.slice(desk * 4, desk * 4 + 4);
  if (area.length < 4) return null;
  const [x, y, w, h] = area as [number, number, number, number];
  return [x, y, x + w, y + h];
}

/** Struts of every managed window (docks and panels set them; a WM honours them from any client). */
async function readStruts(conn: XConnection, atoms: Atoms): Promise<Strut[]> {
  const clients = cardinals(await conn.getProperty(conn.root, atoms._NET_CLIENT_LIST));
  const struts = await Promise.all(
    clients.map(async (xid) => {
      try {
        const [partial, legacy] = await Promise.all([
          conn.getProperty(xid, atoms._NET_WM_STRUT_PARTIAL).then(cardinals),
          conn.getProperty(xid, atoms._NET_WM_STRUT).then(cardinals),
        ]);
        return parseStrut(partial, legacy, conn.screenWidth, conn.screenHeight);
      } catch (err) {
        if (isWindowGone(err)) return null;
        throw err;
      }
    }),
  );
  return struts.filter((s): s is Strut => s !== null);
}

// WindowBackend for KDE Plasma on Wayland, where no program may move another's windows except
// through the compositor: every call runs a short KWin script (kwin-script.ts) over D-Bus that
// acts inside KWin and calls back to DeskPilot's receiver with its answer (kwin-bridge.ts).
import { z } from 'zod';
import { DeskPilotError, WindowGoneError, WindowsUnavailableError } from '../../../engine/errors';
import type { RawMonitor, RawWindow, Rect4, WindowBackend } from '../../../engine/ports';
import { processAlive } from '../x11/process-alive';
import { sleep } from '../../../engine/sleep';
import { pollUntil } from '../x11/settle';
import { KwinSnapshot, KwinWindowInfo, readAnswer, toRawMonitors, toRect4, windowsTopFirst } from './kwin-answers';
import { KwinBridge } from './kwin-bridge';
import { KWIN_WINDOW_ID, kwinScript, type KwinRequest } from './kwin-script';
import { parseScreenNames, type ScreenName } from './screen-names';

export interface KwinWindowBackendOptions {
  env: NodeJS.ProcessEnv;
  /** How long one script gets to answer (default 5000 ms; a healthy KWin answers in ~10 ms). */
  answerTimeoutMs?: number;
  /** Upper bound for KWin to apply a move, minimise or full-screen change (default 2000 ms). */
  settleTimeoutMs?: number;
}

const DEFAULT_ANSWER_TIMEOUT_MS = 5000;
const DEFAULT_SETTLE_TIMEOUT_MS = 2000;
// A script round trip costs ~5-10 ms: poll back to back, a little apart.
const POLL_MS = 5;
/** A frame unchanged this long after it moved has been applied (the client acked the configure). */
const QUIET_MS = 100;
/** How long KWin and the client get to react at all before a request counts as refused. */
const REACT_MS = 400;

export async function createKwinWindowBackend(opts: KwinWindowBackendOptions): Promise<WindowBackend> {
  return new KwinWindowBackend(opts);
}

/** Why the KWin backend cannot run in this environment, or null. */
export function kwinUnavailableReason(env: NodeJS.ProcessEnv): string | null {
  if (!env.DBUS_SESSION_BUS_ADDRESS || env.DBUS_SESSION_BUS_ADDRESS === 'disabled:') {
    return 'the KWin backend needs the KDE session bus, and DBUS_SESSION_BUS_ADDRESS is not set';
  }
  return null;
}

const sameRect = (a: Rect4, b: Rect4) => a.every((v, i) => v === b[i]);

export class KwinWindowBackend implements WindowBackend {
  private readonly env: NodeJS.ProcessEnv;
  private readonly answerTimeoutMs: number;
  private readonly settleTimeoutMs: number;
  private bridge: KwinBridge | null = null;
  private opening: Promise<KwinBridge> | null = null;
  private disposed = false;
  private snapshotting: { actions: number; promise: Promise<KwinSnapshot> } | null = null;
  /** Counts actions (moves, state changes), so a snapshot is only shared when none came between. */
  private actions = 0;
  /** KWin 5's output names by screen index, and the screen geometry they were read for. */
  private names: { key: string; names: Map<number, ScreenName> } | null = null;

  constructor(opts: KwinWindowBackendOptions) {
    this.env = opts.env;
    this.answerTimeoutMs = opts.answerTimeoutMs ?? DEFAULT_ANSWER_TIMEOUT_MS;
    this.settleTimeoutMs = opts.settleTimeoutMs ?? DEFAULT_SETTLE_TIMEOUT_MS;
  }

  /** A Wayland app cannot focus itself: switch_tab focuses the browser's window through here. */
  readonly appsCannotTakeFocus = true;

  async describe(): Promise<string> {
    const snap = await this.snapshot('describing the session');
    return `KWin (Wayland) over D-Bus scripting, ${snap.screens.length} screen${snap.screens.length === 1 ? '' : 's'}`;
  }

  async listMonitors(): Promise<RawMonitor[]> {
    const snap = await this.snapshot('listing monitors');
    return toRawMonitors(snap.screens, await this.screenNames(snap));
  }

  async listWindows(): Promise<RawWindow[]> {
    return windowsTopFirst(await this.snapshot('listing windows'));
  }

  async focused(): Promise<RawWindow | null> {
    return windowsTopFirst(await this.snapshot('reading the focused window')).find((w) => w.focused) ?? null;
  }

  async focus(id: string): Promise<void> {
    const after = await this.act({ op: 'activate', id: this.checkId(id) }, 'focusing a window');
    await this.waitFor(id, 'focusing a window', (w) => w.active && !w.minimized, after);
  }

  /** KWin's scripting API raises by activating: the window also takes input focus. */
  async raise(id: string): Promise<void> {
    await this.focus(id);
  }

  async restore(id: string): Promise<void> {
    const after = await this.act({ op: 'restore', id: this.checkId(id) }, 'restoring a window');
    await this.waitFor(id, 'restoring a window', (w) => !w.minimized && !w.fullScreen, after);
    // Leaving full screen changes the frame: done once it holds still.
    const before = after.previous;
    if (before?.fullScreen) await this.frameSettled(id, 'restoring a window', toRect4(before.frame));
  }

  async minimize(id: string): Promise<void> {
    const after = await this.act({ op: 'minimize', id: this.checkId(id) }, 'minimising a window');
    await this.waitFor(id, 'minimising a window', (w) => w.minimized, after);
  }

  async setFullscreen(id: string, on: boolean): Promise<void> {
    const what = on ? 'making a window full screen' : 'leaving full screen';
    const after = await this.act({ op: 'fullscreen', id: this.checkId(id), on }, what);
    const met = await this.waitFor(id, what, (w) => w.fullScreen === on, after);
    if (!met) throw new DeskPilotError(`KWin did not ${on ? 'make the window full screen' : 'take the window out of full screen'} within ${this.settleTimeoutMs} ms`, 'unavailable');
    await this.frameSettled(id, what, toRect4((after.previous ?? after).frame));
  }

  async setFrameBounds(id: string, bounds: Rect4): Promise<Rect4> {
    const [left, top, right, bottom] = bounds;
    if (!(right > left && bottom > top)) throw new DeskPilotError(`bounds [${bounds.join(', ')}] are empty`, 'invalid_argument');
    const what = 'moving a window';
    const after = await this.act({ op: 'move', id: this.checkId(id), x: left, y: top, width: right - left, height: bottom - top }, what);
    // KWin applies a move once the client acks the new size, after this script returned: read
    // it back until it is what was asked or holds still (a terminal rounds to character cells).
    return this.frameSettled(id, what, toRect4((after.previous ?? after).frame), bounds);
  }

  async close(id: string): Promise<void> {
    this.actions++;
    await this.run({ op: 'close', id: this.checkId(id) }, z.null(), 'closing a window', id);
  }

  processAlive(pid: number): Promise<boolean> {
    return processAlive(pid);
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    const bridge = this.bridge ?? (await this.opening?.catch(() => null)) ?? null;
    this.bridge = null;
    await bridge?.close();
  }

  // -------------------------------------------------------------------------------------------

  /** An id KWin could have given; anything else names no window (and never reaches a script). */
  private checkId(id: string): string {
    if (!KWIN_WINDOW_ID.test(id)) throw new WindowGoneError(id);
    return id;
  }

  /**
   * One script answers every snapshot asked for while it runs: the engine lists windows, monitors
   * and the focused window at the same moment, and each would otherwise cost its own script.
   */
  private snapshot(what: string): Promise<KwinSnapshot> {
    // Never one that started before an action of ours: it could show the windows as they were.
    if (this.snapshotting?.actions === this.actions) return this.snapshotting.promise;
    const current = { actions: this.actions, promise: this.run({ op: 'snapshot' }, KwinSnapshot, what) };
    this.snapshotting = current;
    void current.promise.finally(() => {
      if (this.snapshotting === current) this.snapshotting = null;
    }).catch(() => undefined);
    return current.promise;
  }

  private act(request: Extract<KwinRequest, { id: string }>, what: string): Promise<KwinWindowInfo> {
    if (request.op !== 'window') this.actions++;
    return this.run(request, KwinWindowInfo, what, request.id);
  }

  private async readFrame(id: string, what: string): Promise<Rect4> {
    return toRect4((await this.act({ op: 'window', id }, what)).frame);
  }

  /**
   * Whether `done` holds: at once when the action's own answer shows it (KWin applies most state
   * at once), else by reading the window again until it does (bounded).
   */
  private async waitFor(id: string, what: string, done: (w: KwinWindowInfo) => boolean, answered: KwinWindowInfo): Promise<boolean> {
    if (done(answered)) return true;
    return (await pollUntil(() => this.act({ op: 'window', id }, what), done, this.settleTimeoutMs, POLL_MS)).met;
  }

  /**
   * Reads the frame until it equals `target`, or holds still: for QUIET_MS after it changed from
   * `before` (the frame when the request was made), or for REACT_MS if it never did (refused).
   * Bounded by the settle timeout; resolves with the last frame read.
   */
  private async frameSettled(id: string, what: string, before: Rect4 | null, target: Rect4 | null = null): Promise<Rect4> {
    const start = Date.now();
    let last = before ?? (await this.readFrame(id, what));
    let lastChange = start;
    let changed = false;
    for (;;) {
      const frame = await this.readFrame(id, what);
      const now = Date.now();
      if (target && sameRect(frame, target)) return frame;
      if (!sameRect(frame, last)) [last, lastChange, changed] = [frame, now, true];
      if (now - lastChange >= (changed ? QUIET_MS : REACT_MS) || now - start >= this.settleTimeoutMs) return frame;
      await sleep(POLL_MS);
    }
  }

  private async run<T>(request: KwinRequest, schema: z.ZodType<T>, what: string, windowId?: string): Promise<T> {
    const bridge = await this.open();
    const json = await bridge.run((token) => kwinScript(request, bridge.address, token), what);
    return readAnswer(json, schema, what, windowId);
  }

  /** KWin 5 names outputs only in its support information: read once per screen layout. */
  private async screenNames(snap: KwinSnapshot): Promise<Map<number, ScreenName>> {
    if (snap.screens.every((s) => s.name !== null)) return new Map();
    const key = JSON.stringify(snap.screens.map((s) => s.bounds));
    if (this.names?.key === key) return this.names.names;
    const bridge = await this.open();
    const [info] = await bridge.call('/KWin', 'org.kde.KWin', 'supportInformation', '', []);
    const names = typeof info === 'string' ? parseScreenNames(info) : new Map<number, ScreenName>();
    this.names = { key, names };
    return names;
  }

  private async open(): Promise<KwinBridge> {
    if (this.disposed) throw new WindowsUnavailableError('the KWin window backend has been disposed');
    if (this.bridge?.alive) return this.bridge;
    const stale = this.bridge;
    this.bridge = null;
    void stale?.close();
    this.opening ??= (async () => {
      const reason = kwinUnavailableReason(this.env);
      if (reason) throw new WindowsUnavailableError(reason);
      const bridge = await KwinBridge.open({ busAddress: this.env.DBUS_SESSION_BUS_ADDRESS!, answerTimeoutMs: this.answerTimeoutMs });
      if (this.disposed) {
        await bridge.close();
        throw new WindowsUnavailableError('the KWin window backend has been disposed');
      }
      this.bridge = bridge;
      return bridge;
    })().finally(() => {
      this.opening = null;
    });
    return this.opening;
  }
}


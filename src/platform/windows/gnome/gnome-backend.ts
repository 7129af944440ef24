// WindowBackend for GNOME Shell on Wayland. GNOME lets no client move another's windows, so
// every call goes to DeskPilot's own GNOME Shell extension (gnome-extension/deskpilot@deskpilot.app)
// over the session bus; without it each call says how to install it (never a silent no-op).
import { DeskPilotError, WindowGoneError } from '../../../engine/errors';
import type { RawMonitor, RawWindow, Rect4, WindowBackend } from '../../../engine/ports';
import { processAlive } from '../x11/process-alive';
import { pollUntil, pollUntilSettled } from '../x11/settle';
import { API_VERSION, frameTupleSchema, infoSchema, monitorsSchema, parseJsonAnswer, windowsSchema, type ShellWindow } from './extension-answers';
import { GnomeExtensionMissingError, ShellBus, sessionBusAddress } from './shell-bus';
import { toBox, toRawMonitor, toRawWindow, toRawWindows, toRect4 } from './shell-mapping';

export interface GnomeWindowBackendOptions {
  env: NodeJS.ProcessEnv;
  /** Upper bound for waiting on the shell to apply a state change (default 1000 ms). */
  settleTimeoutMs?: number;
}

const DEFAULT_SETTLE_TIMEOUT_MS = 1000;
// A List costs ~1 ms over the bus: poll often so a call returns as soon as its change shows.
const POLL_MS = 4;
const QUIET_MS = 60;
const REACT_MS = 300;

/** The name H14's backend choice loads (src/compose): resolves at once; the bus is dialled on first use. */
export async function createGnomeWindowBackend(opts: GnomeWindowBackendOptions): Promise<WindowBackend> {
  return new GnomeWindowBackend(opts);
}

export class GnomeWindowBackend implements WindowBackend {
  private readonly bus: ShellBus | null;
  private readonly noBusReason: string | null;
  private readonly settleTimeoutMs: number;
  private checked: Promise<string> | null = null;

  constructor(opts: GnomeWindowBackendOptions) {
    const address = sessionBusAddress(opts.env);
    this.bus = address ? new ShellBus(address) : null;
    this.noBusReason = address ? null : 'DBUS_SESSION_BUS_ADDRESS does not name a session bus in this environment';
    this.settleTimeoutMs = opts.settleTimeoutMs ?? DEFAULT_SETTLE_TIMEOUT_MS;
  }

  /** A Wayland app cannot focus itself: switch_tab focuses the browser's window through here. */
  readonly appsCannotTakeFocus = true;

  async describe(): Promise<string> {
    const shellVersion = await this.ready();
    return `GNOME Shell ${shellVersion} (Wayland) through the DeskPilot extension`;
  }

  async listMonitors(): Promise<RawMonitor[]> {
    const [text] = await this.call('Monitors');
    return parseJsonAnswer('Monitors', monitorsSchema, text).map(toRawMonitor);
  }

  async listWindows(): Promise<RawWindow[]> {
    return toRawWindows(await this.shellWindows());
  }

  async focused(): Promise<RawWindow | null> {
    const win = (await this.shellWindows()).find((w) => w.focused);
    return win ? toRawWindow(win) : null;
  }

  async focus(id: string): Promise<void> {
    // The extension answers whether it has the focus already (a Wayland window at once): only else wait.
    const [focused] = await this.call('Activate', 's', [checkId(id)]);
    if (focused !== true) await this.waitFor(id, (w) => w.focused && !w.minimized);
  }

  async raise(id: string): Promise<void> {
    const [onTop] = await this.call('Raise', 's', [checkId(id)]);
    if (onTop !== true) await this.waitFor(id, (w) => w.stacking === 0);
  }

  async restore(id: string): Promise<void> {
    // One call (a placement restores first, every time): the extension says whether anything was to undo.
    const [reshaped, changed] = await this.call('Restore', 's', [checkId(id)]);
    if (changed !== true) return;
    await this.waitFor(id, (w) => !w.fullscreen && !w.maximized && !w.minimized);
    // Leaving full screen or maximised resizes the window once its app has redrawn: wait for that.
    if (reshaped === true) await this.frameSettled(id);
  }

  async minimize(id: string): Promise<void> {
    await this.onWindow(id, 'Minimize');
    await this.waitFor(id, (w) => w.minimized);
  }

  async setFullscreen(id: string, on: boolean): Promise<void> {
    await this.call('SetFullscreen', 'sb', [checkId(id), on]);
    await this.waitFor(id, (w) => w.fullscreen === on);
    await this.frameSettled(id);
  }

  async setFrameBounds(id: string, bounds: Rect4): Promise<Rect4> {
    const [x, y, width, height] = toBox(bounds);
    if (!(width > 0 && height > 0)) throw new DeskPilotError(`bounds: a window needs a positive width and height (got ${width}x${height})`, 'invalid_argument');
    // The extension leaves full screen/maximised first, moves, and answers once the frame has landed.
    const got = frameTupleSchema.parse(await this.call('MoveResize', 'siiii', [checkId(id), x, y, width, height]));
    return toRect4({ x: got[0], y: got[1], width: got[2], height: got[3] });
  }

  async close(id: string): Promise<void> {
    await this.onWindow(id, 'Close');
  }

  processAlive(pid: number): Promise<boolean> {
    return processAlive(pid);
  }

  async dispose(): Promise<void> {
    this.bus?.close();
  }

  // -------------------------------------------------------------------------------------------

  /** The extension answers and speaks this API version; resolves with the shell's version. */
  private ready(): Promise<string> {
    this.checked ??= this.checkExtension().catch((err: unknown) => {
      // Not remembered: the next call looks again (the user may have just installed it and logged in).
      this.checked = null;
      throw err;
    });
    return this.checked;
  }

  private async checkExtension(): Promise<string> {
    if (!this.bus) throw new GnomeExtensionMissingError(this.noBusReason!);
    const [text] = await this.bus.call('Info');
    const info = parseJsonAnswer('Info', infoSchema, text);
    if (info.api_version !== API_VERSION) {
      throw new DeskPilotError(
        `GNOME Shell: the DeskPilot extension running speaks version ${info.api_version}, this DeskPilot version ${API_VERSION}; update it: deskpilot gnome-extension install, then log out and in`,
        'unavailable',
      );
    }
    return info.shell_version;
  }

  private async call(member: string, signature = '', body: unknown[] = []): Promise<unknown[]> {
    await this.ready();
    return this.bus!.call(member, signature, body);
  }

  private async onWindow(id: string, member: string): Promise<void> {
    await this.call(member, 's', [checkId(id)]);
  }

  private async shellWindows(): Promise<ShellWindow[]> {
    const [text] = await this.call('List');
    return parseJsonAnswer('List', windowsSchema, text);
  }

  private async window(id: string): Promise<ShellWindow> {
    checkId(id);
    const win = (await this.shellWindows()).find((w) => w.id === id);
    if (!win) throw new WindowGoneError(id);
    return win;
  }

  /** Waits (bounded) until the window shows the state asked for; the shell applies some asynchronously. */
  private async waitFor(id: string, done: (w: ShellWindow) => boolean): Promise<void> {
    await pollUntil(() => this.window(id), done, this.settleTimeoutMs, POLL_MS);
  }

  /** Waits (bounded) until the frame holds still: the app redraws at its new size after a state change. */
  private async frameSettled(id: string): Promise<void> {
    const same = (a: ShellWindow, b: ShellWindow) => a.frame.x === b.frame.x && a.frame.y === b.frame.y && a.frame.width === b.frame.width && a.frame.height === b.frame.height;
    await pollUntilSettled(() => this.window(id), () => false, same, { timeoutMs: this.settleTimeoutMs, quietMs: QUIET_MS, reactMs: REACT_MS, intervalMs: POLL_MS });
  }
}

/** An id the extension never gives (it gives decimal digits) names no window: gone, as elsewhere. */
function checkId(id: string): string {
  if (!/^[0-9]{1,20}$/.test(id)) throw new WindowGoneError(id);
  return id;
}

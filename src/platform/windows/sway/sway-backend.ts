// WindowBackend for sway (and i3) over the i3-compatible IPC socket ($SWAYSOCK / $I3SOCK): one
// warm connection, the tree for windows, outputs and workspaces for monitors, commands with
// [con_id=N] criteria for everything that changes. Window ids are sway's con_id, stable for the
// window's life. What sway does not have is said, not faked:
// - minimise: sway has none; the scratchpad (hidden, brought back on request) is its documented
//   equivalent, so minimise moves a window there and restore shows it again;
// - exact frames exist only for floating windows: placing a tiled window makes it floating first
//   (the window reports tiled: true, the engine says so and its undo tiles it again);
// - raise without focus: a window comes to the front by being focused.
import { DeskPilotError, WindowGoneError, WindowsUnavailableError } from '../../../engine/errors';
import type { RawMonitor, RawWindow, Rect4, WindowBackend } from '../../../engine/ports';
import { processAlive } from '../x11/process-alive';
import { pollUntil, pollUntilSettled } from '../x11/settle';
import { IpcClient } from './ipc-client';
import { MessageType } from './ipc-framing';
import { RecentReads } from './recent-reads';
import {
  SwayCommandReply,
  SwayNode,
  SwayOutputs,
  SwayVersion,
  SwayWorkspaces,
  findView,
  focusedView,
  markedBy,
  frameOf,
  tiledNeighbours,
  toMonitors,
  toRawWindow,
  viewsOf,
  type FoundView,
} from './sway-tree';

export interface SwayWindowBackendOptions {
  /** The IPC socket; defaults to $SWAYSOCK, then $I3SOCK. */
  socketPath?: string;
  env?: NodeJS.ProcessEnv;
  /** Upper bound for waiting on sway to apply a command (default 1000 ms). */
  settleTimeoutMs?: number;
}

const DEFAULT_SETTLE_TIMEOUT_MS = 1000;
// A tree costs ~1 ms to read; sway lays out at once, a client may answer its new size a frame later.
const POLL_MS = 5;
const QUIET_MS = 60;
const REACT_MS = 200;
/**
 * Where a tiled window DeskPilot took out of the layout belongs, kept in sway itself (so it holds
 * across DeskPilot processes) as marks, which sway never draws when they start with "_": on the
 * window itself when it went to the scratchpad (restore tiles it again), and on its neighbour in
 * the layout, the view it came after (or before), so tiling it again puts it back in its place.
 */
const tiledMark = (conId: number) => `_deskpilot_tiled_${conId}`;
const afterMark = (conId: number) => `_deskpilot_after_${conId}`;
const beforeMark = (conId: number) => `_deskpilot_before_${conId}`;
/** A client may still answer a configure sent for its tiled size after ours: how long a placed window is watched for that. */
const LATE_COMMIT_MS = 150;
const PLACE_ATTEMPTS = 2;
/** How long a read of the tree, outputs or workspaces is reused when no command went out since (recent-reads.ts). */
const REUSE_MS = 250;

export function socketPathFrom(env: NodeJS.ProcessEnv): string | null {
  return env.SWAYSOCK || env.I3SOCK || null;
}

export function createSwayWindowBackend(opts: SwayWindowBackendOptions = {}): SwayWindowBackend {
  return new SwayWindowBackend(opts);
}

export class SwayWindowBackend implements WindowBackend {
  private readonly ipc: IpcClient;
  private readonly settleTimeoutMs: number;
  /** "sway" or "i3": from the socket's variable, then from the version answer. */
  private name = 'sway';
  private described: Promise<string> | null = null;
  private readonly reads = new RecentReads(REUSE_MS);
  /** The window DeskPilot focused with its last command (raise after focus asks nothing more); null after any other. */
  private focusedByUs: number | null = null;

  constructor(opts: SwayWindowBackendOptions) {
    const socket = opts.socketPath ?? socketPathFrom(opts.env ?? process.env);
    if (!socket) throw new WindowsUnavailableError('the sway/i3 window backend needs SWAYSOCK (or I3SOCK): neither is set in this session');
    // sway's version answer names it (variant); i3's has no variant.
    this.name = (opts.socketPath ?? (opts.env ?? process.env).SWAYSOCK) ? 'sway' : 'i3';
    this.ipc = new IpcClient(socket, this.name);
    this.settleTimeoutMs = opts.settleTimeoutMs ?? DEFAULT_SETTLE_TIMEOUT_MS;
  }

  /** Asked once: a compositor keeps its version for as long as its socket (health asks often). */
  /** A Wayland app cannot focus itself: switch_tab focuses the browser's window through here. */
  readonly appsCannotTakeFocus = true;

  async describe(): Promise<string> {
    this.described ??= this.ipc.request(MessageType.GET_VERSION, '', SwayVersion, 'asking its version').then((v) => {
      this.name = v.variant ?? this.name;
      return `${this.name} ${v.human_readable} (IPC ${this.ipc.socketPath})`;
    });
    this.described.catch(() => (this.described = null));
    return this.described;
  }

  async listMonitors(): Promise<RawMonitor[]> {
    const [outputs, workspaces] = await Promise.all([
      this.reads.get('outputs', () => this.ipc.request(MessageType.GET_OUTPUTS, '', SwayOutputs, 'listing outputs')),
      this.reads.get('workspaces', () => this.ipc.request(MessageType.GET_WORKSPACES, '', SwayWorkspaces, 'listing workspaces')),
    ]);
    return toMonitors(outputs, workspaces);
  }

  async listWindows(): Promise<RawWindow[]> {
    return viewsOf(await this.tree()).map(toRawWindow);
  }

  async focused(): Promise<RawWindow | null> {
    const v = focusedView(await this.tree());
    return v ? toRawWindow(v) : null;
  }

  /** One command: sway answers once its tree holds the change, and "No matching node." for a window that is gone. */
  async focus(id: string): Promise<void> {
    const conId = conIdOf(id);
    await this.command(conId, 'focus', 'focusing a window');
    this.focusedByUs = conId;
  }

  /** sway raises a window by focusing it: there is no stacking change without focus. */
  async raise(id: string): Promise<void> {
    if (this.focusedByUs === parseConId(id)) return;
    await this.focus(id);
  }

  async restore(id: string): Promise<void> {
    const v = await this.view(id);
    if (v.minimized) {
      await this.command(v.node.id, 'scratchpad show', 'restoring a window (from the scratchpad)');
      // Taken out of the scratchpad by tiling it: only for a window that was tiled before.
      if (v.node.marks?.includes(tiledMark(v.node.id))) await this.retile(id);
    }
    if ((v.node.fullscreen_mode ?? 0) !== 0) {
      await this.command(v.node.id, 'fullscreen disable', 'leaving full screen');
    }
  }

  async minimize(id: string): Promise<void> {
    const tree = await this.tree();
    const v = this.found(tree, id);
    if (v.minimized) return;
    if (!v.floating) await this.markPlace(tree, v.node.id, [tiledMark(v.node.id)]);
    await this.command(v.node.id, 'move scratchpad', 'minimising a window (moving it to the scratchpad)');
  }

  async setFullscreen(id: string, on: boolean): Promise<void> {
    const v = await this.view(id);
    if (on && v.minimized) await this.restore(id);
    await this.command(v.node.id, `fullscreen ${on ? 'enable' : 'disable'}`, on ? 'making a window full screen' : 'leaving full screen');
  }

  /**
   * Floating, then exactly this outer frame: `resize set` sizes the whole container (title bar and
   * borders included) and `move absolute position` places its top-left corner in layout coordinates.
   */
  async setFrameBounds(id: string, bounds: Rect4): Promise<Rect4> {
    let tree = await this.tree();
    let v = this.found(tree, id);
    if (v.minimized || (v.node.fullscreen_mode ?? 0) !== 0) {
      await this.restore(id);
      tree = await this.tree();
      v = this.found(tree, id);
    }
    const wasTiled = !v.floating;
    if (wasTiled) await this.markPlace(tree, v.node.id, []);
    const [l, t, r, b] = bounds;
    const place = `floating enable, resize set width ${Math.max(1, r - l)} px height ${Math.max(1, b - t)} px, move absolute position ${l} px ${t} px`;
    for (let attempt = 1; ; attempt++) {
      await this.command(v.node.id, place, 'moving a window');
      const { value, met } = await pollUntilSettled(
        () => this.freshView(id),
        (now) => now.floating && sameRect(frameOf(now), bounds),
        (a, c) => sameRect(frameOf(a), frameOf(c)),
        { timeoutMs: this.settleTimeoutMs, quietMs: QUIET_MS, reactMs: REACT_MS, intervalMs: POLL_MS },
      );
      if (!met || !wasTiled) return frameOf(value);
      // Leaving the layout resized the other tiled windows, and this one may have had a tiled
      // size on its way when it was made floating: sway then takes the size the client commits
      // for a floating window. Watched briefly, and asked again once when that happened.
      const late = await pollUntil(() => this.freshView(id), (now) => !sameRect(frameOf(now), bounds), LATE_COMMIT_MS, POLL_MS);
      if (!late.met || attempt === PLACE_ATTEMPTS) return frameOf(late.value);
    }
  }

  /**
   * Back into the tiling layout, in the place it had (after or before the neighbour marked when it
   * left; else beside the workspace's focused tiled window); resolves with the frame it got there.
   */
  async retile(id: string): Promise<Rect4> {
    const v = await this.view(id);
    const conId = v.node.id;
    if (!v.floating) return frameOf(v);
    const tree = await this.tree();
    const after = markedBy(tree, afterMark(conId));
    const before = after ? null : markedBy(tree, beforeMark(conId));
    const ref = after ?? before;
    const steps = [
      // sway tiles a window beside the workspace's focused tiled window: focus the neighbour first.
      ...(ref ? [`[con_id=${ref.id}] focus`] : []),
      `[con_id=${conId}] floating disable`,
      ...(before ? [`[con_id=${conId}] swap container with con_id ${before.id}`] : []),
      ...(ref ? [`[con_id=${ref.id}] unmark ${after ? afterMark(conId) : beforeMark(conId)}`] : []),
      ...(v.node.marks?.includes(tiledMark(conId)) ? [`[con_id=${conId}] unmark ${tiledMark(conId)}`] : []),
    ];
    await this.run(steps.join('; '), 'tiling a window again');
    const { value } = await pollUntil(() => this.freshView(id), (now) => !now.floating, this.settleTimeoutMs, POLL_MS);
    return frameOf(value);
  }

  /** sway's `kill` asks the window to close (xdg_toplevel close, or WM_DELETE_WINDOW for XWayland): the close button's request, not a kill. */
  async close(id: string): Promise<void> {
    const { node } = await this.view(id);
    await this.command(node.id, 'kill', 'asking a window to close');
  }

  processAlive(pid: number): Promise<boolean> {
    return processAlive(pid);
  }

  async dispose(): Promise<void> {
    this.ipc.close();
  }

  // -------------------------------------------------------------------------------------------

  private tree(): Promise<SwayNode> {
    return this.reads.get('tree', () => this.ipc.request(MessageType.GET_TREE, '', SwayNode, 'reading the window tree'));
  }

  /** The window as sway has it now, never a kept read: for waiting on a change. */
  private async freshView(id: string): Promise<FoundView> {
    this.reads.forget();
    return this.view(id);
  }

  /** The window with this id now; a WindowGoneError when it closed (or never was one). */
  private async view(id: string): Promise<FoundView> {
    return this.found(await this.tree(), id);
  }

  private found(tree: SwayNode, id: string): FoundView {
    const v = findView(tree, conIdOf(id));
    if (!v) throw new WindowGoneError(id);
    return v;
  }

  /** Runs one command list on one window; a refusal becomes an error naming sway and its reason. */
  private command(conId: number, commands: string, doing: string): Promise<void> {
    return this.run(`[con_id=${conId}] ${commands}`, doing);
  }

  private async run(payload: string, doing: string): Promise<void> {
    // DeskPilot's commands change windows and workspaces, never outputs: those stay kept.
    this.reads.forget(['outputs']);
    this.focusedByUs = null;
    const replies = await this.ipc.request(MessageType.RUN_COMMAND, payload, SwayCommandReply, doing).finally(() => this.reads.forget(['outputs']));
    const failed = replies.find((r) => !r.success);
    if (!failed) return;
    if (failed.error === 'No matching node.') throw new WindowGoneError(/\[con_id=(\d+)\]/.exec(payload)?.[1] ?? '?');
    throw new DeskPilotError(`${this.name} refused ${doing}: ${failed.error ?? 'no reason given'}`, 'unavailable');
  }

  /**
   * Notes where a tiled window sits before it leaves the layout: `own` marks on it, and a mark on
   * the view before it (or else after it) in its container. Marks move, never pile up: sway keeps
   * each mark on one container.
   */
  private async markPlace(tree: SwayNode, conId: number, own: string[]): Promise<void> {
    const { before, after } = tiledNeighbours(tree, conId);
    const steps = [
      ...own.map((m) => `[con_id=${conId}] mark --add ${m}`),
      before !== null ? `[con_id=${before}] mark --add ${afterMark(conId)}` : after !== null ? `[con_id=${after}] mark --add ${beforeMark(conId)}` : null,
    ].filter((x): x is string => x !== null);
    if (steps.length) await this.run(steps.join('; '), 'noting where a tiled window sits');
  }
}

/** A con_id: a positive integer, written in decimal. */
export function parseConId(id: string): number | null {
  if (!/^[1-9]\d{0,9}$/.test(id)) return null;
  const n = Number(id);
  return n <= 0x7fffffff ? n : null;
}

/** The con_id an id names; an id that cannot be one names no window (gone). */
function conIdOf(id: string): number {
  const n = parseConId(id);
  if (n === null) throw new WindowGoneError(id);
  return n;
}

const sameRect = (a: readonly number[], b: readonly number[]) => a.every((v, i) => v === b[i]);

import type { MonitorInfo } from '../protocol/context';
import type { Layout, MonitorTarget } from '../protocol/window-layouts';
import type { CommandResult } from '../protocol/record';
import { groupWindows, nameResolver, type NameResolver } from './app-grouping';
import { DeskPilotError, WindowGoneError, WindowsUnavailableError } from './errors';
import { layoutWords, monitorWords, sizeAt } from './describe-windows';
import { layoutFrame, transferRect, width, height } from './geometry';
import { assignRoles, monitorFor, monitorOf } from './monitor-roles';
import type { AppCatalog, CatalogApp, RawWindow, Rect4, WindowBackend } from './ports';
import type { BatchFront } from './batch-front';
import type { UndoCollector } from './undo-collector';
import { sleep } from './sleep';
import { plural } from './words';
import type { DeskRead } from './desk-read';

// The window operations. Each one starts from a fresh window list, because the snapshot may
// be seconds old: a window that vanished in between is reported, never guessed.

export interface WindowOpsPorts {
  windows: (() => Promise<WindowBackend>) | null;
  windowsUnavailableReason?: string;
  apps: AppCatalog;
  /** How long to wait for a launched app's first window. */
  launchTimeoutMs?: number;
  /** The desk this exec's snapshot read, handed out once to the batch's first read (desk-read.ts). */
  takeDeskRead?: () => DeskRead | null;
}

export interface Desk {
  backend: WindowBackend;
  windows: RawWindow[];
  monitors: MonitorInfo[];
  nameOf: NameResolver;
  catalog: CatalogApp[];
}

export async function readDesk(ports: WindowOpsPorts): Promise<Desk> {
  if (!ports.windows) throw new WindowsUnavailableError(ports.windowsUnavailableReason ?? 'no window backend on this platform yet');
  const backend = await ports.windows();
  const read = ports.takeDeskRead?.();
  const [windows, raw, catalog] = read
    ? [read.windows, read.monitors, read.catalog]
    : await Promise.all([backend.listWindows(), backend.listMonitors(), ports.apps.list().catch(() => [])]);
  return { backend, windows, monitors: assignRoles(raw), nameOf: nameResolver(catalog), catalog };
}

export const windowsOf = (desk: Pick<Desk, 'windows' | 'nameOf'>, app: string): RawWindow[] =>
  desk.windows.filter((w) => desk.nameOf(w).toLowerCase() === app.toLowerCase());


export async function listApps(ports: WindowOpsPorts): Promise<CommandResult> {
  const desk = await readDesk(ports);
  const apps = groupWindows(desk.windows, desk.nameOf, desk.monitors);
  const names = apps.map((a) => (a.windows.length > 1 ? `${a.name} (${a.windows.length} windows)` : a.name));
  return { ok: true, message: `${plural(apps.length, 'app')} running${names.length ? `: ${names.join(', ')}` : ''}`, data: { apps } };
}

/**
 * The snapshot's window, if it still exists and is still the app's: a window that vanished is
 * reported, never replaced by another, and an id the system gave to another app's new window
 * since (X reuses ids) is not that window.
 */
export function stillOpen(desk: Pick<Desk, 'windows' | 'nameOf'>, id: string, app: string): RawWindow {
  const w = desk.windows.find((x) => x.id === id && desk.nameOf(x).toLowerCase() === app.toLowerCase());
  if (!w) throw new DeskPilotError(`${app}'s window closed after the snapshot; nothing was changed`, 'window_gone');
  return w;
}

export async function focusApp(app: string, windowId: string | null, ports: WindowOpsPorts, undo: UndoCollector, front?: BatchFront): Promise<CommandResult> {
  const desk = await readDesk(ports);
  const named = (id: string) => front?.focused({ label: app, refocus: () => desk.backend.focus(id) });
  if (windowId) {
    const w = stillOpen(desk, windowId, app);
    undo.noteFocus(desk.windows);
    if (w.minimized) {
      undo.touch(w, app);
      await desk.backend.restore(w.id);
    }
    await desk.backend.focus(w.id);
    named(w.id);
    return { ok: true, message: `Brought ${app} to the front${w.title ? ` ("${w.title}")` : ''}`, data: { window_id: w.id } };
  }
  const entry = desk.catalog.find((a) => a.name.toLowerCase() === app.toLowerCase());
  if (!entry) throw new DeskPilotError(`${app} is not running and is not an installed app`, 'app_unknown');
  const before = new Set(desk.windows.map((w) => w.id));
  undo.noteFocus(desk.windows);
  const { pid } = await ports.apps.launch(entry);
  const w = await waitForWindow(desk, entry.name, pid, before, ports.launchTimeoutMs ?? 10_000);
  await desk.backend.focus(w.id);
  named(w.id);
  return { ok: true, message: `Started ${entry.name} and brought it to the front`, data: { window_id: w.id, pid } };
}

/** Polls for the first new window of the app (or of the launched process). */
export async function waitForWindow(
  desk: Desk,
  app: string,
  pid: number | null,
  existing: ReadonlySet<string>,
  timeoutMs: number,
): Promise<RawWindow> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const all = await desk.backend.listWindows();
    const fresh = all.filter((w) => !existing.has(w.id));
    const w = fresh.find((x) => (pid !== null && x.pid === pid) || desk.nameOf(x).toLowerCase() === app.toLowerCase());
    if (w) return w;
    if (Date.now() > deadline) {
      throw new DeskPilotError(`started ${app}, but no window appeared within ${Math.round(timeoutMs / 1000)} s`, 'launch_timeout');
    }
    await sleep(100);
  }
}

export interface PlaceRequest {
  app: string;
  windowId: string;
  /** The monitor resolved from the command's target (found again by id), or null. */
  monitor?: MonitorInfo | null;
  /** The command's own monitor target, for the words of the result ("next", "2", "left"). */
  target?: MonitorTarget;
  bounds?: readonly number[];
  layout?: Layout;
  /** false: leave it where it is in the stacking order (default: raised, and focused at the end of the batch). */
  raise?: boolean;
}

export async function placeApp(req: PlaceRequest, ports: WindowOpsPorts, undo: UndoCollector, front?: BatchFront): Promise<CommandResult> {
  const desk = await readDesk(ports);
  let w = stillOpen(desk, req.windowId, req.app);
  if (w.minimized) {
    // A minimised window's frame can be a parking spot off-screen (Windows): restore, then read it.
    undo.touch(w, req.app);
    await desk.backend.restore(w.id);
    w = (await desk.backend.listWindows()).find((x) => x.id === w.id) ?? w;
  }
  const { frame: target, monitor } = targetFrame(w, req, desk.monitors);
  const got = await placeWindow(desk.backend, w, req.app, target, undo);
  if (req.raise !== false) front?.placed(desk.backend, w, req.app, desk.windows, undo, got);
  // Said as a person would ("XTerm → left half of LEFT"); the numbers are in `data` (--json, --verbose).
  return { ok: true, message: `${req.app} → ${placedWhere(req, target, monitor)}${sizeNote(target, got)}${floatedNote(w)}`, data: placementData(w, target, got) };
}

function placedWhere(req: PlaceRequest, target: Rect4, monitor: MonitorInfo | null): string {
  const on = monitor?.name ?? 'its monitor';
  if (req.bounds && !req.target) return sizeAt(target);
  if (req.layout === 'larger' || req.layout === 'smaller') return `a ${req.layout} frame on ${on}`;
  if (req.layout === 'maximize') return `all of ${on}`;
  if (req.layout) return `${layoutWords(req.layout)} of ${on}`;
  return monitorWords(req.target, monitor);
}

/** The monitor a resolved command named, among the monitors connected now. */
export function sameMonitor(resolved: MonitorInfo, monitors: readonly MonitorInfo[]): MonitorInfo {
  const now = monitors.find((m) => m.id === resolved.id);
  if (!now) throw new DeskPilotError(`monitor ${resolved.name} was disconnected after the snapshot`, 'monitor_missing');
  return now;
}

export function targetFrame(w: RawWindow, req: PlaceRequest, monitors: readonly MonitorInfo[]): { frame: Rect4; monitor: MonitorInfo | null } {
  const dest = req.monitor ? sameMonitor(req.monitor, monitors) : null;
  if (req.bounds) return { frame: [...req.bounds] as Rect4, monitor: dest };
  const from = monitorOf(w.bounds, monitors) ?? monitorFor(monitors, 'main');
  if (req.layout) {
    const on = dest ?? from;
    if (!on) throw new DeskPilotError(`${req.app}'s window is on no monitor`, 'monitor_missing');
    return { frame: layoutFrame(req.layout, on.work_area, w.bounds), monitor: on };
  }
  if (!dest) throw new DeskPilotError('place_app needs a monitor, bounds or a layout', 'invalid_input');
  return { frame: transferRect(w.bounds, (from ?? dest).work_area, dest.work_area), monitor: dest };
}

/** Restores (un-minimise, un-maximise) so bounds can apply, then places; returns what the window got. */
export async function placeWindow(backend: WindowBackend, w: RawWindow, app: string, target: Rect4, undo: UndoCollector): Promise<Rect4> {
  undo.touch(w, app);
  await backend.restore(w.id);
  return backend.setFrameBounds(w.id, target);
}

/** What the window did not take of the frame asked for, in words (the frames are in `data`); '' when it took all. */
export function sizeNote(asked: readonly number[], got: readonly number[]): string {
  if (width(asked) !== width(got) || height(asked) !== height(got)) return ` (the window allows only ${width(got)}x${height(got)})`;
  if (asked[0] !== got[0] || asked[1] !== got[1]) return ` (the window stopped at ${got[0]},${got[1]})`;
  return '';
}

/** Said when placing took a window out of a tiling layout (sway, i3): only a floating window has a frame of its own. */
export const floatedNote = (w: RawWindow): string => (w.tiled ? ' (made floating to place it; undo tiles it again)' : '');

const placementData = (w: RawWindow, target: Rect4, got: Rect4) => ({ window_id: w.id, before: w.bounds, requested: target, bounds: got });

export async function closeApp(app: string, windowIds: readonly string[], ports: WindowOpsPorts, undo: UndoCollector): Promise<CommandResult> {
  const desk = await readDesk(ports);
  // Windows the app opened after the snapshot are its windows too: quitting means all of them.
  const ids = new Set(windowIds);
  const wins = desk.windows.filter((w) => ids.has(w.id) || desk.nameOf(w).toLowerCase() === app.toLowerCase());
  if (wins.length === 0) throw new DeskPilotError(`${app} has no open window any more; nothing was closed`, 'window_gone');
  undo.cannotUndo(`closed ${app}`);
  // A window that closes by itself meanwhile is closed all the same; others keep closing.
  const asked = await Promise.allSettled(wins.map((w) => desk.backend.close(w.id)));
  const refused = asked.filter((a) => a.status === 'rejected' && !(a.reason instanceof WindowGoneError));
  if (refused.length === wins.length) throw (refused[0] as PromiseRejectedResult).reason;
  const closing = new Set(wins.map((w) => w.id));
  const pids = [...new Set(wins.map((w) => w.pid).filter((p): p is number => p !== null))];
  // Apps may ask to save first: wait briefly, then report what is true rather than kill.
  const deadline = Date.now() + 3000;
  let open: number;
  let alive: number;
  for (;;) {
    open = (await desk.backend.listWindows()).filter((w) => closing.has(w.id)).length;
    alive = (await Promise.all(pids.map((p) => desk.backend.processAlive(p)))).filter(Boolean).length;
    if ((open === 0 && alive === 0) || Date.now() > deadline) break;
    await sleep(50);
  }
  const windows = plural(wins.length, 'window');
  if (open > 0) {
    return { ok: false, message: `Asked ${app} to close ${windows}; ${open} still open (it may be asking to save)`, data: { still_open: open } };
  }
  const proc = pids.length === 0 ? '' : alive === 0 ? '; its process has exited' : '; its process is still running';
  return { ok: true, message: `Closed ${app} (${windows})${proc}`, data: { closed_windows: wins.length, process_exited: alive === 0 } };
}

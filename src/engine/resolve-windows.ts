import type { Bounds, CommandOf } from '../protocol/commands';
import type { ContextSnapshot, MonitorInfo, WindowInfo } from '../protocol/context';
import type { ResolvedCommand } from '../protocol/prepared-batch';
import { monitorOf, targetMonitor } from './monitor-roles';
import { findApp, noSuchApp, windowsOf } from './resolve-apps';

// Resolving the commands that move and size windows: each app to one window of the snapshot
// (the one its window id names, else its most recent), each monitor target ("next", "2", "top") to
// one connected monitor.

export const WINDOW_LAYOUT_TYPES = ['place_app', 'swap_apps', 'tile_apps', 'set_app_state'] as const;
type WindowLayoutCommand = CommandOf<(typeof WINDOW_LAYOUT_TYPES)[number]>;

export const isWindowLayoutCommand = (c: { type: string }): c is WindowLayoutCommand => (WINDOW_LAYOUT_TYPES as readonly string[]).includes(c.type);

/** `clarify`: nothing is wrong with the input but it fits several windows; the caller asks which. */
type Fail = (field: string | null, message: string, kind?: 'clarify') => void;

const ONE = { app: 'app_name', window: 'window_id' };

/**
 * The app's window to act on: the one `windowId` names, else its only window that the command
 * can concern. An id that is no longer open, or is another app's now (X reuses ids), is
 * refused: never applied to some other window. Several windows and no id: a question (kind
 * `clarify`) listing them — "xterm right" with three xterms must not move whichever was last
 * used (issue 27). `restoring`: the command brings a window back to normal (see windowsMeant).
 */
export function appWindow(
  snap: ContextSnapshot,
  name: string,
  windowId: string | null | undefined,
  fields: { app: string; window: string },
  fail: Fail,
  restoring = false,
): { app: string; windowId: string } | null {
  const app = findApp(snap, name, false);
  if (!app) return fail(fields.app, noSuchApp(name, snap, false)), null;
  const windows = windowsOf(snap, app);
  if (windowId) {
    if (windows.some((w) => w.id === windowId)) return { app, windowId };
    const owner = snap.running_apps.find((a) => a.windows.some((w) => w.id === windowId));
    return fail(fields.window, owner ? `window ${windowId} is ${owner.name}'s, not ${app}'s` : goneWindow(windowId)), null;
  }
  if (windows.length === 0) return fail(fields.app, `${app} has no open window to place`), null;
  const meant = windowsMeant(windows, restoring);
  if (meant.length > 1) return fail(fields.window, whichWindow(app, meant), 'clarify'), null;
  return { app, windowId: meant[0]!.id };
}

/**
 * The windows a command without an id can mean: restoring, those minimised, maximised or full
 * screen; otherwise those not minimised. All of them when none is in that state.
 */
export function windowsMeant<W extends Pick<WindowInfo, 'minimized' | 'state'>>(windows: readonly W[], restoring: boolean): W[] {
  const some = windows.filter((w) => (restoring ? w.minimized || (w.state !== undefined && w.state !== 'normal') : !w.minimized));
  return some.length ? some : [...windows];
}

const goneWindow = (id: string) => `no window ${id} is open now (it closed after the list it came from); list the windows again and use an id from there`;

/**
 * An app's windows as a person sees them: left to right, then top to bottom, minimised ones
 * last. The order questions list them in and "the second xterm" counts in (stable while focus
 * moves, unlike the stacking order).
 */
export function inScreenOrder<W extends Pick<WindowInfo, 'bounds' | 'minimized' | 'id'>>(windows: readonly W[]): W[] {
  const key = (w: W) => [w.minimized ? 1 : 0, w.bounds[0], w.bounds[1]] as const;
  return [...windows].sort((a, b) => {
    const [ka, kb] = [key(a), key(b)];
    return ka[0] - kb[0] || ka[1] - kb[1] || ka[2] - kb[2] || a.id.localeCompare(b.id);
  });
}

/** The question for an app with several windows: each by its title and id, in screen order. */
export function whichWindow(app: string, windows: readonly WindowInfo[]): string {
  const each = inScreenOrder(windows).map((w) => `"${w.title || 'untitled'}" (window_id ${w.id}${w.monitor ? `, on ${w.monitor}` : ''}${w.minimized ? ', minimised' : ''})`);
  return `${app} has ${windows.length} windows — which one? ${each.join('; ')}. Say which with window_id`;
}

const frameOf = (snap: ContextSnapshot, windowId: string) => snap.running_apps.flatMap((a) => a.windows).find((w) => w.id === windowId)?.bounds ?? null;

export function resolveWindowCommand(command: WindowLayoutCommand, snap: ContextSnapshot, fail: Fail): ResolvedCommand | null {
  switch (command.type) {
    case 'place_app': {
      const target = appWindow(snap, command.app_name, command.window_id, ONE, fail);
      if (!target) return null;
      const current = monitorOf(frameOf(snap, target.windowId)!, snap.monitors);
      // A layout is laid out on the monitor named, else on the one the window is on.
      const monitor = command.monitor
        ? targetMonitor(snap.monitors, command.monitor, current)
        : command.layout
          ? (current ?? `${target.app}'s window is on no monitor; say which with "monitor"`)
          : null;
      if (typeof monitor === 'string') return fail('monitor', monitor), null;
      const problem = command.bounds ? boundsProblem(command.bounds, monitor, command.monitor, snap.monitors) : null;
      if (problem) fail('bounds', problem);
      return problem ? null : { type: 'place_app', command, ...target, monitor };
    }
    case 'swap_apps':
    case 'tile_apps': {
      const windows = command.app_names.map((n, i) =>
        appWindow(snap, n, command.window_ids?.[i], { app: `app_names[${i}]`, window: command.window_ids ? `window_ids[${i}]` : `app_names[${i}]` }, fail),
      );
      if (windows.some((w) => w === null)) return null;
      const found = windows as Array<{ app: string; windowId: string }>;
      if (new Set(found.map((w) => w.windowId)).size < found.length) return fail('app_names', 'names the same app twice'), null;
      if (command.type === 'swap_apps') return { type: 'swap_apps', command, windows: found };
      const current = monitorOf(frameOf(snap, found[0]!.windowId)!, snap.monitors);
      const m = command.monitor ? targetMonitor(snap.monitors, command.monitor, current) : current ?? `${found[0]!.app}'s window is on no monitor; say which with "monitor"`;
      if (typeof m === 'string') return fail(command.monitor ? 'monitor' : 'app_names[0]', m), null;
      return { type: 'tile_apps', command, windows: found, monitor: m };
    }
    case 'set_app_state': {
      const target = appWindow(snap, command.app_name, command.window_id, ONE, fail, command.state === 'normal');
      return target && { type: 'set_app_state', command, ...target };
    }
  }
}

function boundsProblem(bounds: Bounds, monitor: MonitorInfo | null, named: string | undefined, all: readonly MonitorInfo[]): string | null {
  if (!intersects(bounds, all)) return `[${bounds.join(', ')}] lies entirely outside every monitor`;
  if (monitor && !intersects(bounds, [monitor])) return `[${bounds.join(', ')}] is not on the ${named} monitor (${monitor.name} is [${monitor.bounds.join(', ')}])`;
  return null;
}

function intersects(bounds: Bounds, monitors: readonly MonitorInfo[]): boolean {
  const [l, t, r, b] = bounds as [number, number, number, number];
  return monitors.some(({ bounds: [ml, mt, mr, mb] }) => l < mr && r > ml && t < mb && b > mt);
}

import type { Bounds, CommandOf } from '../protocol/commands';
import type { ContextSnapshot, MonitorInfo } from '../protocol/context';
import type { ResolvedCommand } from '../protocol/prepared-batch';
import { monitorOf, targetMonitor } from './monitor-roles';
import { findApp, noSuchApp, windowsOf } from './resolve-apps';

// Resolving the commands that move and size windows: each app to its most recent window in
// the snapshot, each monitor target ("next", "2", "top") to one connected monitor.

export const WINDOW_LAYOUT_TYPES = ['place_app', 'swap_apps', 'tile_apps', 'set_app_state'] as const;
type WindowLayoutCommand = CommandOf<(typeof WINDOW_LAYOUT_TYPES)[number]>;

export const isWindowLayoutCommand = (c: { type: string }): c is WindowLayoutCommand => (WINDOW_LAYOUT_TYPES as readonly string[]).includes(c.type);

type Fail = (field: string | null, message: string) => void;

/** The app's window to act on (its most recent one), or null after saying why. */
function appWindow(snap: ContextSnapshot, name: string, field: string, fail: Fail): { app: string; windowId: string } | null {
  const app = findApp(snap, name, false);
  if (!app) return fail(field, noSuchApp(name, snap, false)), null;
  const windowId = windowsOf(snap, app)[0]?.id;
  if (!windowId) return fail(field, `${app} has no open window to place`), null;
  return { app, windowId };
}

const frameOf = (snap: ContextSnapshot, app: string) => windowsOf(snap, app)[0]?.bounds ?? null;

export function resolveWindowCommand(command: WindowLayoutCommand, snap: ContextSnapshot, fail: Fail): ResolvedCommand | null {
  switch (command.type) {
    case 'place_app': {
      const target = appWindow(snap, command.app_name, 'app_name', fail);
      const current = target ? monitorOf(frameOf(snap, target.app)!, snap.monitors) : null;
      // A layout is laid out on the monitor named, else on the one the window is on.
      const monitor = command.monitor
        ? targetMonitor(snap.monitors, command.monitor, current)
        : command.layout
          ? (current ?? `${target?.app ?? command.app_name}'s window is on no monitor; say which with "monitor"`)
          : null;
      if (typeof monitor === 'string') return fail('monitor', monitor), null;
      const problem = command.bounds ? boundsProblem(command.bounds, monitor, command.monitor, snap.monitors) : null;
      if (problem) fail('bounds', problem);
      return target && !problem ? { type: 'place_app', command, ...target, monitor } : null;
    }
    case 'swap_apps':
    case 'tile_apps': {
      const windows = command.app_names.map((n, i) => appWindow(snap, n, `app_names[${i}]`, fail));
      if (windows.some((w) => w === null)) return null;
      const found = windows as Array<{ app: string; windowId: string }>;
      if (new Set(found.map((w) => w.windowId)).size < found.length) return fail('app_names', 'names the same app twice'), null;
      if (command.type === 'swap_apps') return { type: 'swap_apps', command, windows: found };
      const current = monitorOf(frameOf(snap, found[0]!.app)!, snap.monitors);
      const m = command.monitor ? targetMonitor(snap.monitors, command.monitor, current) : current ?? `${found[0]!.app}'s window is on no monitor; say which with "monitor"`;
      if (typeof m === 'string') return fail(command.monitor ? 'monitor' : 'app_names[0]', m), null;
      return { type: 'tile_apps', command, windows: found, monitor: m };
    }
    case 'set_app_state': {
      const target = appWindow(snap, command.app_name, 'app_name', fail);
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

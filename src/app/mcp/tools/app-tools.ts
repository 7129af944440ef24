import { z } from 'zod';
import { closestNames } from '../../../engine/closest-names';
import { centred } from '../../../engine/local-planner/placement';
import { monitorOf, targetMonitor } from '../../../engine/monitor-roles';
import { byName } from '../../../engine/words';
import { Bounds } from '../../../protocol/commands';
import { LAYOUTS, Layout, MonitorTarget } from '../../../protocol/window-layouts';
import type { ContextSnapshot, MonitorInfo, RunningApp, WindowInfo } from '../../../protocol/context';
import { gated } from '../confirm-gate';
import { defineTool } from '../define-tool';
import { appName, confirmFields, windowId } from '../fields';
import { batchOf, reportOutput } from '../report-output';
import { AppsOutput } from '../read-shapes';
import { appsData, appsText } from '../tab-text';
import { ToolError } from '../tool-error';

// Apps and their windows: list, focus, place (monitor, exact bounds, the named layouts,
// centred W×H), close.

export const listApps = defineTool({
  name: 'list_apps',
  title: 'List apps and windows',
  description: 'List the monitors (bounds and work area as [left,top,right,bottom]) and the running apps with their windows (title, frame, monitor, focused/minimized).',
  input: {},
  output: AppsOutput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async handler(_args, { ctx }) {
    const snap = await ctx.desk.snapshot({ summaries: false });
    if (!snap.sources.windows.ok) throw new ToolError(`Windows are unavailable: ${snap.sources.windows.message}`, 'unavailable');
    return { text: appsText(snap), data: appsData(snap) };
  },
});

export const focusApp = defineTool({
  name: 'focus_app',
  title: 'Focus an app',
  description: 'Bring an app to the front; an installed app that is not running is started. Use the exact name from list_apps or desktop_snapshot (case does not matter).',
  input: { app_name: appName.describe('The app\'s name, e.g. "Google Chrome" or "XTerm".'), window_id: windowId.optional() },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async handler(args, { ctx }) {
    return reportOutput(await ctx.desk.exec({ type: 'focus_app', app_name: args.app_name, ...which(args.window_id) }));
  },
});

// The protocol's named layouts (halves, quarters, thirds, sixths, maximize …), laid out by the
// engine when it runs; only "center" with a size is turned into bounds here.
const POSITIONS = LAYOUTS;

const size = (what: string) =>
  z
    .number({ error: 'must be a positive integer (pixels)' })
    .int({ error: 'must be a positive integer (pixels)' })
    .min(1, { error: 'must be a positive integer (pixels)' })
    .max(100_000, { error: 'is out of range' })
    .optional()
    .describe(`With position "center": the window's ${what} in pixels (default: its current ${what}).`);

export const placeApp = defineTool({
  name: 'place_app',
  title: 'Move or size an app window',
  description:
    "Move an app's most recent window. Give one of: monitor alone (moves it there, keeping its relative position and size); " +
    'position (a half, quarter, third, two-thirds, sixth, maximize, almost_maximize, larger/smaller, or center with optional width×height, inside the work area of `monitor`, default the monitor the window is on); ' +
    'or exact bounds [left, top, right, bottom] of the outer frame in absolute screen pixels.',
  input: {
    app_name: appName.describe('The app\'s name from list_apps, e.g. "Google Chrome".'),
    window_id: windowId.optional(),
    monitor: MonitorTarget.optional(),
    position: z.enum(POSITIONS, { error: `must be one of ${POSITIONS.join(', ')}` }).optional().describe(Layout.description ?? 'Where on the monitor.'),
    width: size('width'),
    height: size('height'),
    bounds: Bounds.optional(),
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async handler(args, { ctx }) {
    if (args.position === undefined && args.bounds === undefined && args.monitor === undefined) {
      throw new ToolError('Nothing was done: give monitor, position or bounds (see list_apps for the monitors).', 'invalid_argument');
    }
    if (args.position !== undefined && args.bounds !== undefined) throw new ToolError('Nothing was done: give position or bounds, not both.', 'invalid_argument');
    if ((args.width !== undefined || args.height !== undefined) && args.position !== 'center') {
      throw new ToolError('Nothing was done: width and height go with position "center" (for any other frame give bounds).', 'invalid_argument');
    }
    if (args.position === undefined) {
      return reportOutput(
        await ctx.desk.exec({ type: 'place_app', app_name: args.app_name, ...which(args.window_id), ...(args.monitor ? { monitor: args.monitor } : {}), ...(args.bounds ? { bounds: args.bounds } : {}) }),
      );
    }
    const snap = await ctx.desk.snapshot({ summaries: false });
    if (!snap.sources.windows.ok) throw new ToolError(`Nothing was done: windows are unavailable. ${snap.sources.windows.message}`, 'unavailable');
    const app = runningApp(snap, args.app_name);
    if (args.position !== 'center' || (args.width === undefined && args.height === undefined)) {
      const monitor = args.monitor ? { monitor: args.monitor } : {};
      return reportOutput(await ctx.desk.exec({ type: 'place_app', app_name: app.name, ...which(args.window_id), layout: args.position, ...monitor }, { snapshot: snap }));
    }
    const win = windowOf(app, args.window_id);
    const bounds = centredBounds(areaOf(snap, app, win, args.monitor), app, win, args.width, args.height);
    return reportOutput(await ctx.desk.exec({ type: 'place_app', app_name: app.name, ...which(args.window_id), bounds }, { snapshot: snap }));
  },
});

function runningApp(snap: ContextSnapshot, name: string): RunningApp {
  const app = byName(snap.running_apps, name, (a) => a.name);
  if (app) return app;
  const close = closestNames(name, snap.running_apps.map((a) => a.name), 5);
  const hint = close.length ? `closest: ${close.map((n) => `"${n}"`).join(', ')}` : 'call list_apps for the running apps';
  throw new ToolError(`Nothing was done: app_name: no running app is named "${name}"; ${hint}.`, 'invalid_argument');
}

const which = (id: string | undefined) => (id === undefined ? {} : { window_id: id });

/** The window named by id, else the app's most recent; an id that is not the app's is refused. */
function windowOf(app: RunningApp, id: string | undefined): WindowInfo {
  const win = id === undefined ? app.windows[0] : app.windows.find((w) => w.id === id);
  if (win) return win;
  if (id !== undefined) throw new ToolError(`Nothing was done: window_id: ${app.name} has no window ${id} open now; call list_windows for the windows open now.`, 'invalid_argument');
  throw new ToolError(`Nothing was done: ${app.name} has no open window to place.`, 'invalid_argument');
}

/** The monitor whose work area the position is in: the one named, else the one the window is on. */
function areaOf(snap: ContextSnapshot, app: RunningApp, win: WindowInfo, role: MonitorTarget | undefined): MonitorInfo {
  const current = monitorOf(win.bounds, snap.monitors) ?? (snap.monitors.length === 1 ? snap.monitors[0]! : null);
  const named = role ? targetMonitor(snap.monitors, role, current) : null;
  const monitor = role ? (typeof named === 'string' ? null : named) : current;
  if (monitor) return monitor;
  const names = snap.monitors.map((m) => `${m.name} (${m.roles.join('/') || 'no role'})`).join(', ');
  throw new ToolError(
    role ? `Nothing was done: monitor: no "${role}" monitor is connected (monitors: ${names || 'none'}).` : `Nothing was done: ${app.name}'s window is on no monitor; say which with monitor (${names}).`,
    'invalid_argument',
  );
}

/** Centred W×H (default: the window's own size) in the monitor's work area. */
function centredBounds(monitor: MonitorInfo, app: RunningApp, win: WindowInfo, width?: number, height?: number): number[] {
  const area = monitor.work_area;
  const [w, h] = [width ?? win.bounds[2] - win.bounds[0], height ?? win.bounds[3] - win.bounds[1]];
  const rect = centred(area, w, h);
  if (rect) return rect;
  const [aw, ah] = [area[2] - area[0], area[3] - area[1]];
  throw new ToolError(`Nothing was done: ${w}x${h} does not fit on ${monitor.name} (its work area is ${aw}x${ah}); give a smaller width/height.`, 'invalid_argument');
}

export const closeApp = defineTool({
  name: 'close_app',
  title: 'Quit an app',
  description:
    'Quit a running app gracefully (all its windows; it may ask to save). Asks the user first (unless they turned that off); ' +
    'when this client cannot ask, it answers with exactly what would close and a confirm_token — ask the user, then call again with the same app_name and that confirm_token.',
  input: { app_name: appName.describe('The running app\'s name from list_apps.'), ...confirmFields },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async handler(args, call) {
    return gated(call, { tool: 'close_app', args, prepare: async () => ({ batch: batchOf(await call.ctx.desk.prepare({ type: 'close_app', app_name: args.app_name })) }) });
  },
});

export const APP_TOOLS = [listApps, focusApp, placeApp, closeApp];

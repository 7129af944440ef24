import { z } from 'zod';
import { MAX_TILED } from '../../../protocol/commands';
import type { RecentItem } from '../../../protocol/context';
import { MonitorTarget, WINDOW_STATES } from '../../../protocol/window-layouts';
import { windowRows, windowsText } from '../../../engine/window-listing';
import { defineTool } from '../define-tool';
import { appName, text, windowId } from '../fields';
import { RecentOutput, WindowsOutput } from '../read-shapes';
import { reportOutput } from '../report-output';
import { ToolError } from '../tool-error';

// Windows beyond one placement — list them with their ids, swap two, tile several, minimise /
// restore / full screen — and reopening a recent file or project. Each is the protocol's own command, run (and
// validated against the desk) like the CLI's `exec`, so undo covers it where it can.

const windowIds = z
  .array(windowId.nullable())
  .max(MAX_TILED)
  .optional()
  .describe('Window ids from list_windows, one per app name in the same order (null: that app\'s most recent window); lets one app be named twice.');
const withIds = (ids: Array<string | null> | undefined) => (ids === undefined ? {} : { window_ids: ids });

export const listWindows = defineTool({
  name: 'list_windows',
  title: 'List windows',
  description:
    'Every window of this computer, topmost first: its window_id (what place_app, focus_app, set_app_state, swap_apps and tile_apps take), app, title, monitor, ' +
    'frame [left,top,right,bottom], state (normal/minimized/maximized/fullscreen), stacking (0 = topmost) and, for a browser window, its tabs (tab ids, as list_tabs gives them with ids: true).',
  input: {},
  output: WindowsOutput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async handler(_args, { ctx }) {
    const snap = await ctx.desk.snapshot({ summaries: false });
    if (!snap.sources.windows.ok) throw new ToolError(`Windows are unavailable: ${snap.sources.windows.message}`, 'unavailable');
    const rows = windowRows(snap);
    return { text: windowsText(rows), data: { windows: rows } };
  },
});

const appNames = (min: number, max: number, what: string) =>
  z
    .array(appName, { error: 'must be an array of app names' })
    .min(min, { error: `must name at least ${min} apps` })
    .max(max, { error: `must name at most ${max} apps` })
    .describe(what);

export const swapApps = defineTool({
  name: 'swap_apps',
  title: "Swap two apps' windows",
  description: "Swap two apps' windows: each takes the other's position and size, on whichever monitor it is. Names as in list_apps.",
  input: { app_names: appNames(2, 2, 'The two apps, e.g. ["Google Chrome", "XTerm"].'), window_ids: windowIds },
  // Swapping twice puts them back: not idempotent.
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async handler(args, { ctx }) {
    return reportOutput(await ctx.desk.exec({ type: 'swap_apps', app_names: args.app_names, ...withIds(args.window_ids) }));
  },
});

export const tileApps = defineTool({
  name: 'tile_apps',
  title: 'Tile apps side by side',
  description:
    `Put 2–${MAX_TILED} apps' windows side by side in equal columns filling a monitor's work area, left to right in the order given ` +
    '(default monitor: the one the first app is on).',
  input: {
    app_names: appNames(2, MAX_TILED, 'The apps, left to right, e.g. ["Google Chrome", "XTerm", "XClock"].'),
    window_ids: windowIds,
    monitor: MonitorTarget.optional(),
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async handler(args, { ctx }) {
    const monitor = args.monitor === undefined ? {} : { monitor: args.monitor };
    return reportOutput(await ctx.desk.exec({ type: 'tile_apps', app_names: args.app_names, ...withIds(args.window_ids), ...monitor }));
  },
});

export const setAppState = defineTool({
  name: 'set_app_state',
  title: 'Minimise, restore or full-screen an app',
  description:
    "Minimise an app's window, restore it (un-minimise, leave full screen), or make it truly full screen (no frame; not the same as place_app maximize). " +
    'Undo puts it back as it was.',
  input: {
    app_name: appName.describe('The running app\'s name from list_apps.'),
    window_id: windowId.optional(),
    state: z.enum(WINDOW_STATES, { error: `must be one of ${WINDOW_STATES.join(', ')}` }).describe('minimized, normal (restore) or fullscreen.'),
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async handler(args, { ctx }) {
    const which = args.window_id === undefined ? {} : { window_id: args.window_id };
    return reportOutput(await ctx.desk.exec({ type: 'set_app_state', app_name: args.app_name, ...which, state: args.state }));
  },
});

const recentLine = (r: RecentItem) => `${r.path}${r.app ? ` (${r.app})` : ''}${r.used_at ? ` · ${r.used_at.slice(0, 16).replace('T', ' ')}` : ''}`;

export const listRecent = defineTool({
  name: 'list_recent',
  title: 'Recent files and projects',
  description: 'The files and projects the user opened recently (the desktop\'s recent list; VS Code, Cursor and JetBrains projects), newest first. open_recent takes a path from here.',
  input: {},
  output: RecentOutput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async handler(_args, { ctx }) {
    const snap = await ctx.desk.snapshot({ summaries: false });
    const files = snap.recent_files ?? [];
    const projects = snap.recent_projects ?? [];
    const part = (title: string, items: RecentItem[]) => (items.length ? [`${title}:`, ...items.map((r) => `  ${recentLine(r)}`)] : [`${title}: none recorded`]);
    return { text: [...part('Recent files', files), ...part('Recent projects', projects)].join('\n'), data: { recent_files: files, recent_projects: projects } };
  },
});

export const openRecent = defineTool({
  name: 'open_recent',
  title: 'Reopen a recent file or project',
  description:
    'Reopen a file or project from list_recent, in the app named or else its own (a project in the IDE it was last open in, a file in its default app). ' +
    'Only a path list_recent shows is accepted. It cannot be undone.',
  input: {
    path: text(2048).describe('The exact path from list_recent.'),
    app_name: appName.optional().describe('An installed app to open it in, e.g. "Visual Studio Code"; leave out for its own.'),
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async handler(args, { ctx }) {
    const app = args.app_name === undefined ? {} : { app_name: args.app_name };
    return reportOutput(await ctx.desk.exec({ type: 'open_recent', path: args.path, ...app }));
  },
});

export const WINDOW_TOOLS = [listWindows, swapApps, tileApps, setAppState, listRecent, openRecent];

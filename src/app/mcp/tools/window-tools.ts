import { z } from 'zod';
import { MAX_TILED } from '../../../protocol/commands';
import type { RecentItem } from '../../../protocol/context';
import { MonitorTarget, WINDOW_STATES } from '../../../protocol/window-layouts';
import { defineTool } from '../define-tool';
import { appName, text } from '../fields';
import { reportOutput } from '../report-output';

// Windows beyond one placement — swap two, tile several, minimise / restore / full screen —
// and reopening a recent file or project. Each is the protocol's own command, run (and
// validated against the desk) like the CLI's `exec`, so undo covers it where it can.

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
  input: { app_names: appNames(2, 2, 'The two apps, e.g. ["Google Chrome", "XTerm"].') },
  // Swapping twice puts them back: not idempotent.
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async handler(args, { ctx }) {
    return reportOutput(await ctx.desk.exec({ type: 'swap_apps', app_names: args.app_names }));
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
    monitor: MonitorTarget.optional(),
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async handler(args, { ctx }) {
    const monitor = args.monitor === undefined ? {} : { monitor: args.monitor };
    return reportOutput(await ctx.desk.exec({ type: 'tile_apps', app_names: args.app_names, ...monitor }));
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
    state: z.enum(WINDOW_STATES, { error: `must be one of ${WINDOW_STATES.join(', ')}` }).describe('minimized, normal (restore) or fullscreen.'),
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async handler(args, { ctx }) {
    return reportOutput(await ctx.desk.exec({ type: 'set_app_state', app_name: args.app_name, state: args.state }));
  },
});

const recentLine = (r: RecentItem) => `${r.path}${r.app ? ` (${r.app})` : ''}${r.used_at ? ` · ${r.used_at.slice(0, 16).replace('T', ' ')}` : ''}`;

export const listRecent = defineTool({
  name: 'list_recent',
  title: 'Recent files and projects',
  description: 'The files and projects the user opened recently (the desktop\'s recent list; VS Code, Cursor and JetBrains projects), newest first. open_recent takes a path from here.',
  input: {},
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

export const WINDOW_TOOLS = [swapApps, tileApps, setAppState, listRecent, openRecent];

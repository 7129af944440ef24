import { z } from 'zod';
import { Layout, MonitorTarget, WindowState } from './window-layouts';
import {
  Bounds,
  MAX_COMMANDS,
  MAX_QUESTION_LENGTH,
  MAX_URL_LENGTH,
  name,
  NAMES_TABS,
  namesTabs,
  RAISE,
  TAB_AGE_FIELDS,
  tabIndex,
  tabIndexList,
  WINDOW_ID,
  windowId,
} from './command-fields';
import { BROWSER_WINDOW_ID, NEW_WINDOW, oneWindowAtMost } from './browser-window-fields';
import {
  CloseDuplicateTabs,
  CountTabsByDomain,
  GroupTabs,
  MoveTabs,
  MuteTabs,
  PinTabs,
  ReloadTabs,
  RestoreTabs,
  SaveTabs,
  SearchTabs,
  UngroupTabs,
} from './tab-manager-commands';

// The operations of the command protocol, the union every planner answers in, and the envelope.
// Every object is strict: an unknown field is an error, because a planner that invents fields
// has misunderstood the contract. Descriptions are the single source for docs/protocol.md and
// the LLM prompt. The fields they are made of are in command-fields.ts, the tab manager's
// operations in tab-manager-commands.ts.

// What importers of the protocol read from here.
export {
  Bounds,
  MAX_AGE_HOURS,
  MAX_COMMANDS,
  MAX_NAME_LENGTH,
  MAX_QUESTION_LENGTH,
  MAX_TAB_INDICES,
  MAX_URL_LENGTH,
  MonitorName,
  TAB_GROUP_COLORS,
  TabGroupColor,
} from './command-fields';
export * from './tab-manager-commands';

export const ListApps = z
  .strictObject({ type: z.literal('list_apps') })
  .describe('List all running applications and their windows.');

export const FocusApp = z
  .strictObject({
    type: z.literal('focus_app'),
    app_name: name('Exact application name from the running or installed apps.'),
    window_id: WINDOW_ID,
  })
  .describe('Bring an application to the front (launches it if it is not running).');

export const PlaceApp = z
  .strictObject({
    type: z.literal('place_app'),
    app_name: name('Exact application name.'),
    window_id: WINDOW_ID,
    monitor: MonitorTarget.optional(),
    bounds: Bounds.optional(),
    layout: Layout.optional(),
    raise: RAISE,
  })
  .refine((c) => c.monitor !== undefined || c.bounds !== undefined || c.layout !== undefined, {
    error: 'place_app needs "monitor", "bounds" or "layout"',
  })
  .refine((c) => c.bounds === undefined || c.layout === undefined, { error: 'place_app takes "bounds" or "layout", not both', path: ['layout'] })
  .describe(
    'Move an app window: to a monitor (keeping its relative position and size), to a layout on `monitor` (default: the one it is on), or to exact bounds.',
  );

const APP_NAMES = (what: string, min: number, max: number) =>
  z
    .array(name('Exact application name.'), { error: 'must be an array of app names' })
    .min(min, { error: `must name at least ${min} apps` })
    .max(max, { error: `must name at most ${max} apps` })
    .describe(what);

export const MAX_TILED = 6;

// An app may be named twice when two of its windows are meant: the window ids tell them apart.
// One length for swap and tile (each must match app_names): the prompt then explains it once.
const WINDOW_IDS = z
  .array(windowId.nullable(), { error: 'must be an array of window ids (or null), one per app name' })
  .max(MAX_TILED)
  .optional()
  .describe('Window id per app name (null: its only window).');
type AppsAndWindows = { app_names: string[]; window_ids?: Array<string | null> | undefined };

/** Each window once: an app named twice needs a window id each time, and ids differ. */
function eachWindowOnce(c: AppsAndWindows, ctx: z.RefinementCtx): void {
  if (c.window_ids !== undefined && c.window_ids.length !== c.app_names.length) {
    ctx.addIssue({ code: 'custom', path: ['window_ids'], message: 'must have one entry per app name' });
    return;
  }
  const seen = new Set<string>();
  c.app_names.forEach((value, i) => {
    const key = c.window_ids?.[i] ?? `app:${value.toLowerCase()}`;
    if (seen.has(key)) {
      const path = c.window_ids?.[i] ? ['window_ids', i] : ['app_names', i];
      ctx.addIssue({ code: 'custom', path, message: c.window_ids?.[i] ? `window ${key} is named twice` : `"${value}" is named twice` });
    }
    seen.add(key);
  });
}

export const SwapApps = z
  .strictObject({
    type: z.literal('swap_apps'),
    app_names: APP_NAMES('The two apps whose windows trade places (position and size).', 2, 2),
    window_ids: WINDOW_IDS,
  })
  .superRefine(eachWindowOnce)
  .describe('Swap two apps\' windows: each takes the other\'s frame, on whichever monitor it is.');

export const TileApps = z
  .strictObject({
    type: z.literal('tile_apps'),
    app_names: APP_NAMES('The apps, left to right.', 2, MAX_TILED),
    window_ids: WINDOW_IDS,
    monitor: MonitorTarget.optional(),
  })
  .superRefine(eachWindowOnce)
  .describe('Put apps\' windows side by side in equal columns filling the work area of `monitor` (default: the monitor the first app is on).');

export const SetAppState = z
  .strictObject({
    type: z.literal('set_app_state'),
    app_name: name('Exact application name.'),
    window_id: WINDOW_ID,
    state: WindowState,
  })
  .describe('Minimise an app\'s window, restore it, or make it truly full screen.');

export const OpenRecent = z
  .strictObject({
    type: z.literal('open_recent'),
    path: z
      .string({ error: 'must be a string' })
      .trim()
      .min(1, { error: 'must be a non-empty string' })
      .max(MAX_URL_LENGTH, { error: `must be at most ${MAX_URL_LENGTH} characters` })
      .describe('Exact path from the recent files or projects.'),
    app_name: name("Installed app to open it in; default: a project's own IDE, a file's default app.").optional(),
  })
  .describe('Reopen a recent file or project (cannot be undone).');

export const CloseApp = z
  .strictObject({
    type: z.literal('close_app'),
    app_name: name('Exact application name.'),
  })
  .describe('Quit an application completely (all its windows, gracefully).');

export const ListTabs = z
  .strictObject({ type: z.literal('list_tabs') })
  .describe('List all open Chrome tabs.');

export const SwitchTab = z
  .strictObject({
    type: z.literal('switch_tab'),
    tab_index: tabIndex.describe('Global tab index (1-based, across all windows).'),
  })
  .describe('Switch to an existing Chrome tab and raise its window. Use for "go to X" when a tab for X is open.');

export const OpenUrl = z
  .strictObject({
    type: z.literal('open_url'),
    url: z
      .string({ error: 'must be a string' })
      .trim()
      .min(1, { error: 'must be a non-empty string' })
      .max(MAX_URL_LENGTH, { error: `must be at most ${MAX_URL_LENGTH} characters` })
      .describe(
        'URL or site name; normalized by the system ("chatgpt" → https://chatgpt.com). A file:, chrome: or other non-web address only exactly as the user typed it.',
      ),
    new_window: NEW_WINDOW,
    browser_window_id: BROWSER_WINDOW_ID,
  })
  .refine(...oneWindowAtMost('open_url'))
  .describe('Open a URL in a new Chrome tab. Only when the user wants a new tab; otherwise switch_tab.');

export const CloseTab = z
  .strictObject({
    type: z.literal('close_tab'),
    tab_indices: tabIndexList('Global tab indices (1-based), each once; e.g. every reddit tab.').optional(),
    ...TAB_AGE_FIELDS,
  })
  .refine(namesTabs, { error: NAMES_TABS })
  .describe('Close Chrome tabs by global index, or by age.');

export const ActivatePreset = z
  .strictObject({
    type: z.literal('activate_preset'),
    preset_name: name('Exact preset name from the available presets.'),
  })
  .describe('Apply a named window layout preset.');

export const Query = z
  .strictObject({
    type: z.literal('query'),
    question: z
      .string({ error: 'must be a string' })
      .trim()
      .min(1, { error: 'must be a non-empty string' })
      .max(MAX_QUESTION_LENGTH, { error: `must be at most ${MAX_QUESTION_LENGTH} characters` })
      .describe("The user's question."),
  })
  .describe('Answer a question about the current state (tabs, apps, monitors, presets). Changes nothing.');

// DeskPilot's own addition to the core operations (docs/protocol.md lists these additions).
export const Undo = z
  .strictObject({
    type: z.literal('undo'),
    steps: z
      .number({ error: 'must be a positive integer' })
      .int({ error: 'must be a positive integer' })
      .min(1, { error: 'must be a positive integer' })
      .max(50, { error: 'must be at most 50' })
      .optional()
      .describe('How many earlier batches to undo (default 1).'),
  })
  .describe(
    'Undo the last batch(es) that changed windows or tabs: windows and moved, pinned, muted or grouped tabs go back; closed tabs reopen. Closed apps cannot come back.',
  );


export const COMMAND_SCHEMAS = {
  list_apps: ListApps,
  focus_app: FocusApp,
  place_app: PlaceApp,
  close_app: CloseApp,
  list_tabs: ListTabs,
  switch_tab: SwitchTab,
  open_url: OpenUrl,
  close_tab: CloseTab,
  activate_preset: ActivatePreset,
  query: Query,
  undo: Undo,
  search_tabs: SearchTabs,
  count_tabs_by_domain: CountTabsByDomain,
  reload_tabs: ReloadTabs,
  move_tabs: MoveTabs,
  close_duplicate_tabs: CloseDuplicateTabs,
  save_tabs: SaveTabs,
  restore_tabs: RestoreTabs,
  pin_tabs: PinTabs,
  mute_tabs: MuteTabs,
  group_tabs: GroupTabs,
  ungroup_tabs: UngroupTabs,
  swap_apps: SwapApps,
  tile_apps: TileApps,
  set_app_state: SetAppState,
  open_recent: OpenRecent,
} as const;

export type CommandType = keyof typeof COMMAND_SCHEMAS;
export const COMMAND_TYPES = Object.keys(COMMAND_SCHEMAS) as CommandType[];

export const Command = z.discriminatedUnion('type', [
  ListApps,
  FocusApp,
  PlaceApp,
  CloseApp,
  ListTabs,
  SwitchTab,
  OpenUrl,
  CloseTab,
  ActivatePreset,
  Query,
  Undo,
  SearchTabs,
  CountTabsByDomain,
  ReloadTabs,
  MoveTabs,
  CloseDuplicateTabs,
  SaveTabs,
  RestoreTabs,
  PinTabs,
  MuteTabs,
  GroupTabs,
  UngroupTabs,
  SwapApps,
  TileApps,
  SetAppState,
  OpenRecent,
]);
export type Command = z.infer<typeof Command>;
export type CommandOf<T extends CommandType> = Extract<Command, { type: T }>;

// Commands that destroy something the user may want back; callers confirm these.
export const DESTRUCTIVE_TYPES: ReadonlySet<CommandType> = new Set(['close_app', 'close_tab', 'close_duplicate_tabs']);

/** The device a request is for: one batch runs on one device. */
export const DeviceRef = z
  .string({ error: 'must be a device name (a string) or null' })
  .trim()
  .min(1, { error: 'must not be empty (leave it out for this computer)' })
  .max(60, { error: 'must be at most 60 characters' })
  .describe(
    'Only when the context lists other devices: the name of the device ALL these commands are for, exactly as listed ("work laptop"); ' +
      'tab indices, apps and monitors are then that device\'s. Null or absent: this computer.',
  );

export const Envelope = z.strictObject({
  commands: z
    .array(Command, { error: 'must be an array of commands' })
    .max(MAX_COMMANDS, { error: `must hold at most ${MAX_COMMANDS} commands` }),
  needs_clarification: z.boolean({ error: 'must be true or false' }),
  clarification_reason: z
    .string({ error: 'must be a string or null' })
    .max(MAX_QUESTION_LENGTH, { error: `must be at most ${MAX_QUESTION_LENGTH} characters` })
    .nullable()
    .optional(),
  device: DeviceRef.nullable().optional(),
});
export type Envelope = z.infer<typeof Envelope>;

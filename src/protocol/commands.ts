import { z } from 'zod';
import { Layout, MONITOR_ROLES, MonitorTarget, WindowState } from './window-layouts';

// The ten operations of the command protocol (shared/seeds/000), with exactly the
// seed's names and fields. Every object is strict: an unknown field is an error,
// because a planner that invents fields has misunderstood the contract.
// Descriptions are the single source for docs/protocol.md and the LLM prompt.

// Bounded so that hostile input (a 5 MB string) is refused by validation, not by a backend.
export const MAX_NAME_LENGTH = 256;
export const MAX_URL_LENGTH = 8192;
export const MAX_QUESTION_LENGTH = 4000;
export const MAX_COMMANDS = 50;
export const MAX_TAB_INDICES = 500;

const name = (what: string) =>
  z
    .string({ error: 'must be a string' })
    .trim()
    .min(1, { error: 'must be a non-empty string' })
    .max(MAX_NAME_LENGTH, { error: `must be at most ${MAX_NAME_LENGTH} characters` })
    .describe(what);

const tabIndex = z
  .number({ error: 'must be a positive integer' })
  .int({ error: 'must be a positive integer' })
  .min(1, { error: 'must be a positive integer (tab indices start at 1)' });

/** Global tab indices, each once: the list every tab operation takes. */
const tabIndexList = (what: string) =>
  z
    .array(tabIndex, { error: 'must be an array of positive integers' })
    .min(1, { error: 'must list at least one tab index' })
    .max(MAX_TAB_INDICES, { error: `must list at most ${MAX_TAB_INDICES} tab indices` })
    .superRefine((list, ctx) => {
      const seen = new Set<number>();
      list.forEach((value, i) => {
        if (seen.has(value)) ctx.addIssue({ code: 'custom', path: [i], message: `duplicate tab index ${value}` });
        seen.add(value);
      });
    })
    .describe(what);

const count = (what: string, max: number) =>
  z
    .number({ error: 'must be a positive integer' })
    .int({ error: 'must be a positive integer' })
    .min(1, { error: 'must be a positive integer' })
    .max(max, { error: `must be at most ${max}` })
    .describe(what);

// Tab age is the time since a tab was last used (selected). The system knows it per tab (the
// companion extension, or the warm service's own clock) and picks the tabs at validation, so a
// planner never computes dates: "older than a week" is unused_for_hours 168.
export const MAX_AGE_HOURS = 24 * 365 * 10;
const TAB_AGE_FIELDS = {
  unused_for_hours: count('Only tabs not used for at least this many hours ("older than a week" = 168).', MAX_AGE_HOURS).optional(),
  unused_today: z
    .literal(true, { error: 'must be true (leave it out otherwise)' })
    .optional()
    .describe('true: only tabs not used since midnight ("tabs I have not touched today").'),
  oldest: count('Of the tabs picked, only the N used longest ago ("my 5 oldest tabs").', MAX_TAB_INDICES).optional(),
};

type TabPick = { tab_indices?: number[]; unused_for_hours?: number; unused_today?: true; oldest?: number };
const namesTabs = (c: TabPick) =>
  c.tab_indices !== undefined || c.unused_for_hours !== undefined || c.unused_today !== undefined || c.oldest !== undefined;
const NAMES_TABS = 'needs "tab_indices", or a tab age ("unused_for_hours", "unused_today" or "oldest")';

export const TAB_GROUP_COLORS = ['grey', 'blue', 'red', 'yellow', 'green', 'pink', 'purple', 'cyan', 'orange'] as const;
export const TabGroupColor = z
  .enum(TAB_GROUP_COLORS, { error: `must be one of ${TAB_GROUP_COLORS.map((c) => `"${c}"`).join(', ')}` })
  .describe("Chrome's tab group colours.");
export type TabGroupColor = z.infer<typeof TabGroupColor>;

export const MonitorName = z
  .enum(MONITOR_ROLES, { error: `must be one of ${MONITOR_ROLES.map((r) => `"${r}"`).join(', ')}` })
  .describe('"main" is the primary monitor, "left"/"right" the leftmost/rightmost one, "top"/"bottom" the upper/lower one when one is above another.');
export type MonitorName = z.infer<typeof MonitorName>;

const coordinate = z
  .number({ error: 'must be an integer' })
  .int({ error: 'must be an integer' })
  .min(-100_000, { error: 'is out of range' })
  .max(100_000, { error: 'is out of range' });

export const Bounds = z
  // An array, not a tuple: strict structured output cannot express tuples.
  .array(coordinate, { error: 'must be an array of 4 integers [left, top, right, bottom]' })
  .length(4, { error: 'must be an array of 4 integers [left, top, right, bottom]' })
  .refine((b) => b.length !== 4 || b[0]! < b[2]!, { error: 'left must be less than right' })
  .refine((b) => b.length !== 4 || b[1]! < b[3]!, { error: 'top must be less than bottom' })
  .describe('Outer window frame [left, top, right, bottom] in absolute screen pixels.');
export type Bounds = z.infer<typeof Bounds>;

// A placed window comes to the front (a window moved behind a maximised browser looks like
// nothing happened); the batch ends with one focus (docs/protocol.md, "What ends in front").
const RAISE = z
  .boolean({ error: 'must be true or false' })
  .optional()
  .describe('false: leave the window where it is in the stacking order ("…, keep it in the background"). Default: it comes to the front.');

export const ListApps = z
  .strictObject({ type: z.literal('list_apps') })
  .describe('List all running applications and their windows.');

export const FocusApp = z
  .strictObject({
    type: z.literal('focus_app'),
    app_name: name('Exact application name from the running or installed apps.'),
  })
  .describe('Bring an application to the front (launches it if it is not running).');

export const PlaceApp = z
  .strictObject({
    type: z.literal('place_app'),
    app_name: name('Exact application name.'),
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
    .superRefine((list, ctx) => {
      const seen = new Set<string>();
      list.forEach((value, i) => {
        if (seen.has(value.toLowerCase())) ctx.addIssue({ code: 'custom', path: [i], message: `"${value}" is named twice` });
        seen.add(value.toLowerCase());
      });
    })
    .describe(what);

export const SwapApps = z
  .strictObject({
    type: z.literal('swap_apps'),
    app_names: APP_NAMES('The two apps whose windows trade places (position and size).', 2, 2),
  })
  .describe('Swap two apps\' windows: each takes the other\'s frame, on whichever monitor it is.');

export const MAX_TILED = 6;
export const TileApps = z
  .strictObject({
    type: z.literal('tile_apps'),
    app_names: APP_NAMES('The apps, left to right.', 2, MAX_TILED),
    monitor: MonitorTarget.optional(),
  })
  .describe('Put apps\' windows side by side in equal columns filling the work area of `monitor` (default: the monitor the first app is on).');

export const SetAppState = z
  .strictObject({
    type: z.literal('set_app_state'),
    app_name: name('Exact application name.'),
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
  })
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

// DeskPilot's own addition to the seed's ten operations (docs/protocol.md says so).
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


// The tab manager's operations (DeskPilot's own, after the tab-manager design's tools). Each
// acts on tabs by global index, resolved to stable ids like close_tab; pin, mute, group and a
// true move need the companion browser extension (docs/protocol.md says what works without it).

export const MAX_SEARCH_LENGTH = 200;

export const SearchTabs = z
  .strictObject({
    type: z.literal('search_tabs'),
    query: z
      .string({ error: 'must be a string' })
      .trim()
      .min(1, { error: 'must be a non-empty string' })
      .max(MAX_SEARCH_LENGTH, { error: `must be at most ${MAX_SEARCH_LENGTH} characters` })
      .optional()
      .describe('Words that must all be in the title, address or site.'),
    page_text: z
      .boolean({ error: 'must be true or false' })
      .optional()
      .describe('true: also search page text (only when the user asks about page content).'),
    tab_indices: tabIndexList('Only among these tabs.').optional(),
    ...TAB_AGE_FIELDS,
  })
  .refine((c) => c.query !== undefined || namesTabs(c), { error: 'needs "query", "tab_indices" or a tab age ("unused_for_hours", "unused_today" or "oldest")' })
  .refine((c) => c.page_text !== true || c.query !== undefined, { error: 'page_text needs a "query" to look for', path: ['page_text'] })
  .describe('Find tabs by words or by age ("my oldest tabs"). Changes nothing.');

export const CountTabsByDomain = z
  .strictObject({ type: z.literal('count_tabs_by_domain') })
  .describe('Count open tabs per site ("how many tabs per site?"). Changes nothing.');

export const ReloadTabs = z
  .strictObject({
    type: z.literal('reload_tabs'),
    tab_indices: tabIndexList('Global tab indices (1-based), each once.'),
    ignore_cache: z.boolean({ error: 'must be true or false' }).optional().describe('true: a hard reload that bypasses the cache.'),
  })
  .describe('Reload tabs.');

export const MoveTabs = z
  .strictObject({
    type: z.literal('move_tabs'),
    tab_indices: tabIndexList('Global tab indices (1-based), each once.'),
    window_index: count('Destination window (w<n> in the tab list).', 100).optional(),
    new_window: z.literal(true, { error: 'must be true (leave it out otherwise)' }).optional().describe('true: move them to a new window.'),
  })
  .refine((c) => (c.window_index === undefined) !== (c.new_window === undefined), { error: 'move_tabs needs exactly one of "window_index" or "new_window"' })
  .describe('Move tabs to the end of another Chrome window, or to a new window.');

export const CloseDuplicateTabs = z
  .strictObject({
    type: z.literal('close_duplicate_tabs'),
    tab_indices: tabIndexList('Only among these tabs (default: every tab).').optional(),
  })
  .describe('Close tabs whose address another open tab shows too, keeping the active or most recently used one.');

export const SaveTabs = z
  .strictObject({
    type: z.literal('save_tabs'),
    name: name('Name of the set, e.g. "research" (replaces a set of that name).'),
    tab_indices: tabIndexList('Global tab indices (1-based), each once.').optional(),
    ...TAB_AGE_FIELDS,
    close: z.boolean({ error: 'must be true or false' }).optional().describe('true: close them once saved ("save these for later").'),
  })
  .refine(namesTabs, { error: NAMES_TABS })
  .describe('Save tabs as a named set to reopen later with restore_tabs.');

export const RestoreTabs = z
  .strictObject({
    type: z.literal('restore_tabs'),
    name: name('Exact name of a saved set of tabs.'),
    new_window: z.boolean({ error: 'must be true or false' }).optional().describe('true: open them in a new window.'),
  })
  .describe('Reopen a saved set of tabs (the set stays saved).');

export const PinTabs = z
  .strictObject({
    type: z.literal('pin_tabs'),
    tab_indices: tabIndexList('Global tab indices (1-based), each once.'),
    pinned: z.boolean({ error: 'must be true or false' }).describe('true pins, false unpins.'),
  })
  .describe('Pin or unpin tabs.');

export const MuteTabs = z
  .strictObject({
    type: z.literal('mute_tabs'),
    tab_indices: tabIndexList('Global tab indices (1-based), each once.'),
    muted: z.boolean({ error: 'must be true or false' }).describe('true mutes, false unmutes.'),
  })
  .describe('Mute or unmute tabs.');

export const GroupTabs = z
  .strictObject({
    type: z.literal('group_tabs'),
    tab_indices: tabIndexList('Global tab indices (1-based), each once.'),
    title: name('The group\'s title, e.g. "Work".'),
    color: TabGroupColor.optional(),
  })
  .describe('Put tabs in a tab group (in the first tab\'s window; a group with that title there is reused).');

export const UngroupTabs = z
  .strictObject({
    type: z.literal('ungroup_tabs'),
    tab_indices: tabIndexList('Global tab indices (1-based), each once.'),
  })
  .describe('Take tabs out of their tab groups.');

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

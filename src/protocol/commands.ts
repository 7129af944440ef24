import { z } from 'zod';

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

export const MonitorName = z
  .enum(['main', 'left', 'right'], { error: 'must be one of "main", "left", "right"' })
  .describe('"main" is the primary monitor, "left"/"right" the leftmost/rightmost one.');
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
    monitor: MonitorName.optional(),
    bounds: Bounds.optional(),
    raise: RAISE,
  })
  .refine((c) => c.monitor !== undefined || c.bounds !== undefined, {
    error: 'place_app needs "monitor" or "bounds"',
  })
  .describe(
    'Move an application window to a monitor or to exact bounds. Compute bounds from the monitor geometry: ' +
      'left half = [x, y, x+w/2, y+h]; maximize = [x, y, x+w, y+h]; WxH centred = [x+(w-W)/2, y+(h-H)/2, …].',
  );

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
    tab_indices: z
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
      .describe('Global tab indices (1-based), each once; e.g. every reddit tab.'),
  })
  .describe('Close one or more Chrome tabs by their global indices.');

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
      .describe('How many earlier window-changing batches to undo (default 1).'),
  })
  .describe('Put windows back where they were before the last window-changing batch(es). Closed apps cannot come back.');

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
]);
export type Command = z.infer<typeof Command>;
export type CommandOf<T extends CommandType> = Extract<Command, { type: T }>;

// Commands that destroy something the user may want back; callers confirm these.
export const DESTRUCTIVE_TYPES: ReadonlySet<CommandType> = new Set(['close_app', 'close_tab']);

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
});
export type Envelope = z.infer<typeof Envelope>;

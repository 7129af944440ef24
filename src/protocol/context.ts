import { z } from 'zod';
import { MonitorName } from './commands';

// The desktop snapshot: what a planner sees, and what a batch is validated against.
// Rectangles use the protocol's own form [left, top, right, bottom] so a planner can
// copy numbers from here into place_app.bounds without converting.

export const Rect = z.tuple([z.number().int(), z.number().int(), z.number().int(), z.number().int()]);
export type Rect = z.infer<typeof Rect>;

export const MonitorInfo = z.strictObject({
  id: z.string().describe('Backend id, stable while the monitor is connected.'),
  name: z.string().describe('System name of the output, e.g. "DP-1" or "LEFT".'),
  roles: z.array(MonitorName).describe('Which of main/left/right this monitor answers to.'),
  bounds: Rect,
  work_area: Rect.describe('Bounds minus panels, docks and menu bars.'),
  primary: z.boolean(),
  scale: z.number().positive(),
});
export type MonitorInfo = z.infer<typeof MonitorInfo>;

/** How a window shows: minimised wins over the rest; fullscreen over maximised. */
export const WINDOW_SHOWN_STATES = ['normal', 'minimized', 'maximized', 'fullscreen'] as const;

export const WindowInfo = z.strictObject({
  id: z.string().describe("The window's id (the backend's: an X window id, a handle); window_id in window commands."),
  title: z.string(),
  bounds: Rect.describe('Outer frame in absolute screen pixels.'),
  monitor: z.string().nullable().describe('Name of the monitor holding most of the window.'),
  focused: z.boolean(),
  minimized: z.boolean(),
  // Absent in older snapshots and from backends that do not know them.
  state: z.enum(WINDOW_SHOWN_STATES).optional().describe('normal, minimized, maximized or fullscreen.'),
  stacking: z.number().int().nonnegative().optional().describe('Place in the stacking order: 0 is the topmost window of the desk.'),
  pid: z.number().int().nullable().optional().describe("The window's process, null when the backend cannot say."),
  browser_window_id: z.number().int().optional().describe("A browser window's own id (CDP windowId): its tabs' browser_window_id."),
  tab_ids: z.array(z.string()).optional().describe("A browser window's tabs, by their target_id, in strip order."),
});
export type WindowInfo = z.infer<typeof WindowInfo>;

export const RunningApp = z.strictObject({
  name: z.string(),
  pid: z.number().int().nullable(),
  windows: z.array(WindowInfo),
});
export type RunningApp = z.infer<typeof RunningApp>;

export const InstalledApp = z.strictObject({
  name: z.string(),
  // How people name it besides its name ("the terminal", "the browser"); absent in older snapshots.
  generic_name: z.string().optional().describe('What kind of app it is, e.g. "Terminal", "Web Browser".'),
  keywords: z.array(z.string()).optional().describe('Other words for it: its .desktop Keywords, its full name when the name shown is shorter.'),
  default_for: z.array(z.enum(['terminal', 'browser'])).optional().describe("The system's default terminal emulator / web browser."),
});
export type InstalledApp = z.infer<typeof InstalledApp>;

export const TabGroupInfo = z.strictObject({ title: z.string(), color: z.string() });
export type TabGroupInfo = z.infer<typeof TabGroupInfo>;

export const TabInfo = z.strictObject({
  index: z.number().int().positive().describe('Global 1-based index across all windows.'),
  title: z.string(),
  url: z.string(),
  domain: z.string().describe('Registrable domain or host, e.g. "reddit.com", "localhost".'),
  content_summary: z.string().nullable().describe('Meta description or first words of visible text.'),
  is_active: z.boolean().describe('The selected tab of its window.'),
  window_index: z.number().int().positive(),
  browser_window_id: z.number().int().optional().describe("Its browser window's id (CDP windowId); the window's own in running_apps."),
  local_index: z.number().int().positive(),
  target_id: z.string().describe('Internal stable id (CDP target id); planners use index.'),
  // What the tab strip shows beyond title and address. Optional: older snapshots and browsers
  // without the companion extension leave them out (pinned is known without it).
  pinned: z.boolean().optional().describe('Pinned in its tab strip.'),
  muted: z.boolean().optional().describe('Muted (known with the companion extension).'),
  audible: z.boolean().optional().describe('Playing sound (known with the companion extension).'),
  group: TabGroupInfo.nullable().optional().describe('Its tab group; null: in none (known with the companion extension).'),
  last_used_at: z
    .string()
    .nullable()
    .optional()
    .describe('ISO 8601 time it was last used (selected); null: not known (see tab_usage).'),
});
export type TabInfo = z.infer<typeof TabInfo>;

export const SourceStatus = z.strictObject({
  ok: z.boolean(),
  message: z.string().describe('What is connected, or one sentence saying how to fix it.'),
});
export type SourceStatus = z.infer<typeof SourceStatus>;

/** Where the tabs' last-use times come from, so a tab without one can still be judged. */
export const TabUsage = z.strictObject({
  source: z
    .enum(['companion', 'service'])
    .describe("The companion extension (every tab's time), or the warm service's own clock (tabs used since it started)."),
  watched_since: z
    .string()
    .nullable()
    .describe("With the service's clock: when it started watching; a tab without last_used_at has not been used since."),
});
export type TabUsage = z.infer<typeof TabUsage>;

/**
 * A file or project the user opened recently, as the system recorded it. Only a path listed in
 * the snapshot may be opened (open_recent), so the lists are the whole of what can be reopened.
 */
export const RecentItem = z.strictObject({
  path: z.string().describe('Absolute path of the file or project folder.'),
  app: z.string().nullable().describe('The app that opened it, by its name among the installed apps when it is one; null: not recorded.'),
  used_at: z.string().nullable().describe('ISO 8601 time it was last opened; null: not recorded (the list is still newest first).'),
});
export type RecentItem = z.infer<typeof RecentItem>;

/** How many of each are listed: enough for "the file I had open", few enough for a prompt. */
export const MAX_RECENT = 10;

export const ContextSnapshot = z.strictObject({
  taken_at: z.string().describe('ISO 8601 time the snapshot was taken.'),
  monitors: z.array(MonitorInfo),
  running_apps: z.array(RunningApp),
  installed_apps: z.array(InstalledApp),
  tabs: z.array(TabInfo),
  presets: z.array(z.string()),
  /** Names of the saved sets of tabs (save_tabs / restore_tabs); absent in older snapshots. */
  tab_collections: z.array(z.string()).optional(),
  /** Recently used files (the desktop's recent list), newest first; absent where none is read. */
  recent_files: z.array(RecentItem).max(MAX_RECENT).optional(),
  /** Recently opened projects (VS Code, Cursor, JetBrains IDEs), newest first; absent where none is read. */
  recent_projects: z.array(RecentItem).max(MAX_RECENT).optional(),
  /** Absent: no tab has a known last-use time (no companion extension, no warm service). */
  tab_usage: TabUsage.optional(),
  sources: z.strictObject({
    windows: SourceStatus,
    chrome: SourceStatus,
    presets: SourceStatus,
    /** The companion browser extension (pin, mute, group, a true move, tab ages); absent in older snapshots. */
    companion: SourceStatus.optional(),
  }),
  /**
   * With sync set up: this device's name and the desks the user's other devices published, so a
   * planner can act "on the work laptop" or say which machine has a tab. Never published itself.
   */
  get devices() {
    return DevicesContext.optional();
  },
});
export type ContextSnapshot = z.infer<typeof ContextSnapshot>;

/** Another device's desk as it last published it: its tab indices are its own. */
export const OtherDesk = z.strictObject({
  id: z.string(),
  name: z.string(),
  online: z.boolean(),
  /** ISO 8601: when the device was last seen. */
  last_seen: z.string(),
  snapshot: ContextSnapshot,
});
export type OtherDesk = z.infer<typeof OtherDesk>;

export const DevicesContext = z.strictObject({
  /** What the user calls this computer. */
  this_device: z.string(),
  others: z.array(OtherDesk).max(20),
});
export type DevicesContext = z.infer<typeof DevicesContext>;

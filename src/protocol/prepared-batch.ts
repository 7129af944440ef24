import { z } from 'zod';
import { CloseApp, CloseTab, FocusApp, ListApps, ListTabs, OpenUrl, PlaceApp, Query, SwitchTab, Undo, ActivatePreset } from './commands';
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
} from './commands';
import { OpenRecent, SetAppState, SwapApps, TileApps } from './commands';
import { MonitorInfo, TabInfo } from './context';
import { PlannedCommand } from './report';

// A batch that has been validated against one desk's snapshot and resolved to stable ids
// (CDP target ids, window ids): what a front end holds while it asks the user, what travels
// to the desk that runs it, and what `run` accepts. It is plain JSON, so it can be written
// to a socket, a queue row or a file, and it is checked again with this schema where it
// arrives: a batch is input like any other.

const id = z.string().min(1).max(200);
const AppWindow = z.strictObject({ app: z.string(), windowId: id });

export const ResolvedCommand = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('list_apps'), command: ListApps }),
  /** windowId: the app's most recent window in the snapshot; null when it must be launched. */
  z.strictObject({ type: z.literal('focus_app'), command: FocusApp, app: z.string(), windowId: id.nullable() }),
  /** monitor: the monitor a monitor target or a layout names (resolved from "next", "2", the window's own …); null with bounds alone. */
  z.strictObject({ type: z.literal('place_app'), command: PlaceApp, app: z.string(), windowId: id, monitor: MonitorInfo.nullable() }),
  /** windows: each app's most recent window, in the order named. */
  z.strictObject({ type: z.literal('swap_apps'), command: SwapApps, windows: z.array(AppWindow).length(2) }),
  z.strictObject({ type: z.literal('tile_apps'), command: TileApps, windows: z.array(AppWindow).min(2), monitor: MonitorInfo }),
  z.strictObject({ type: z.literal('set_app_state'), command: SetAppState, app: z.string(), windowId: id }),
  /** path: as listed; kind: which list; app: the installed app to open it in, null for the system's default handler. */
  z.strictObject({
    type: z.literal('open_recent'),
    command: OpenRecent,
    path: z.string().min(1),
    kind: z.enum(['file', 'project']),
    app: z.string().nullable(),
  }),
  z.strictObject({ type: z.literal('close_app'), command: CloseApp, app: z.string(), windowIds: z.array(id) }),
  z.strictObject({ type: z.literal('list_tabs'), command: ListTabs }),
  z.strictObject({ type: z.literal('switch_tab'), command: SwitchTab, tab: TabInfo }),
  z.strictObject({ type: z.literal('open_url'), command: OpenUrl, url: z.string(), domain: z.string() }),
  z.strictObject({ type: z.literal('close_tab'), command: CloseTab, tabs: z.array(TabInfo) }),
  z.strictObject({ type: z.literal('activate_preset'), command: ActivatePreset, preset: z.string() }),
  z.strictObject({ type: z.literal('query'), command: Query }),
  z.strictObject({ type: z.literal('undo'), command: Undo, steps: z.number().int().positive() }),
  /** pool: the tabs searched (picked by index or age from the snapshot), oldest first for "oldest"; null: every tab open when it runs. */
  z.strictObject({ type: z.literal('search_tabs'), command: SearchTabs, pool: z.array(TabInfo).nullable() }),
  z.strictObject({ type: z.literal('count_tabs_by_domain'), command: CountTabsByDomain }),
  z.strictObject({ type: z.literal('reload_tabs'), command: ReloadTabs, tabs: z.array(TabInfo) }),
  /**
   * to: the destination window by its index and the target ids of its tabs (any one finds the window
   * when it runs), or a new window. by_reopening: without the companion extension a tab cannot be
   * moved, only reopened there and closed here (its history and page state are lost).
   */
  z.strictObject({
    type: z.literal('move_tabs'),
    command: MoveTabs,
    tabs: z.array(TabInfo),
    to: z.union([
      z.strictObject({ window_index: z.number().int().positive(), window_tab_ids: z.array(id).min(1) }),
      /** A window named by its browser id: when it runs, that very window or nothing (a closed one is not replaced). */
      z.strictObject({ browser_window_id: z.number().int().positive(), window_index: z.number().int().positive() }),
      z.strictObject({ new_window: z.literal(true) }),
    ]),
    by_reopening: z.boolean(),
  }),
  /** tabs: those closed; kept: the one kept of each set of duplicates. */
  z.strictObject({ type: z.literal('close_duplicate_tabs'), command: CloseDuplicateTabs, tabs: z.array(TabInfo), kept: z.array(TabInfo) }),
  z.strictObject({ type: z.literal('save_tabs'), command: SaveTabs, tabs: z.array(TabInfo), name: z.string() }),
  /** name: the saved set's name as stored. */
  z.strictObject({ type: z.literal('restore_tabs'), command: RestoreTabs, name: z.string() }),
  z.strictObject({ type: z.literal('pin_tabs'), command: PinTabs, tabs: z.array(TabInfo) }),
  z.strictObject({ type: z.literal('mute_tabs'), command: MuteTabs, tabs: z.array(TabInfo) }),
  z.strictObject({ type: z.literal('group_tabs'), command: GroupTabs, tabs: z.array(TabInfo) }),
  z.strictObject({ type: z.literal('ungroup_tabs'), command: UngroupTabs, tabs: z.array(TabInfo) }),
]);
export type ResolvedCommand = z.infer<typeof ResolvedCommand>;

/** Why a command waits for a person's yes. Front ends apply their own policy per kind. */
export const ConfirmKind = z.enum(['close_tab', 'close_app', 'open_url']);
export type ConfirmKind = z.infer<typeof ConfirmKind>;

export const ConfirmItem = z.strictObject({
  /** Index of the command in the batch. */
  index: z.number().int().nonnegative(),
  kind: ConfirmKind,
  /** One sentence a person can decide on, e.g. 'close tab 3 "Reddit" (reddit.com)'. */
  summary: z.string(),
  /** Each thing it acts on (each tab a close_tab closes). */
  targets: z.array(z.string()),
});
export type ConfirmItem = z.infer<typeof ConfirmItem>;

export const PreparedBatch = z.strictObject({
  v: z.literal(1),
  /** Also the batch id in history and undo. */
  id,
  /** The desk it was prepared for; only that desk runs it. */
  device_id: id,
  prepared_at: z.string(),
  snapshot_taken_at: z.string(),
  commands: z.array(ResolvedCommand).min(1),
  /** Each command in words, in order. */
  plan: z.array(PlannedCommand),
  /** The commands that may need a yes (closing tabs or apps); each front end decides by its settings. */
  confirm: z.array(ConfirmItem),
});
export type PreparedBatch = z.infer<typeof PreparedBatch>;

/** Which kinds a front end asks about; a kind missing or false runs without asking. */
export type ConfirmPolicy = Partial<Record<ConfirmKind, boolean>>;

/** The items of a batch that need a yes under `policy`. */
export const itemsToConfirm = (batch: Pick<PreparedBatch, 'confirm'>, policy: ConfirmPolicy): ConfirmItem[] =>
  batch.confirm.filter((c) => policy[c.kind] === true);

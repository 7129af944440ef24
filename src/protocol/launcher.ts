import { z } from 'zod';
import { windowId } from './command-fields';
import type { Command, MonitorName } from './commands';

// The launcher's live list: a compact index of the desk, sent to the window once per show
// (and again when the desk changes), so that matching words to tabs, apps and presets runs in
// the window on every key press without asking main; plus the offline matcher's preview of
// what Enter would do, and actions on one listed thing. Types and request schemas only.

export interface IndexTab {
  /** Global 1-based index in the snapshot the index was made from. */
  index: number;
  title: string;
  url: string;
  domain: string;
  active: boolean;
  window: number;
  pinned: boolean;
}

export interface IndexWindow {
  /** The window's id (what window_id takes): an app with several windows is listed a row per window. */
  id: string;
  title: string;
  monitor: string | null;
  focused: boolean;
  minimized: boolean;
}

export interface IndexApp {
  name: string;
  running: boolean;
  /** Most recently used first: what focus and move act on is the first. */
  windows: IndexWindow[];
}

export interface DeskIndex {
  /** Names the snapshot this index was made from: an action on an item names it back. */
  id: string;
  taken_at: string;
  tabs: IndexTab[];
  /** Running apps first (most recently used first), then installed apps that are not running. */
  apps: IndexApp[];
  presets: string[];
  monitors: Array<{ name: string; roles: MonitorName[] }>;
  /** Who gets a sentence the offline matcher does not know: 'llm' in auto mode with a model set. */
  planner: 'local' | 'llm';
  /** Which destructive commands ask first (the settings). */
  confirm: { close_tab: boolean; close_app: boolean };
  /** Actions the protocol offers beyond the fixed ones (pin appears when a pin command exists). */
  actions: { pin: boolean };
  /** A source that could not be read, in one sentence each (Chrome not connected …). */
  problems: string[];
}

/** What Enter would do with these words, as the offline matcher sees them on the index's snapshot. */
export interface PlanPreview {
  text: string;
  /** The index (snapshot) this preview was planned on. */
  index: string;
  /** act: it would run `commands`; ask: it would ask `question`; unknown: the words are not the matcher's. */
  kind: 'act' | 'ask' | 'unknown';
  commands: Command[];
  question: string | null;
  /** The things it would offer when it asks (button labels). */
  choices: string[];
  /**
   * The index `index` names, when it is not the one the request said the window lists from:
   * the desk changed, and the window takes this one (its push may still be on its way).
   */
  newer: DeskIndex | null;
}

export const LAUNCHER_ACTIONS = ['open', 'close', 'move_left', 'move_right', 'pin'] as const;
/** open: the item's own action (switch to the tab, bring the app or window forward or start it, apply the preset). */
export type LauncherAction = (typeof LAUNCHER_ACTIONS)[number];

const itemName = z.string().trim().min(1, { error: 'must not be empty' }).max(256, { error: 'must be at most 256 characters' });

export const LauncherItemRef = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('tab'), index: z.number().int().min(1).max(100_000) }),
  z.strictObject({ kind: z.literal('app'), name: itemName }),
  /** One window of an app that has several (its row in the list). */
  z.strictObject({ kind: z.literal('window'), app: itemName, id: windowId }),
  z.strictObject({ kind: z.literal('preset'), name: itemName }),
]);
export type LauncherItemRef = z.infer<typeof LauncherItemRef>;

export const LauncherPreviewRequest = z.strictObject({
  text: z.string().trim().min(1, { error: 'must not be empty' }).max(2000, { error: 'must be at most 2000 characters' }),
  /** DeskIndex.id the window lists from; the answer carries the newer index when it differs. */
  index: z.string().min(1).max(100).optional(),
});
export type LauncherPreviewRequest = z.infer<typeof LauncherPreviewRequest>;

export const LauncherActRequest = z.strictObject({
  /** DeskIndex.id the item was listed from. */
  index: z.string().min(1).max(100),
  item: LauncherItemRef,
  action: z.enum(LAUNCHER_ACTIONS, { error: `must be one of ${LAUNCHER_ACTIONS.join(', ')}` }),
});
export type LauncherActRequest = z.infer<typeof LauncherActRequest>;

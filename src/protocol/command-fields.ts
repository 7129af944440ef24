import { z } from 'zod';
import { MONITOR_ROLES } from './window-layouts';

// The fields commands are made of — names, tab indices, counts, tab ages, monitors, bounds —
// each with its bounds and the words of its error, so every command that takes one checks it
// the same way.

// Bounded so that hostile input (a 5 MB string) is refused by validation, not by a backend.
export const MAX_NAME_LENGTH = 256;
export const MAX_URL_LENGTH = 8192;
export const MAX_QUESTION_LENGTH = 4000;
export const MAX_COMMANDS = 50;
export const MAX_TAB_INDICES = 500;

export const name = (what: string) =>
  z
    .string({ error: 'must be a string' })
    .trim()
    .min(1, { error: 'must be a non-empty string' })
    .max(MAX_NAME_LENGTH, { error: `must be at most ${MAX_NAME_LENGTH} characters` })
    .describe(what);

/** One window of an app, by the id the context lists (running_apps[].windows[].id). */
export const windowId = z
  .string({ error: 'must be a window id (a string) from the context' })
  .trim()
  .min(1, { error: 'must be a non-empty window id' })
  .max(200, { error: 'must be at most 200 characters' });

export const WINDOW_ID = windowId
  .optional()
  .describe("Window id from the context, for one of an app's windows (default: its most recent).");

export const tabIndex = z
  .number({ error: 'must be a positive integer' })
  .int({ error: 'must be a positive integer' })
  .min(1, { error: 'must be a positive integer (tab indices start at 1)' });

/** Global tab indices, each once: the list every tab operation takes. */
export const tabIndexList = (what: string) =>
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

export const count = (what: string, max: number) =>
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
export const TAB_AGE_FIELDS = {
  unused_for_hours: count('Only tabs not used for at least this many hours ("older than a week" = 168).', MAX_AGE_HOURS).optional(),
  unused_today: z
    .literal(true, { error: 'must be true (leave it out otherwise)' })
    .optional()
    .describe('true: only tabs not used since midnight ("tabs I have not touched today").'),
  oldest: count('Of the tabs picked, only the N used longest ago ("my 5 oldest tabs").', MAX_TAB_INDICES).optional(),
};

export type TabPick = { tab_indices?: number[]; unused_for_hours?: number; unused_today?: true; oldest?: number };
export const namesTabs = (c: TabPick) =>
  c.tab_indices !== undefined || c.unused_for_hours !== undefined || c.unused_today !== undefined || c.oldest !== undefined;
export const NAMES_TABS = 'needs "tab_indices", or a tab age ("unused_for_hours", "unused_today" or "oldest")';

export const TAB_GROUP_COLORS = ['grey', 'blue', 'red', 'yellow', 'green', 'pink', 'purple', 'cyan', 'orange'] as const;
export const TabGroupColor = z
  .enum(TAB_GROUP_COLORS, { error: `must be one of ${TAB_GROUP_COLORS.map((c) => `"${c}"`).join(', ')}` })
  .describe("Chrome's tab group colours.");
export type TabGroupColor = z.infer<typeof TabGroupColor>;

export const MonitorName = z
  .enum(MONITOR_ROLES, { error: `must be one of ${MONITOR_ROLES.map((r) => `"${r}"`).join(', ')}` })
  .describe('"main" is the primary monitor, "left"/"right" the leftmost/rightmost one, "top"/"bottom" the upper/lower one when one is above another.');
export type MonitorName = z.infer<typeof MonitorName>;

export const coordinate = z
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
export const RAISE = z
  .boolean({ error: 'must be true or false' })
  .optional()
  .describe('false: leave the window where it is in the stacking order ("…, keep it in the background"). Default: it comes to the front.');

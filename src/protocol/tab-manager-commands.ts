import { z } from 'zod';
import { BROWSER_WINDOW_ID, oneWindowAtMost, POSITION } from './browser-window-fields';
import { count, name, NAMES_TABS, namesTabs, TAB_AGE_FIELDS, TabGroupColor, tabIndexList } from './command-fields';

// The tab manager's operations, beyond the core tab commands. Each acts on tabs by global
// index, resolved to stable ids like close_tab; pin, mute, group and a true move need the
// companion browser extension (docs/protocol.md says what works without it).

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
    browser_window_id: BROWSER_WINDOW_ID,
    new_window: z.literal(true, { error: 'must be true (leave it out otherwise)' }).optional().describe('true: move them to a new window.'),
    position: POSITION,
  })
  .refine((c) => [c.window_index, c.browser_window_id, c.new_window].filter((x) => x !== undefined).length === 1, {
    error: 'move_tabs needs exactly one of "window_index", "browser_window_id" or "new_window"',
  })
  .refine((c) => c.position === undefined || c.new_window === undefined, { error: 'a new window holds only the moved tabs: leave "position" out', path: ['position'] })
  .describe('Move tabs to another Chrome window, or to a new window.');

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
    browser_window_id: BROWSER_WINDOW_ID,
    duplicates: z.boolean({ error: 'must be true or false' }).optional().describe('true: reopen tabs already open too.'),
  })
  .refine(...oneWindowAtMost('restore_tabs'))
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

import type { Command, CommandOf } from '../protocol/commands';
import type { ContextSnapshot, TabInfo } from '../protocol/context';
import type { ResolvedCommand } from '../protocol/prepared-batch';
import { browserWindowNamed } from './browser-window-target';
import { ageWords, pickByAge, picksByAge, type AgePick } from './tab-age';
import { findDuplicates } from './tab-duplicates';
import { TAB_OP_TYPES, type TabOpType } from './tab-op-types';

// Resolution of the tab manager's operations (and close_tab): indices and ages become the
// snapshot's tabs (stable target ids), checked before anything runs, like every command.

type Fail = (field: string | null, message: string, kind?: 'input' | 'unavailable') => void;

/** The operations resolved here: the tab manager's, and close_tab (which can pick tabs by age too). */
export const TAB_MANAGER_TYPES = new Set<string>(['close_tab', ...TAB_OP_TYPES]);
export type TabManagerCommand = CommandOf<'close_tab' | TabOpType>;

export const isTabManagerCommand = (c: Command): c is TabManagerCommand => TAB_MANAGER_TYPES.has(c.type);

/** The operations only the companion extension can carry out. */
const NEEDS_COMPANION: ReadonlySet<string> = new Set(['pin_tabs', 'mute_tabs', 'group_tabs', 'ungroup_tabs']);

/** Not in the snapshot at all means the snapshot predates the companion check: treated as absent. */
export function companionOk(snap: Pick<ContextSnapshot, 'sources'>): boolean {
  return snap.sources.companion?.ok === true;
}

/** Why an operation cannot run without the companion extension, with how to add it. */
export function companionMissing(type: string, snap: Pick<ContextSnapshot, 'sources'>): string {
  const how = snap.sources.companion?.message ?? 'the DeskPilot companion extension was not found; run `deskpilot chrome status` to see how to add it.';
  return `${type} needs the DeskPilot companion extension (Chrome has no DevTools command for it): ${how}`;
}

function noSuchTab(index: number, snap: ContextSnapshot): string {
  const n = snap.tabs.length;
  return n === 0 ? `tab ${index} does not exist (no tabs are open)` : `tab ${index} does not exist (open tabs are 1–${n})`;
}

interface Targeted extends AgePick {
  tab_indices?: number[];
}

/**
 * The tabs a command names: its indices (each must exist), or every tab, then the age fields.
 * null after reporting why through `fail`. `allowEmpty`: an empty pick is an answer (search).
 */
function pickTabs(c: Targeted, snap: ContextSnapshot, fail: Fail, allowEmpty = false): TabInfo[] | null {
  let pool: TabInfo[] = snap.tabs;
  if (c.tab_indices) {
    const found: TabInfo[] = [];
    c.tab_indices.forEach((index, j) => {
      const tab = snap.tabs.find((t) => t.index === index);
      if (tab) found.push(tab);
      else fail(`tab_indices[${j}]`, noSuchTab(index, snap));
    });
    if (found.length !== c.tab_indices.length) return null;
    pool = found;
  }
  const picked = pickByAge(pool, c, snap);
  if (!picked.ok) {
    const field = c.unused_for_hours !== undefined ? 'unused_for_hours' : c.unused_today !== undefined ? 'unused_today' : 'oldest';
    return fail(field, picked.reason, 'unavailable'), null;
  }
  if (picked.tabs.length === 0 && !allowEmpty) {
    const among = c.tab_indices ? `of tabs ${c.tab_indices.join(', ')}` : 'open tab';
    return fail(null, `no ${among} is ${ageWords(c)}, so there is nothing to do`), null;
  }
  return picked.tabs;
}

export function resolveTabCommand(command: TabManagerCommand, snap: ContextSnapshot, fail: Fail): ResolvedCommand | null {
  if (NEEDS_COMPANION.has(command.type) && !companionOk(snap)) return fail(null, companionMissing(command.type, snap), 'unavailable'), null;
  switch (command.type) {
    case 'close_tab': {
      const tabs = pickTabs(command, snap, fail);
      return tabs && { type: 'close_tab', command, tabs };
    }
    case 'search_tabs': {
      const narrowed = command.tab_indices !== undefined || picksByAge(command);
      const pool = narrowed ? pickTabs(command, snap, fail, true) : null;
      if (narrowed && !pool) return null;
      return { type: 'search_tabs', command, pool };
    }
    case 'count_tabs_by_domain':
      return { type: 'count_tabs_by_domain', command };
    case 'reload_tabs': {
      const tabs = pickTabs(command, snap, fail);
      return tabs && { type: 'reload_tabs', command, tabs };
    }
    case 'pin_tabs':
    case 'mute_tabs':
    case 'ungroup_tabs': {
      const tabs = pickTabs(command, snap, fail);
      return tabs && ({ type: command.type, command, tabs } as ResolvedCommand);
    }
    case 'group_tabs': {
      const tabs = pickTabs(command, snap, fail);
      return tabs && { type: 'group_tabs', command, tabs };
    }
    case 'move_tabs':
      return resolveMove(command, snap, fail);
    case 'close_duplicate_tabs': {
      const pool = pickTabs(command, snap, fail);
      if (!pool) return null;
      const { close, kept } = findDuplicates(pool);
      if (close.length === 0) return fail(null, `no two ${command.tab_indices ? 'of those tabs' : 'open tabs'} show the same address, so there is nothing to close`), null;
      return { type: 'close_duplicate_tabs', command, tabs: close, kept };
    }
    case 'save_tabs': {
      const tabs = pickTabs(command, snap, fail);
      return tabs && { type: 'save_tabs', command, tabs, name: command.name };
    }
    case 'restore_tabs': {
      const saved = snap.tab_collections;
      if (!saved) return fail(null, 'the saved sets of tabs could not be read (see `deskpilot context`)', 'unavailable'), null;
      const name = saved.find((n) => n.toLowerCase() === command.name.toLowerCase());
      if (!name) {
        const list = saved.length ? saved.map((n) => `"${n}"`).join(', ') : 'none saved yet';
        return fail('name', `no saved set of tabs is named "${command.name}" (saved: ${list})`), null;
      }
      if (command.browser_window_id !== undefined && !browserWindowNamed(snap, command.browser_window_id, fail)) return null;
      return { type: 'restore_tabs', command, name };
    }
  }
}

function resolveMove(command: CommandOf<'move_tabs'>, snap: ContextSnapshot, fail: Fail): ResolvedCommand | null {
  const tabs = pickTabs(command, snap, fail);
  if (!tabs) return null;
  const byReopening = !companionOk(snap);
  // Without the extension a tab is reopened at the end of the window: no DevTools command places it.
  if (byReopening && command.position !== undefined) return fail('position', companionMissing('a move to a position in the tab strip', snap), 'unavailable'), null;
  if (command.new_window) return { type: 'move_tabs', command, tabs, to: { new_window: true }, by_reopening: byReopening };
  if (command.browser_window_id !== undefined) {
    const w = browserWindowNamed(snap, command.browser_window_id, fail);
    if (!w) return null;
    if (command.position === undefined && tabs.every((t) => t.browser_window_id === w.browser_window_id)) return alreadyThere(tabs, `window ${w.browser_window_id}`, 'browser_window_id', fail);
    return { type: 'move_tabs', command, tabs, to: { browser_window_id: w.browser_window_id, window_index: w.window_index }, by_reopening: byReopening };
  }
  const w = command.window_index!;
  const inWindow = snap.tabs.filter((t) => t.window_index === w);
  if (inWindow.length === 0) {
    const windows = [...new Set(snap.tabs.map((t) => t.window_index))];
    return fail('window_index', `Chrome window ${w} does not exist (windows are ${windows.join(', ') || 'none'})`), null;
  }
  if (command.position === undefined && tabs.every((t) => t.window_index === w)) return alreadyThere(tabs, `window ${w}`, 'window_index', fail);
  return { type: 'move_tabs', command, tabs, to: { window_index: w, window_tab_ids: inWindow.map((t) => t.target_id) }, by_reopening: byReopening };
}

/** A move that would leave every tab where it is (a position makes it a reorder instead). */
function alreadyThere(tabs: readonly TabInfo[], where: string, field: string, fail: Fail): null {
  fail(field, `${tabs.length === 1 ? 'that tab is' : 'those tabs are'} already in ${where}`);
  return null;
}

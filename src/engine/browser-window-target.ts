import type { ContextSnapshot, TabInfo } from '../protocol/context';
import type { BrowserWindowTarget, MoveDestination } from './ports';
import { clip, plural } from './words';

// A browser window named by its browser_window_id (the CDP windowId the snapshot gives each
// tab), checked against the snapshot the planner saw. A window the snapshot does not hold —
// closed since, or never there — is refused and named with the windows there are: Chrome
// never reuses a window id, so an old id can only name nothing, never another window.

type Fail = (field: string | null, message: string) => void;

export interface BrowserWindowRef {
  browser_window_id: number;
  /** Its w<n> in the tab list. */
  window_index: number;
  tabs: TabInfo[];
}

/** The snapshot's browser windows, in window_index order (only those whose id the backend knows). */
export function browserWindows(snap: Pick<ContextSnapshot, 'tabs'>): BrowserWindowRef[] {
  const byId = new Map<number, BrowserWindowRef>();
  for (const t of snap.tabs) {
    if (t.browser_window_id === undefined) continue;
    const w = byId.get(t.browser_window_id) ?? { browser_window_id: t.browser_window_id, window_index: t.window_index, tabs: [] };
    w.tabs.push(t);
    byId.set(t.browser_window_id, w);
  }
  return [...byId.values()].sort((a, b) => a.window_index - b.window_index);
}

/** The window `id` names in the snapshot, or null after failing on `field` with the windows there are. */
export function browserWindowNamed(snap: Pick<ContextSnapshot, 'tabs'>, id: number, fail: Fail, field = 'browser_window_id'): BrowserWindowRef | null {
  const windows = browserWindows(snap);
  const found = windows.find((w) => w.browser_window_id === id);
  if (found) return found;
  const there = windows.length ? `the Chrome windows are ${windows.map(describeBrowserWindow).join('; ')}` : 'no Chrome window is open';
  fail(field, `no Chrome window has id ${id} (it was closed, or the id is from an older snapshot); ${there}`);
  return null;
}

/** `12 (w1, 3 tabs, showing "Inbox")`. */
export function describeBrowserWindow(w: BrowserWindowRef): string {
  const shown = w.tabs.find((t) => t.is_active) ?? w.tabs[0];
  const title = shown?.title ? `, showing "${clip(shown.title, 40)}"` : '';
  return `${w.browser_window_id} (w${w.window_index}, ${plural(w.tabs.length, 'tab')}${title})`;
}

type WindowWords = { new_window?: boolean | undefined; browser_window_id?: number | undefined };

/** The port's destination for open_url (and restore_tabs): undefined for Chrome's most recent window. */
export function windowTarget(c: WindowWords): BrowserWindowTarget | undefined {
  if (c.new_window) return { newWindow: true };
  return c.browser_window_id !== undefined ? { windowId: c.browser_window_id } : undefined;
}

/** " in a new window", " in browser window 12", or "" for the most recent window. */
export function inWindowWords(c: WindowWords): string {
  if (c.new_window) return ' in a new window';
  return c.browser_window_id !== undefined ? ` in browser window ${c.browser_window_id}` : '';
}

type MoveTo = { new_window: true } | { window_index: number; browser_window_id?: number; window_tab_ids?: string[] };

/** "a new window", "window 2", "window 2 (browser window 12) at position 1". */
export function moveToWords(to: MoveTo, position: number | undefined): string {
  if ('new_window' in to) return 'a new window';
  const id = 'browser_window_id' in to && to.browser_window_id !== undefined ? ` (browser window ${to.browser_window_id})` : '';
  return `window ${to.window_index}${id}${position !== undefined ? ` at position ${position}` : ''}`;
}

/** The port's destination for a resolved move (position is 1-based, the port's index 0-based). */
export function moveDestination(to: MoveTo, position: number | undefined): MoveDestination {
  if ('new_window' in to) return { newWindow: true };
  const index = position !== undefined ? { index: position - 1 } : {};
  if ('browser_window_id' in to && to.browser_window_id !== undefined) return { windowId: to.browser_window_id, ...index };
  return { windowOf: to.window_tab_ids ?? [], ...index };
}

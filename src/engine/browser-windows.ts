import type { RunningApp, TabInfo, WindowInfo } from '../protocol/context';

// Which OS window is which browser window. The browser (CDP) knows its windows by its own ids
// and the OS knows them by its own; nothing names both. A browser window's title is its active
// tab's title ("Inbox - Chromium"), so a window whose title is exactly one browser window's
// active tab title, and no other's, is that window. Anything less certain stays unlinked.

/** The windows with browser_window_id and tab_ids where the link is certain; others unchanged. */
export function linkBrowserWindows(apps: readonly RunningApp[], tabs: readonly TabInfo[]): RunningApp[] {
  const byBrowserWindow = new Map<number, TabInfo[]>();
  for (const t of tabs) {
    if (t.browser_window_id === undefined) continue;
    byBrowserWindow.set(t.browser_window_id, [...(byBrowserWindow.get(t.browser_window_id) ?? []), t]);
  }
  const candidates = new Map<string, number[]>();
  for (const [id, list] of byBrowserWindow) {
    const active = list.find((t) => t.is_active);
    if (!active?.title) continue;
    for (const w of apps.flatMap((a) => a.windows)) {
      if (titleShows(w.title, active.title)) candidates.set(w.id, [...(candidates.get(w.id) ?? []), id]);
    }
  }
  // A browser window claimed by two OS windows (same active title) is not certain either.
  const claims = new Map<number, number>();
  for (const ids of candidates.values()) if (ids.length === 1) claims.set(ids[0]!, (claims.get(ids[0]!) ?? 0) + 1);
  const link = (w: WindowInfo): WindowInfo => {
    const ids = candidates.get(w.id);
    if (ids?.length !== 1 || claims.get(ids[0]!) !== 1) return w;
    const strip = [...byBrowserWindow.get(ids[0]!)!].sort((a, b) => a.local_index - b.local_index);
    return { ...w, browser_window_id: ids[0]!, tab_ids: strip.map((t) => t.target_id) };
  };
  return apps.map((a) => ({ ...a, windows: a.windows.map(link) }));
}

/** "Inbox - Chromium", "Inbox – Google Chrome", or just "Inbox". */
export const titleShows = (windowTitle: string, tabTitle: string) =>
  windowTitle === tabTitle || windowTitle.startsWith(`${tabTitle} - `) || windowTitle.startsWith(`${tabTitle} – `);

import type { ContextSnapshot, TabInfo } from '../../protocol/context';
import { appLine, monitorLine, tabLine } from '../../engine/planning/compact-context';
import { tabLabel } from '../../engine/words';
import type { TabRow } from './read-shapes';

// How the tools show the desk: the planner's compact lines for the model (one line per
// thing, titles quoted so a page title cannot forge a line), and lean data for programs.

/** `tab 3 "Reddit" (reddit.com)` */
export const tabBrief = (t: TabInfo) => tabLabel(t);

/** One tab as data: what a client needs to refer to it again (its index in this snapshot, its stable id). */
export const tabData = (t: TabInfo) => ({
  index: t.index,
  title: t.title,
  url: t.url,
  active: t.is_active,
  window: t.window_index,
  ...(t.browser_window_id !== undefined ? { browser_window_id: t.browser_window_id } : {}),
  tab_id: t.target_id,
  ...(t.content_summary ? { summary: t.content_summary } : {}),
});

/** What a listing adds beyond index, window, title and site: each costs tokens on every tab. */
export interface RowDetails {
  urls?: boolean;
  ids?: boolean;
}

/** One tab, lean (the read tools' structured answer): flags only when set, address and id on request. */
export const tabRow = (t: TabInfo, d: RowDetails = {}): TabRow => ({
  i: t.index,
  w: t.window_index,
  title: t.title,
  site: t.domain,
  ...(t.is_active ? { active: true } : {}),
  ...(t.pinned ? { pinned: true } : {}),
  ...(t.muted ? { muted: true } : {}),
  ...(t.group ? { group: t.group.title } : {}),
  ...(d.urls ? { url: t.url } : {}),
  ...(d.ids ? { id: t.target_id } : {}),
  ...(t.content_summary ? { summary: t.content_summary } : {}),
});

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * The head of a tab listing's text: how many, where, and which snapshot the indices belong to.
 * The lines under it are the tabs again, for clients that hand the model only the text (Claude
 * Desktop ignores structuredContent; Claude Code and VS Code pass only structuredContent).
 */
export function tabsSummary(id: string, shown: readonly TabInfo[], of: readonly TabInfo[], what = ''): string {
  const windows = new Set(of.map((t) => t.window_index)).size;
  const head = what ? `${plural(shown.length, 'tab')} of ${of.length} ${what}` : `${plural(shown.length, 'tab')} in ${plural(windows, 'window')}`;
  return `Snapshot ${id}: ${head}. Pass snapshot_id "${id}" with a tab's index (first number; * active, w window).`;
}

// Not tabs.map(tabLine): map's index would land in tabLine's `now` and every tab would read "used just now".
export const tabsText = (tabs: readonly TabInfo[]) => tabs.map((t) => tabLine(t)).join('\n');

export const appsText = (snap: ContextSnapshot) =>
  [
    'Monitors ([left,top,right,bottom]):',
    ...snap.monitors.map(monitorLine),
    'Running apps (windows: "title" [frame] monitor flags):',
    ...(snap.running_apps.length ? snap.running_apps.map((a) => appLine(a.name, a.windows)) : ['(none)']),
  ].join('\n');

export const appsData = (snap: ContextSnapshot) => ({
  monitors: snap.monitors.map((m) => ({ name: m.name, roles: m.roles, bounds: m.bounds, work_area: m.work_area, primary: m.primary })),
  apps: snap.running_apps.map((a) => ({
    name: a.name,
    windows: a.windows.map((w) => ({
      window_id: w.id,
      title: w.title,
      bounds: w.bounds,
      monitor: w.monitor,
      focused: w.focused,
      minimized: w.minimized,
      ...(w.state ? { state: w.state } : {}),
    })),
  })),
});

/** Header naming the snapshot, so the model passes its id with the indices below. */
export const snapshotHeader = (id: string, what: string) => `Snapshot ${id} (${what}). Pass snapshot_id "${id}" with tab indices from it.`;

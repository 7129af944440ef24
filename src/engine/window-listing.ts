import type { ContextSnapshot, WindowInfo } from '../protocol/context';

// Every window of a desk, one row each, topmost first: what `deskpilot windows` prints and the
// MCP tool list_windows returns. The id is what window commands take as window_id.

export interface WindowRow extends WindowInfo {
  app: string;
}

/** The snapshot's windows, by stacking order (topmost first) where the backend reports it. */
export function windowRows(snap: Pick<ContextSnapshot, 'running_apps'>): WindowRow[] {
  const rows = snap.running_apps.flatMap((a) => a.windows.map((w) => ({ app: a.name, ...w })));
  return rows.sort((a, b) => (a.stacking ?? Infinity) - (b.stacking ?? Infinity));
}

const stateOf = (w: WindowInfo) => w.state ?? (w.minimized ? 'minimized' : 'normal');

/** 'XTerm  0x1a00004  "build"  on LEFT [0,19,484,335]  normal, focused  tabs: 3' */
export function windowLine(w: WindowRow): string {
  const flags = [stateOf(w), ...(w.focused ? ['focused'] : [])].join(', ');
  const tabs = w.tab_ids ? `  ${w.tab_ids.length} tab${w.tab_ids.length === 1 ? '' : 's'} (browser window ${w.browser_window_id})` : '';
  return `${w.app}  ${w.id}  "${w.title}"  on ${w.monitor ?? 'no monitor'} [${w.bounds.join(',')}]  ${flags}${tabs}`;
}

export const windowsText = (rows: readonly WindowRow[]) =>
  rows.length ? ['Windows, topmost first (app  window_id  "title"  monitor [frame]  state):', ...rows.map(windowLine)].join('\n') : 'No windows are open.';

import type { ChromeTab } from '../../engine/ports';

/** One tab with everything needed to place it; produced by the backend from CDP answers. */
export interface TabRecord {
  /** The page target id: what activate/close/summarize act on. */
  pageId: string;
  title: string;
  url: string;
  windowId: number;
  /** Position in its window's tab strip, or null when Chrome does not report it. */
  stripIndex: number | null;
  active: boolean;
  /** Sequence number of when the backend first saw the tab; orders tabs without a strip index. */
  firstSeen: number;
  /** The tab target's id (Chrome 112+), which the tab clock keys on; absent on older Chrome. */
  tabId?: string;
  /** Chrome's tabPinned, where it reports it. */
  pinned?: boolean;
}

/**
 * Windows by ascending windowId (Chrome allocates them increasingly, so the order is stable
 * while windows come and go), tabs by strip index. A window where any tab lacks a strip index
 * falls back to first-seen order for all its tabs, so the positions never mix two orders.
 */
export function orderTabs(records: readonly TabRecord[]): ChromeTab[] {
  const byWindow = new Map<number, TabRecord[]>();
  for (const r of records) {
    const list = byWindow.get(r.windowId);
    if (list) list.push(r);
    else byWindow.set(r.windowId, [r]);
  }
  const windowIds = [...byWindow.keys()].sort((a, b) => a - b);
  const out: ChromeTab[] = [];
  windowIds.forEach((windowId, w) => {
    const tabs = byWindow.get(windowId)!;
    const haveStrip = tabs.every((t) => t.stripIndex !== null);
    tabs.sort((a, b) =>
      haveStrip ? a.stripIndex! - b.stripIndex! || a.firstSeen - b.firstSeen : a.firstSeen - b.firstSeen || cmp(a.pageId, b.pageId),
    );
    tabs.forEach((t, i) =>
      out.push({
        targetId: t.pageId,
        title: t.title,
        url: t.url,
        active: t.active,
        windowIndex: w + 1,
        browserWindowId: windowId,
        localIndex: i + 1,
        ...(t.pinned !== undefined ? { pinned: t.pinned } : {}),
      }),
    );
  });
  return out;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Tabs a person would not call tabs: DevTools windows. */
export function isListablePage(url: string): boolean {
  return !url.startsWith('devtools://');
}

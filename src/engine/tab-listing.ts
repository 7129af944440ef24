import type { ContextSnapshot, TabInfo } from '../protocol/context';
import { domainOf } from './normalize-url';
import type { ChromeTab, TabListing } from './ports';

// Chrome's tabs in the snapshot's shape: global 1-based indices in display order, and the tab
// manager's facts (pinned, muted, group, last use) where something knows them.

export function toTabInfos(tabs: readonly ChromeTab[], summaries?: ReadonlyMap<string, string | null>): TabInfo[] {
  return tabs.map((t, i) => ({
    index: i + 1,
    title: t.title,
    url: t.url,
    domain: domainOf(t.url),
    content_summary: summaries?.get(t.targetId) ?? null,
    is_active: t.active,
    window_index: t.windowIndex,
    ...(t.browserWindowId !== undefined ? { browser_window_id: t.browserWindowId } : {}),
    local_index: t.localIndex,
    target_id: t.targetId,
    ...(t.pinned !== undefined ? { pinned: t.pinned } : {}),
    ...(t.muted !== undefined ? { muted: t.muted } : {}),
    ...(t.audible !== undefined ? { audible: t.audible } : {}),
    ...(t.group !== undefined ? { group: t.group } : {}),
    ...(t.lastUsed !== undefined ? { last_used_at: t.lastUsed === null ? null : new Date(t.lastUsed).toISOString() } : {}),
  }));
}

/** The snapshot's tab_usage for a listing; undefined when no tab's last use is known. */
export function tabUsageOf(listing: Pick<TabListing, 'usage'>): ContextSnapshot['tab_usage'] {
  const u = listing.usage;
  if (!u) return undefined;
  return { source: u.source, watched_since: u.watchedSince === null ? null : new Date(u.watchedSince).toISOString() };
}

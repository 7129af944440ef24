import type { TabInfo } from '../protocol/context';

// "Close duplicate tabs": tabs showing the same address. Addresses are compared after the
// browser's own URL normalisation (scheme and host case, default ports, an empty path or an
// empty fragment), and nothing looser: two fragments or two queries are two different views
// (a mail app's #inbox and #sent), so they are never folded together.

export function duplicateKey(url: string): string {
  try {
    const u = new URL(url);
    const href = u.href;
    return href.endsWith('#') ? href.slice(0, -1) : href;
  } catch {
    return url;
  }
}

/**
 * Of each set of tabs with the same address, the one kept — the active one (the first such, by
 * index), else the one used most recently, else the first in tab order — and the others.
 */
export function findDuplicates(tabs: readonly TabInfo[]): { close: TabInfo[]; kept: TabInfo[] } {
  const sets = new Map<string, TabInfo[]>();
  for (const t of tabs) {
    const key = duplicateKey(t.url);
    const set = sets.get(key);
    if (set) set.push(t);
    else sets.set(key, [t]);
  }
  const close: TabInfo[] = [];
  const kept: TabInfo[] = [];
  for (const set of sets.values()) {
    if (set.length < 2) continue;
    const keep = [...set].sort(keepFirst)[0]!;
    kept.push(keep);
    close.push(...set.filter((t) => t !== keep));
  }
  const byIndex = (a: TabInfo, b: TabInfo) => a.index - b.index;
  return { close: close.sort(byIndex), kept: kept.sort(byIndex) };
}

const usedAt = (t: TabInfo) => {
  const ms = t.last_used_at ? Date.parse(t.last_used_at) : NaN;
  return Number.isFinite(ms) ? ms : Number.NEGATIVE_INFINITY;
};

function keepFirst(a: TabInfo, b: TabInfo): number {
  if (a.is_active !== b.is_active) return a.is_active ? -1 : 1;
  return usedAt(b) - usedAt(a) || a.index - b.index;
}

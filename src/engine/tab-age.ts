import type { ContextSnapshot, TabInfo } from '../protocol/context';
import { plural } from './words';

// Picking tabs by age — the time since a tab was last used (selected). Ages come from the
// snapshot: every tab's time from the companion extension, or from the warm service's clock,
// which knows only the tabs used since it started (a tab without a time was not used since
// then). A tab whose age cannot be decided against the bound is left out, never guessed; the
// tab in front of each window counts as in use now, so "not used today" never closes the page
// someone has been reading all day.

export interface AgePick {
  unused_for_hours?: number;
  unused_today?: true;
  oldest?: number;
}

export const picksByAge = (c: AgePick): boolean => c.unused_for_hours !== undefined || c.unused_today !== undefined || c.oldest !== undefined;

export type AgePicked = { ok: true; tabs: TabInfo[] } | { ok: false; reason: string };

type AgeSnapshot = Pick<ContextSnapshot, 'taken_at' | 'tab_usage' | 'sources'>;

const HOUR_MS = 3_600_000;

/** Why ages are unknown, in one sentence with the way out. */
export function agesUnknown(snap: Pick<ContextSnapshot, 'sources'>): string {
  const companion = snap.sources.companion;
  const how = companion && !companion.ok ? ` ${companion.message}` : '';
  return `tab ages are not known: they come from the DeskPilot companion extension, or from the warm service (\`deskpilot service\`) for tabs used since it started.${how}`;
}

/** Midnight (local time) of the day `at` falls on. */
export function startOfDay(at: number): number {
  const d = new Date(at);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}

/**
 * Of `pool`, the tabs last used before `cutoff` — known to be, that is: a tab without a time
 * qualifies only when the service clock's start already lies before the cutoff.
 */
function unusedSince(pool: readonly TabInfo[], cutoff: number, watchedSince: number | null): TabInfo[] {
  return pool.filter((t) => {
    if (t.is_active) return false;
    const used = lastUsed(t);
    if (used !== null) return used < cutoff;
    return watchedSince !== null && watchedSince <= cutoff;
  });
}

const lastUsed = (t: TabInfo): number | null => {
  const ms = t.last_used_at ? Date.parse(t.last_used_at) : NaN;
  return Number.isFinite(ms) ? ms : null;
};

/** The tabs of `pool` the age fields pick (oldest first when `oldest` is given), or why none can be picked. */
export function pickByAge(pool: readonly TabInfo[], pick: AgePick, snap: AgeSnapshot): AgePicked {
  if (!picksByAge(pick)) return { ok: true, tabs: [...pool] };
  if (!snap.tab_usage) return { ok: false, reason: agesUnknown(snap) };
  const now = Date.parse(snap.taken_at);
  const since = snap.tab_usage.watched_since ? Date.parse(snap.tab_usage.watched_since) : null;
  const watchedSince = since !== null && Number.isFinite(since) ? since : null;
  let tabs = [...pool];
  if (pick.unused_for_hours !== undefined) tabs = unusedSince(tabs, now - pick.unused_for_hours * HOUR_MS, watchedSince);
  if (pick.unused_today) tabs = unusedSince(tabs, startOfDay(now), watchedSince);
  if (pick.oldest !== undefined) {
    // Unknown times are older than every known one (not used since the clock started); ties keep tab order.
    const key = (t: TabInfo) => (t.is_active ? Number.POSITIVE_INFINITY : (lastUsed(t) ?? Number.NEGATIVE_INFINITY));
    tabs = tabs
      .filter((t) => !t.is_active)
      .sort((a, b) => key(a) - key(b) || a.index - b.index)
      .slice(0, pick.oldest);
  }
  return { ok: true, tabs };
}

/** "unused for 168 hours", "not used today", "the 5 used longest ago" — the pick in words. */
export function ageWords(pick: AgePick): string {
  const parts: string[] = [];
  if (pick.unused_for_hours !== undefined) parts.push(`unused for ${hoursText(pick.unused_for_hours)}`);
  if (pick.unused_today) parts.push('not used today');
  if (pick.oldest !== undefined) parts.push(pick.oldest === 1 ? 'the one used longest ago' : `the ${pick.oldest} used longest ago`);
  return parts.join(', ');
}

function hoursText(h: number): string {
  if (h % 8760 === 0) return plural(h / 8760, 'year');
  if (h % 168 === 0) return plural(h / 168, 'week');
  if (h % 24 === 0) return plural(h / 24, 'day');
  return plural(h, 'hour');
}

/** "3 d ago", "5 h ago", "just now" — how long ago a time was, for listings. */
export function agoText(iso: string | null | undefined, now: number): string | null {
  const at = iso ? Date.parse(iso) : NaN;
  if (!Number.isFinite(at)) return null;
  const min = Math.max(0, Math.round((now - at) / 60_000));
  if (min < 1) return 'just now';
  if (min < 60) return `${min} min ago`;
  const h = Math.round(min / 60);
  if (h < 48) return `${h} h ago`;
  return `${Math.round(h / 24)} d ago`;
}

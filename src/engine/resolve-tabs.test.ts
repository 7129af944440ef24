import { describe, expect, it } from 'vitest';
import type { Command } from '../protocol/commands';
import type { ContextSnapshot, TabInfo } from '../protocol/context';
import { describePlanned } from './describe-plan';
import { resolveBatch } from './resolve';
import { fixtureTab } from './test-snapshot';

// Resolution of the tab manager's operations against a snapshot: the tabs each one acts on,
// by stable id, and every reason it cannot run, before anything runs.

const NOW = Date.parse('2026-11-26T15:00:00.000Z');
const hoursAgo = (h: number) => new Date(NOW - h * 3_600_000).toISOString();

const tab = (index: number, domain: string, over: Partial<TabInfo> = {}): TabInfo => ({ ...fixtureTab(index, domain), ...over });

const COMPANION_MISSING = 'The DeskPilot companion extension is not installed in this Chrome. Load it at chrome://extensions.';

const snapshot = (over: Partial<ContextSnapshot> = {}): ContextSnapshot => ({
  taken_at: new Date(NOW).toISOString(),
  monitors: [],
  running_apps: [],
  installed_apps: [],
  tabs: [
    tab(1, 'mail.google.com', { last_used_at: hoursAgo(0) }),
    tab(2, 'github.com', { last_used_at: hoursAgo(200), url: 'https://github.com/a' }),
    tab(3, 'github.com', { last_used_at: hoursAgo(30), url: 'https://github.com/a' }),
    tab(4, 'youtube.com', { last_used_at: hoursAgo(2), window_index: 2, local_index: 1, is_active: true }),
    tab(5, 'github.com', { last_used_at: hoursAgo(500), url: 'https://github.com/a#' }),
  ],
  presets: [],
  tab_collections: ['Research'],
  tab_usage: { source: 'companion', watched_since: null },
  sources: {
    chrome: { ok: true, message: 'Chromium' },
    windows: { ok: true, message: 'X11' },
    presets: { ok: true, message: '' },
    companion: { ok: true, message: 'answers' },
  },
  ...over,
});

const noCompanion = (over: Partial<ContextSnapshot> = {}) =>
  snapshot({ sources: { ...snapshot().sources, companion: { ok: false, message: COMPANION_MISSING } }, ...over });

function resolved(cmd: Command, snap = snapshot()) {
  const r = resolveBatch([cmd], snap);
  if (!r.ok) throw new Error(r.errors.map((e) => `${e.path}: ${e.message}`).join('; '));
  return r.plan[0]!;
}
const errors = (cmd: Command, snap = snapshot()) => {
  const r = resolveBatch([cmd], snap);
  return r.ok ? [] : r.errors.map((e) => `${e.kind} ${e.path}: ${e.message}`);
};
const indices = (tabs: readonly TabInfo[] | null | undefined) => tabs?.map((t) => t.index);

describe('tab ages', () => {
  it('close_tab by age picks the tabs unused that long, never an active one', () => {
    const r = resolved({ type: 'close_tab', unused_for_hours: 168 });
    expect(r.type === 'close_tab' && indices(r.tabs)).toEqual([2, 5]);
    const today = resolved({ type: 'close_tab', unused_today: true });
    // Midnight of 15:00 local time: 30 h and more ago, not the active tabs 1 and 4.
    expect(today.type === 'close_tab' && indices(today.tabs)).toEqual([2, 3, 5]);
  });

  it('oldest N: the least recently used first, among the indices given', () => {
    const r = resolved({ type: 'search_tabs', oldest: 2 });
    expect(r.type === 'search_tabs' && indices(r.pool)).toEqual([5, 2]);
    const among = resolved({ type: 'search_tabs', tab_indices: [1, 3, 4], oldest: 1 });
    expect(among.type === 'search_tabs' && indices(among.pool)).toEqual([3]);
  });

  it("with the service's clock, a tab without a time is old only when the clock started before the cutoff", () => {
    const tabs = snapshot().tabs.map((t) => ({ ...t, last_used_at: t.index === 3 ? hoursAgo(1) : null }));
    const started10hAgo = snapshot({ tabs, tab_usage: { source: 'service', watched_since: hoursAgo(10) } });
    expect(indices((resolved({ type: 'close_tab', unused_for_hours: 5 }, started10hAgo) as { tabs: TabInfo[] }).tabs)).toEqual([2, 5]);
    // Not known to be a week old: left out, so nothing is left to close.
    expect(errors({ type: 'close_tab', unused_for_hours: 168 }, started10hAgo)).toEqual([
      'input commands[0]: no open tab is unused for 1 week, so there is nothing to do',
    ]);
  });

  it('without any tab ages it says where they come from, and nothing resolves', () => {
    expect(errors({ type: 'close_tab', unused_for_hours: 24 }, noCompanion({ tab_usage: undefined }))).toEqual([
      `unavailable commands[0].unused_for_hours: tab ages are not known: they come from the DeskPilot companion extension, or from the warm service (\`deskpilot service\`) for tabs used since it started. ${COMPANION_MISSING}`,
    ]);
  });
});

describe('the companion extension', () => {
  it.each<Command>([
    { type: 'pin_tabs', tab_indices: [1], pinned: true },
    { type: 'mute_tabs', tab_indices: [4], muted: true },
    { type: 'group_tabs', tab_indices: [2, 3], title: 'Work' },
    { type: 'ungroup_tabs', tab_indices: [2] },
  ])('$type without it is unavailable, naming it and how to add it', (cmd) => {
    expect(errors(cmd, noCompanion())).toEqual([
      `unavailable commands[0]: ${cmd.type} needs the DeskPilot companion extension (Chrome has no DevTools command for it): ${COMPANION_MISSING}`,
    ]);
  });

  it('a snapshot that does not mention it counts as without it', () => {
    const old = snapshot({ sources: { chrome: { ok: true, message: 'x' }, windows: { ok: true, message: 'x' }, presets: { ok: true, message: '' } } });
    expect(errors({ type: 'pin_tabs', tab_indices: [1], pinned: true }, old)[0]).toMatch(/^unavailable commands\[0\]: pin_tabs needs the DeskPilot companion extension/);
  });

  it('move_tabs without it moves by reopening, and says so before it runs (asking like a close)', () => {
    const r = resolved({ type: 'move_tabs', tab_indices: [2, 3], window_index: 2 }, noCompanion());
    expect(r).toMatchObject({ type: 'move_tabs', by_reopening: true, to: { window_index: 2, window_tab_ids: ['T4'] } });
    const described = describePlanned(r, 0);
    expect(described.destructive).toBe(true);
    expect(described.summary).toContain('by reopening them there and closing them here');
    const exact = resolved({ type: 'move_tabs', tab_indices: [2], new_window: true });
    expect(exact).toMatchObject({ by_reopening: false, to: { new_window: true } });
    expect(describePlanned(exact, 0).destructive).toBe(false);
  });
});

describe('the other tab operations', () => {
  it('close_duplicate_tabs keeps the most recently used of each address (an empty fragment is the same address)', () => {
    const r = resolved({ type: 'close_duplicate_tabs' });
    expect(r.type === 'close_duplicate_tabs' && [indices(r.tabs), indices(r.kept)]).toEqual([[2, 5], [3]]);
    expect(describePlanned(r, 0)).toMatchObject({ destructive: true, summary: 'close duplicate tab 2 "Tab 2" (github.com), tab 5 "Tab 5" (github.com) (keeping tab 3 "Tab 3" (github.com))' });
    expect(errors({ type: 'close_duplicate_tabs', tab_indices: [1, 4] })).toEqual(['input commands[0]: no two of those tabs show the same address, so there is nothing to close']);
  });

  it('move_tabs refuses a window that does not exist, and tabs already there', () => {
    expect(errors({ type: 'move_tabs', tab_indices: [1], window_index: 3 })).toEqual(['input commands[0].window_index: Chrome window 3 does not exist (windows are 1, 2)']);
    expect(errors({ type: 'move_tabs', tab_indices: [4], window_index: 2 })).toEqual(['input commands[0].window_index: that tab is already in window 2']);
  });

  it('restore_tabs finds a saved set by name in any case, and names the sets when there is none', () => {
    expect(resolved({ type: 'restore_tabs', name: 'research' })).toMatchObject({ name: 'Research' });
    expect(errors({ type: 'restore_tabs', name: 'travel' })).toEqual(['input commands[0].name: no saved set of tabs is named "travel" (saved: "Research")']);
  });

  it('a tab index missing from the snapshot is named, for every operation alike', () => {
    expect(errors({ type: 'reload_tabs', tab_indices: [1, 9] })).toEqual(['input commands[0].tab_indices[1]: tab 9 does not exist (open tabs are 1–5)']);
  });

  it('save_tabs with close is confirmed like closing; without it, not', () => {
    expect(describePlanned(resolved({ type: 'save_tabs', name: 'gh', tab_indices: [2, 3], close: true }), 0).destructive).toBe(true);
    expect(describePlanned(resolved({ type: 'save_tabs', name: 'gh', tab_indices: [2, 3] }), 0).destructive).toBe(false);
  });

  it('every tab operation needs Chrome', () => {
    const down = snapshot({ sources: { ...snapshot().sources, chrome: { ok: false, message: 'Chrome is not reachable' } } });
    expect(errors({ type: 'count_tabs_by_domain' }, down)).toEqual(['unavailable commands[0]: Chrome is not reachable']);
  });
});

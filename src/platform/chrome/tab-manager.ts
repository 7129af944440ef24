import { DeskPilotError, errorMessage } from '../../engine/errors';
import { clip } from '../../engine/words';
import type { ChromeTab, MoveDestination, OpenTabsWhere, TabChanges, TabGroupRef, TabListing, TabPlace, TabToOpen } from '../../engine/ports';
import { call, isNoTargetError, mapLimit, type CdpConnection, type TargetInfo } from './cdp-connection';
import type { CompanionLink } from './companion';
import {
  companionCreate,
  companionGroup,
  companionList,
  companionMove,
  companionPlace,
  companionRegroup,
  companionUngroup,
  companionUpdate,
  type CompanionGroup,
  type CompanionTab,
} from './companion-calls';
import { refusalMessage, type DevtoolsGuard } from './devtools-guard';
import type { PageTextIndex } from './page-text-index';
import type { TabClock } from './tab-clock';
import { orderTabs, type TabRecord } from './tab-order';
import { navigateWatched } from './watched-open';
import { requireOpenWindow } from './window-targets';

// The tab manager over one browser connection. DevTools alone reloads, searches page text and
// opens tabs; the companion extension's worker pins, mutes, groups and moves them and knows
// when each was last used.
//
// Which chrome.tabs tab is which DevTools page: the browser window id Browser.getWindowForTarget
// reports is the window id chrome.tabs uses, and a tab target's tabStripIndex is its chrome.tabs
// index, so (window id, strip index) names the same tab in both — read moments apart, and
// checked against the address. A tab whose address disagrees (it navigated in between) is
// matched by address and title among its window's tabs when exactly one fits; otherwise it is
// reported as not matched rather than guessed.

export interface TabSession {
  conn: CdpConnection;
  companion: CompanionLink;
  guard: DevtoolsGuard;
  textIndex: PageTextIndex;
  /** Every tab with its window id and strip position, read now. */
  records(): Promise<TabRecord[]>;
}

const RELOAD_CONCURRENCY = 8;

/** page target id → the extension's tab, for every tab that could be matched. */
export function matchCompanionTabs(records: readonly TabRecord[], tabs: readonly CompanionTab[]): Map<string, CompanionTab> {
  const byPlace = new Map(tabs.map((t) => [`${t.windowId}:${t.index}`, t]));
  const out = new Map<string, CompanionTab>();
  const claimed = new Set<number>();
  const unsure: TabRecord[] = [];
  for (const r of records) {
    const t = r.stripIndex === null ? undefined : byPlace.get(`${r.windowId}:${r.stripIndex}`);
    if (t && sameAddress(t.url, r.url) && !claimed.has(t.id)) {
      out.set(r.pageId, t);
      claimed.add(t.id);
    } else unsure.push(r);
  }
  for (const r of unsure) {
    const fits = tabs.filter((t) => !claimed.has(t.id) && t.windowId === r.windowId && t.url === r.url && t.title === r.title);
    if (fits.length === 1) {
      out.set(r.pageId, fits[0]!);
      claimed.add(fits[0]!.id);
    }
  }
  return out;
}

/** Loading tabs show an empty or blank address on one side for a moment. */
const sameAddress = (a: string, b: string) => a === b || a === '' || b === '' || a === 'about:blank' || b === 'about:blank';

const groupRef = (g: CompanionGroup): TabGroupRef => ({ groupId: g.id, windowId: g.windowId, title: g.title, color: g.color });

/** listTabs with the tab manager's facts: from the extension when it answers, else pinned from DevTools and last use from the clock. */
export async function listInDetail(s: TabSession, clock: TabClock | null): Promise<TabListing> {
  // The extension's view is read while DevTools lists the tabs, not after.
  const statusRead = s.companion.status();
  const listRead = statusRead.then((st) => (st.ok ? companionList(s.companion).then((l) => ({ l }), (e: unknown) => ({ e })) : null));
  const [records, status, listed] = await Promise.all([s.records(), statusRead, listRead]);
  const ordered = orderTabs(records);
  const byPage = new Map(records.map((r) => [r.pageId, r]));
  if (status.ok && listed) {
    try {
      if ('e' in listed) throw listed.e;
      const { tabs, groups } = listed.l;
      const matched = matchCompanionTabs(records, tabs);
      const groupById = new Map(groups.map((g) => [g.id, g]));
      const detailed = ordered.map((t): ChromeTab => {
        const c = matched.get(t.targetId);
        if (!c) return { ...t, ...(clockUsage(clock) ? { lastUsed: clockTime(clock, byPage.get(t.targetId)) } : {}) };
        const g = c.groupId >= 0 ? groupById.get(c.groupId) : undefined;
        return { ...t, pinned: c.pinned, muted: c.muted, audible: c.audible, group: g ? { title: g.title, color: g.color } : null, lastUsed: c.lastAccessed };
      });
      const known = tabs.some((t) => t.lastAccessed !== null);
      return { tabs: detailed, companion: status, usage: known ? { source: 'companion', watchedSince: null } : clockUsage(clock) };
    } catch (e) {
      // The extension went away between the check and the call: the listing stands without it.
      const down = { ok: false, message: `The DeskPilot companion extension stopped answering (${errorMessage(e)}).` };
      const usage = clockUsage(clock);
      return { tabs: usage ? ordered.map((t) => ({ ...t, lastUsed: clockTime(clock, byPage.get(t.targetId)) })) : ordered, companion: down, usage };
    }
  }
  const usage = clockUsage(clock);
  return { tabs: usage ? ordered.map((t) => ({ ...t, lastUsed: clockTime(clock, byPage.get(t.targetId)) })) : ordered, companion: status, usage };
}

/** The clock counts only once it has looked at the tabs. */
const clockUsage = (clock: TabClock | null): TabListing['usage'] =>
  clock?.startedAt != null ? { source: 'service', watchedSince: clock.startedAt } : null;
const clockTime = (clock: TabClock | null, r: TabRecord | undefined): number | null | undefined =>
  clock?.startedAt != null ? (r ? clock.lastUsed(r.tabId ?? r.pageId) : null) : undefined;

export async function placesOf(s: TabSession, ids: readonly string[]): Promise<Map<string, TabPlace>> {
  const want = new Set(ids);
  const records = await s.records();
  const ordered = orderTabs(records);
  const local = new Map(ordered.map((t) => [t.targetId, t.localIndex - 1]));
  const out = new Map<string, TabPlace>();
  for (const r of records) {
    if (want.has(r.pageId)) out.set(r.pageId, { windowId: r.windowId, index: r.stripIndex ?? local.get(r.pageId) ?? 0 });
  }
  return out;
}

export async function reloadTabs(s: TabSession, ids: readonly string[], ignoreCache: boolean): Promise<{ done: string[]; missing: string[] }> {
  const done: string[] = [];
  const missing: string[] = [];
  await mapLimit([...new Set(ids)], RELOAD_CONCURRENCY, async (targetId) => {
    let sessionId: string;
    try {
      sessionId = (await call(s.conn, 'Target.attachToTarget', { targetId, flatten: true })).sessionId;
    } catch (e) {
      if (isNoTargetError(e)) return void missing.push(targetId);
      throw e;
    }
    try {
      await call(s.conn, 'Page.reload', { ignoreCache }, { sessionId });
      done.push(targetId);
    } finally {
      await call(s.conn, 'Target.detachFromTarget', { sessionId }).catch(() => undefined);
    }
  });
  const order = new Map(ids.map((id, i) => [id, i]));
  const byOrder = (a: string, b: string) => order.get(a)! - order.get(b)!;
  return { done: done.sort(byOrder), missing: missing.sort(byOrder) };
}

/** The extension's view of these page targets; ids with no tab are `missing`, tabs it cannot match are an error. */
async function matched(s: TabSession, ids: readonly string[], what: string) {
  const [records, listed] = await Promise.all([s.records(), companionList(s.companion)]);
  const map = matchCompanionTabs(records, listed.tabs);
  const live = new Set(records.map((r) => r.pageId));
  const missing = ids.filter((id) => !live.has(id));
  const unmatched = ids.filter((id) => live.has(id) && !map.has(id));
  if (unmatched.length) {
    throw new DeskPilotError(`could not ${what}: ${unmatched.length === 1 ? 'a tab' : `${unmatched.length} tabs`} changed while DeskPilot was matching them to the extension's tabs; nothing was changed, try again`, 'stale');
  }
  const present = ids.filter((id) => map.has(id));
  return { present, tab: (id: string) => map.get(id)!, missing, listed, records };
}

function changesFrom<T>(present: string[], before: (id: string) => T, errors: Array<string | null>): TabChanges<T> & { failed: Array<{ targetId: string; error: string }> } {
  const changed: TabChanges<T>['changed'] = [];
  const failed: Array<{ targetId: string; error: string }> = [];
  present.forEach((id, i) => {
    const err = errors[i];
    if (err) failed.push({ targetId: id, error: err });
    else changed.push({ targetId: id, before: before(id) });
  });
  return { changed, missing: [], failed };
}

export async function setTabState(s: TabSession, ids: readonly string[], prop: 'pinned' | 'muted', value: boolean): Promise<TabChanges<boolean>> {
  const what = prop === 'pinned' ? (value ? 'pin tabs' : 'unpin tabs') : value ? 'mute tabs' : 'unmute tabs';
  const m = await matched(s, ids, what);
  const errors = m.present.length ? await companionUpdate(s.companion, m.present.map((id) => m.tab(id).id), { [prop]: value }, what) : [];
  return { ...changesFrom(m.present, (id) => m.tab(id)[prop], errors), missing: m.missing };
}

export async function groupTabs(s: TabSession, ids: readonly string[], title: string, color: string | undefined): Promise<TabChanges<TabGroupRef | null> & { group: TabGroupRef }> {
  const m = await matched(s, ids, 'group tabs');
  if (m.present.length === 0) throw new DeskPilotError('every one of those tabs was closed after the snapshot; nothing was grouped', 'tab_gone');
  const groups = new Map(m.listed.groups.map((g) => [g.id, g]));
  const before = (id: string) => {
    const g = groups.get(m.tab(id).groupId);
    return g ? groupRef(g) : null;
  };
  const beforeAll = new Map(m.present.map((id) => [id, before(id)]));
  const group = await companionGroup(s.companion, m.present.map((id) => m.tab(id).id), title, color, m.tab(m.present[0]!).windowId);
  return { changed: m.present.map((id) => ({ targetId: id, before: beforeAll.get(id)! })), missing: m.missing, group: groupRef(group) };
}

export async function ungroupTabs(s: TabSession, ids: readonly string[]): Promise<TabChanges<TabGroupRef | null>> {
  const m = await matched(s, ids, 'ungroup tabs');
  const groups = new Map(m.listed.groups.map((g) => [g.id, g]));
  const before = m.present.map((id) => {
    const g = groups.get(m.tab(id).groupId);
    return { targetId: id, before: g ? groupRef(g) : null };
  });
  const grouped = before.filter((b) => b.before !== null).map((b) => m.tab(b.targetId).id);
  if (grouped.length) await companionUngroup(s.companion, grouped);
  return { changed: before, missing: m.missing };
}

export async function regroupTabs(s: TabSession, entries: ReadonlyArray<{ targetId: string; group: TabGroupRef | null }>): Promise<{ done: string[]; missing: string[] }> {
  const m = await matched(s, entries.map((e) => e.targetId), 'put tabs back in their groups');
  const present = entries.filter((e) => m.present.includes(e.targetId));
  const errors = present.length ? await companionRegroup(s.companion, present.map((e) => ({ id: m.tab(e.targetId).id, group: e.group }))) : [];
  throwIfAllFailed(errors, 'put tabs back in their groups');
  return { done: present.filter((_, i) => !errors[i]).map((e) => e.targetId), missing: m.missing };
}

function throwIfAllFailed(errors: Array<string | null>, what: string): void {
  const failed = errors.filter((e): e is string => e !== null);
  if (failed.length && failed.length === errors.length) throw new DeskPilotError(`Chrome refused to ${what}: ${[...new Set(failed)].join('; ')}`, 'failed');
}

/** The browser window holding any of these targets, or an error when none of them is open any more. */
async function windowOfTargets(conn: CdpConnection, ids: readonly string[]): Promise<number> {
  for (const targetId of ids) {
    try {
      return (await call(conn, 'Browser.getWindowForTarget', { targetId })).windowId;
    } catch {
      // closed since the snapshot: try the next tab of that window
    }
  }
  throw new DeskPilotError('every tab of the destination window was closed after the snapshot, so the window is gone; nothing was moved', 'window_gone');
}

export async function moveTabs(s: TabSession, ids: readonly string[], to: MoveDestination): Promise<TabChanges<TabPlace> & { windowId: number }> {
  if ('windowId' in to) await requireOpenWindow(s.conn, to.windowId, 'nothing was moved');
  const dest = 'windowOf' in to ? await windowOfTargets(s.conn, to.windowOf) : 'windowId' in to ? to.windowId : null;
  const m = await matched(s, ids, 'move tabs');
  if (m.present.length === 0) throw new DeskPilotError('every one of those tabs was closed after the snapshot; nothing was moved', 'tab_gone');
  const before = new Map(m.present.map((id) => [id, { windowId: m.tab(id).windowId, index: m.tab(id).index }]));
  const windowId = await companionMove(s.companion, m.present.map((id) => m.tab(id).id), dest, 'newWindow' in to ? -1 : (to.index ?? -1));
  return { changed: m.present.map((id) => ({ targetId: id, before: before.get(id)! })), missing: m.missing, windowId };
}

export async function placeTabs(s: TabSession, entries: ReadonlyArray<{ targetId: string; place: TabPlace }>): Promise<{ done: string[]; missing: string[] }> {
  const m = await matched(s, entries.map((e) => e.targetId), 'move tabs back');
  const present = entries.filter((e) => m.present.includes(e.targetId));
  const errors = present.length ? await companionPlace(s.companion, present.map((e) => ({ id: m.tab(e.targetId).id, windowId: e.place.windowId, index: e.place.index }))) : [];
  throwIfAllFailed(errors, 'move tabs back');
  return { done: present.filter((_, i) => !errors[i]).map((e) => e.targetId), missing: m.missing };
}

/** Addresses DeskPilot reopens: web pages, files and the browser's own pages; never script or data URLs. */
const REOPENABLE = /^(?:https?:|file:|about:|chrome:|edge:|brave:)/i;

type Opened = { targetId: string } | { error: string };

export async function openTabs(s: TabSession, tabs: readonly TabToOpen[], opts: OpenTabsWhere): Promise<Opened[]> {
  if (opts.windowId !== undefined) await requireOpenWindow(s.conn, opts.windowId);
  const out: Opened[] = tabs.map(() => ({ error: '' }));
  const allowed: number[] = [];
  for (const [i, t] of tabs.entries()) {
    if (!REOPENABLE.test(t.url)) out[i] = { error: `${clip(t.url, URL_SHOWN)} is not a web page, file or browser page, so it was not opened` };
    else {
      const refusal = await s.guard.refusal(t.url);
      if (refusal) out[i] = { error: refusalMessage(refusal) };
      else allowed.push(i);
    }
  }
  const placed = allowed.filter((i) => tabs[i]!.place);
  const companionUp = placed.length > 0 && (await s.companion.status()).ok;
  const atPlace = companionUp ? placed : [];
  const rest = allowed.filter((i) => !atPlace.includes(i));
  if (atPlace.length) await openAtPlaces(s, tabs, atPlace, out);
  if (rest.length) await openPlainly(s, tabs, rest, out, opts);
  return out;
}

/** How much of an address an error repeats. */
const URL_SHOWN = 80;

async function openAtPlaces(s: TabSession, tabs: readonly TabToOpen[], which: number[], out: Opened[]): Promise<void> {
  const created = await companionCreate(
    s.companion,
    which.map((i) => ({ windowId: tabs[i]!.place!.windowId, index: tabs[i]!.place!.index, pinned: tabs[i]!.pinned === true })),
  );
  // The new tabs' page targets: by the place the extension reports for each.
  const records = await s.records();
  const byPlace = new Map(records.map((r) => [`${r.windowId}:${r.stripIndex}`, r.pageId]));
  for (const [k, i] of which.entries()) {
    const c = created[k]!;
    if ('error' in c) {
      out[i] = { error: `Chrome refused to open ${clip(tabs[i]!.url, URL_SHOWN)}: ${c.error}` };
      continue;
    }
    const targetId = byPlace.get(`${c.windowId}:${c.index}`);
    if (!targetId) {
      out[i] = { error: `${clip(tabs[i]!.url, URL_SHOWN)} was opened blank and could not be found again to load it` };
      continue;
    }
    out[i] = await navigated(s, targetId, tabs[i]!.url);
  }
}

async function navigated(s: TabSession, targetId: string, url: string): Promise<Opened> {
  try {
    await navigateWatched(s.conn, targetId, url, s.guard);
    return { targetId };
  } catch (e) {
    return { error: errorMessage(e) };
  }
}

/**
 * Without the extension's exact places: blank background tabs in a new window, the window of
 * `windowOf`, the tab's old window (at its end) when that is still open, or the last used one —
 * each then loaded under the watch.
 */
async function openPlainly(s: TabSession, tabs: readonly TabToOpen[], which: number[], out: Opened[], opts: OpenTabsWhere): Promise<void> {
  let first = true;
  let raised: number | null = null;
  if (opts.windowOf?.length && !opts.newWindow) raised = await raiseWindow(s, { of: opts.windowOf });
  else if (opts.windowId !== undefined) raised = await raiseWindow(s, { id: opts.windowId });
  for (const i of which) {
    const newWindow = first && opts.newWindow === true;
    first = false;
    const home = tabs[i]!.place?.windowId;
    if (!newWindow && !opts.newWindow && !opts.windowOf && opts.windowId === undefined && home !== undefined && home !== raised) {
      raised = (await raiseWindow(s, { id: home }).catch(() => null)) ?? raised;
    }
    let targetId: string;
    try {
      // A new window takes the focus and so becomes the last used one: the tabs after it follow it there.
      ({ targetId } = await call(s.conn, 'Target.createTarget', newWindow ? { url: 'about:blank', newWindow: true } : { url: 'about:blank', background: true }));
    } catch (e) {
      out[i] = { error: `Chrome refused to open a tab: ${errorMessage(e)}` };
      continue;
    }
    out[i] = await navigated(s, targetId, tabs[i]!.url);
  }
}

/**
 * Makes a window Chrome's last used one — the window holding one of `of`, or window `id` — by
 * activating the tab already selected there (so which tab shows does not change): new tabs then
 * open in it. Resolves with its window id; a window that is gone is an error for `of` (the
 * destination of a move), null for `id` (an old place: the tab opens elsewhere).
 */
async function raiseWindow(s: TabSession, which: { of: readonly string[] } | { id: number }): Promise<number | null> {
  const records = await s.records();
  const windowId = 'id' in which ? which.id : records.find((r) => which.of.includes(r.pageId))?.windowId;
  const inWindow = records.filter((r) => r.windowId === windowId);
  if (windowId === undefined || inWindow.length === 0) {
    if ('id' in which) return null;
    throw new DeskPilotError('every tab of the destination window was closed after the snapshot, so the window is gone; nothing was moved', 'window_gone');
  }
  const shown = inWindow.find((r) => r.active) ?? inWindow[0]!;
  await call(s.conn, 'Target.activateTarget', { targetId: shown.pageId });
  return windowId;
}

export async function searchPageText(s: TabSession, ids: readonly string[], query: string): Promise<Map<string, string>> {
  const { targetInfos } = await call(s.conn, 'Target.getTargets', { filter: [{ type: 'page' }] });
  const pages = new Map((targetInfos as TargetInfo[]).filter((t) => t.type === 'page').map((t) => [t.targetId, t.url]));
  s.textIndex.retain(new Set(pages.keys()));
  const targets = ids.filter((id) => pages.has(id)).map((id) => ({ targetId: id, url: pages.get(id)! }));
  return s.textIndex.search(s.conn, targets, query);
}

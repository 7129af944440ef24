import type { TabInfo } from '../protocol/context';
import type { ResolvedCommand } from '../protocol/prepared-batch';
import type { CommandResult } from '../protocol/record';
import type { TabCollection } from '../protocol/tab-collection';
import type { ExecContext } from './exec-context';
import { DeskPilotError } from './errors';
import type { ChromeBackend, CloseTabsResult, TabPlace } from './ports';
import { inWindowWords, moveDestination, moveToWords } from './browser-window-target';
import { agoText } from './tab-age';
import type { TabOpType } from './tab-op-types';
import { toTabInfos } from './tab-listing';
import { TabsPartlyClosedError } from './tabs-partly-closed';
import type { UndoCollector } from './undo-collector';
import { plural, tabLabel } from './words';

// Running the tab manager's operations. Every one acts on the stable ids resolution found; a tab
// closed since is reported as gone, never replaced. Each change is noted for undo as it happens.

type Op<T extends ResolvedCommand['type']> = Extract<ResolvedCommand, { type: T }>;

const labels = (tabs: readonly TabInfo[]) => tabs.map(tabLabel).join(', ');

function byIds(tabs: readonly TabInfo[], ids: readonly string[]): TabInfo[] {
  const map = new Map(tabs.map((t) => [t.target_id, t]));
  return ids.map((id) => map.get(id)).filter((t): t is TabInfo => t !== undefined);
}

/** "Pinned tab 2 …; already gone: …" */
function sentence(done: string, tabs: readonly TabInfo[], extra: Array<[string, readonly TabInfo[]]>): string {
  const parts = [`${done} ${tabs.length ? labels(tabs) : 'no tab'}`];
  for (const [what, list] of extra) if (list.length) parts.push(`${what}: ${labels(list)}`);
  return parts.join('; ');
}

/** The tabs that were already as asked, beside the ones changed: " (the other 3 tabs were not muted)"; which ones: in `data`. */
function othersSaid(pin: boolean, want: boolean, count: number): string {
  if (count === 0) return '';
  return ` (${count === 1 ? 'the other tab was' : `the other ${count} tabs were`} ${want ? 'already' : 'not'} ${pin ? 'pinned' : 'muted'})`;
}

/** Nothing changed: "No tab was muted", "All 3 tabs were already pinned" (which tabs: in `data`). */
function nothingToFlip(pin: boolean, want: boolean, unchanged: number, gone: readonly TabInfo[]): string {
  const state = pin ? 'pinned' : 'muted';
  const said = unchanged === 0 ? 'No tab was changed' : want ? `${unchanged === 1 ? 'The tab was' : `All ${unchanged} tabs were`} already ${state}` : `No tab was ${state}`;
  return said + goneSaid(gone);
}

const goneSaid = (gone: readonly TabInfo[]) => (gone.length ? `; already gone: ${labels(gone)}` : '');

/** Closes tabs, noting each one that closed (address and place) so undo can reopen it there. */
export async function closeRecorded(chrome: ChromeBackend, tabs: readonly TabInfo[], undo: UndoCollector): Promise<CloseTabsResult> {
  const ids = tabs.map((t) => t.target_id);
  const places = await chrome.placesOf(ids).catch(() => new Map<string, TabPlace>());
  const note = (closed: readonly string[]) => {
    for (const t of byIds(tabs, closed)) {
      undo.tab({ kind: 'closed', label: tabLabel(t), url: t.url, place: placeOf(places.get(t.target_id)), pinned: t.pinned === true });
    }
  };
  try {
    const outcome = await chrome.closeTabs(ids);
    note(outcome.closed);
    return outcome;
  } catch (e) {
    if (e instanceof TabsPartlyClosedError) note(e.closed);
    throw e;
  }
}

const placeOf = (p: TabPlace | undefined) => (p ? { window_id: p.windowId, index: p.index } : null);

export async function runTabOp(cmd: Op<TabOpType>, { ports, undo }: ExecContext): Promise<CommandResult> {
  const chrome = await ports.chrome();
  switch (cmd.type) {
    case 'search_tabs':
      return searchTabs(cmd, chrome);
    case 'count_tabs_by_domain':
      return countByDomain(chrome);
    case 'reload_tabs': {
      const { done, missing } = await chrome.reloadTabs(cmd.tabs.map((t) => t.target_id), cmd.command.ignore_cache === true);
      const reloaded = byIds(cmd.tabs, done);
      if (reloaded.length) undo.cannotUndo(`reloading ${plural(reloaded.length, 'tab')}`);
      const verb = cmd.command.ignore_cache ? 'Hard-reloaded' : 'Reloaded';
      return { ok: true, message: sentence(verb, reloaded, [['already gone', byIds(cmd.tabs, missing)]]), data: { reloaded: reloaded.map((t) => t.index), already_gone: byIds(cmd.tabs, missing).map((t) => t.index) } };
    }
    case 'pin_tabs':
    case 'mute_tabs': {
      const pin = cmd.type === 'pin_tabs';
      const want = pin ? (cmd as Op<'pin_tabs'>).command.pinned : (cmd as Op<'mute_tabs'>).command.muted;
      const ids = cmd.tabs.map((t) => t.target_id);
      const { changed, missing } = pin ? await chrome.setPinned(ids, want) : await chrome.setMuted(ids, want);
      const flipped = changed.filter((c) => c.before !== want);
      for (const c of flipped) undo.tab({ kind: pin ? 'pinned' : 'muted', target_id: c.targetId, label: labelOf(cmd.tabs, c.targetId), before: c.before });
      const word = pin ? (want ? 'Pinned' : 'Unpinned') : want ? 'Muted' : 'Unmuted';
      const already = byIds(cmd.tabs, changed.filter((c) => c.before === want).map((c) => c.targetId));
      const gone = byIds(cmd.tabs, missing);
      return {
        ok: true,
        message: flipped.length
          ? `${word} ${labels(byIds(cmd.tabs, flipped.map((c) => c.targetId)))}${othersSaid(pin, want, already.length)}${goneSaid(gone)}`
          : nothingToFlip(pin, want, already.length, gone),
        data: { changed: byIds(cmd.tabs, flipped.map((c) => c.targetId)).map((t) => t.index), unchanged: already.map((t) => t.index), already_gone: byIds(cmd.tabs, missing).map((t) => t.index) },
      };
    }
    case 'group_tabs': {
      const { changed, missing, group } = await chrome.groupTabs(cmd.tabs.map((t) => t.target_id), cmd.command.title, cmd.command.color);
      for (const c of changed) {
        if (c.before?.groupId === group.groupId) continue;
        undo.tab({ kind: 'group', target_id: c.targetId, label: labelOf(cmd.tabs, c.targetId), before: groupOf(c.before) });
      }
      const grouped = byIds(cmd.tabs, changed.map((c) => c.targetId));
      return {
        ok: true,
        message: `${sentence('Grouped', grouped, [['already gone', byIds(cmd.tabs, missing)]])} as "${group.title}" (${group.color})`,
        data: { grouped: grouped.map((t) => t.index), group: { title: group.title, color: group.color }, already_gone: byIds(cmd.tabs, missing).map((t) => t.index) },
      };
    }
    case 'ungroup_tabs': {
      const { changed, missing } = await chrome.ungroupTabs(cmd.tabs.map((t) => t.target_id));
      const out = changed.filter((c) => c.before !== null);
      for (const c of out) undo.tab({ kind: 'group', target_id: c.targetId, label: labelOf(cmd.tabs, c.targetId), before: groupOf(c.before) });
      const none = byIds(cmd.tabs, changed.filter((c) => c.before === null).map((c) => c.targetId));
      return {
        ok: true,
        message: sentence('Took out of their groups:', byIds(cmd.tabs, out.map((c) => c.targetId)), [['in no group', none], ['already gone', byIds(cmd.tabs, missing)]]),
        data: { ungrouped: byIds(cmd.tabs, out.map((c) => c.targetId)).map((t) => t.index), already_gone: byIds(cmd.tabs, missing).map((t) => t.index) },
      };
    }
    case 'move_tabs':
      return moveTabs(cmd, chrome, undo);
    case 'close_duplicate_tabs': {
      const { closed, missing } = await closeRecorded(chrome, cmd.tabs, undo);
      return {
        ok: true,
        message: `${sentence('Closed duplicate', byIds(cmd.tabs, closed), [['already gone', byIds(cmd.tabs, missing)]])} (kept ${labels(cmd.kept)})`,
        data: { closed: byIds(cmd.tabs, closed).map((t) => t.index), kept: cmd.kept.map((t) => t.index), already_gone: byIds(cmd.tabs, missing).map((t) => t.index) },
      };
    }
    case 'save_tabs':
      return saveTabs(cmd, chrome, { ports, undo });
    case 'restore_tabs':
      return restoreTabs(cmd, chrome, { ports, undo });
  }
}

const labelOf = (tabs: readonly TabInfo[], id: string) => {
  const t = tabs.find((x) => x.target_id === id);
  return t ? tabLabel(t) : `tab ${id}`;
};

const groupOf = (g: { groupId: number; windowId: number; title: string; color: string } | null) =>
  g ? { group_id: g.groupId, window_id: g.windowId, title: g.title, color: g.color } : null;

const words = (q: string) => q.toLowerCase().split(/\s+/).filter(Boolean);

async function searchTabs(cmd: Op<'search_tabs'>, chrome: ChromeBackend): Promise<CommandResult> {
  // Indices and titles as they are now; last use as the snapshot had it (ages were picked at resolution).
  const fresh = toTabInfos(await chrome.listTabs());
  const now = Date.now();
  const seen = new Map((cmd.pool ?? []).map((t) => [t.target_id, t]));
  const byId = new Map<string, TabInfo>(fresh.map((t) => [t.target_id, { ...t, last_used_at: seen.get(t.target_id)?.last_used_at ?? null }]));
  // The pool keeps the order resolution gave it (oldest first for "oldest"); tabs closed since drop out.
  const pool = cmd.pool ? cmd.pool.map((t) => byId.get(t.target_id)).filter((t): t is TabInfo => t !== undefined) : [...byId.values()];
  const q = cmd.command.query;
  const excerpts = new Map<string, string>();
  let found = pool;
  if (q !== undefined) {
    const want = words(q);
    const inText = (t: TabInfo) => `${t.title} ${t.url} ${t.domain}`.toLowerCase();
    found = pool.filter((t) => want.every((w) => inText(t).includes(w)));
    if (cmd.command.page_text) {
      const rest = pool.filter((t) => !found.includes(t));
      const hits = rest.length ? await chrome.searchPageText(rest.map((t) => t.target_id), q) : new Map<string, string>();
      for (const [id, excerpt] of hits) excerpts.set(id, excerpt);
      const order = new Map(pool.map((t, i) => [t.target_id, i]));
      found = [...found, ...rest.filter((t) => hits.has(t.target_id))].sort((a, b) => order.get(a.target_id)! - order.get(b.target_id)!);
    }
  }
  const line = (t: TabInfo) => {
    const ago = agoText(t.last_used_at, now);
    const excerpt = excerpts.get(t.target_id);
    return `${tabLabel(t)}${ago ? `, used ${ago}` : ''}${excerpt ? `: "…${excerpt}…"` : ''}`;
  };
  const what = q !== undefined ? ` matching "${q}"` : '';
  const message = found.length
    ? `${plural(found.length, 'tab')}${what}: ${found.map(line).join('; ')}`
    : `No open tab${what ? what : ' fits'}${cmd.command.page_text ? ' (page text included)' : ''}`;
  return {
    ok: true,
    message,
    data: {
      tabs: found.map((t) => ({
        index: t.index,
        title: t.title,
        url: t.url,
        domain: t.domain,
        window_index: t.window_index,
        last_used_at: t.last_used_at ?? null,
        ...(excerpts.has(t.target_id) ? { excerpt: excerpts.get(t.target_id) } : {}),
        target_id: t.target_id,
      })),
    },
  };
}

async function countByDomain(chrome: ChromeBackend): Promise<CommandResult> {
  const tabs = toTabInfos(await chrome.listTabs());
  const counts = new Map<string, number[]>();
  for (const t of tabs) {
    const site = t.domain || siteOf(t.url);
    counts.set(site, [...(counts.get(site) ?? []), t.index]);
  }
  const rows = [...counts].map(([domain, idx]) => ({ domain, count: idx.length, tab_indices: idx })).sort((a, b) => b.count - a.count || a.domain.localeCompare(b.domain));
  const message = tabs.length
    ? `${plural(tabs.length, 'tab')} on ${plural(rows.length, 'site')}: ${rows.map((r) => `${r.domain} ${r.count}`).join(', ')}`
    : 'No tabs are open';
  return { ok: true, message, data: { domains: rows } };
}

/** chrome://settings → "chrome://settings", file:///… → "file", about:blank → "about:blank". */
function siteOf(url: string): string {
  try {
    const u = new URL(url);
    if (u.protocol === 'file:') return 'file';
    return u.host ? `${u.protocol}//${u.host}` : `${u.protocol}${u.pathname}`;
  } catch {
    return url || '(no address)';
  }
}

async function moveTabs(cmd: Op<'move_tabs'>, chrome: ChromeBackend, undo: UndoCollector): Promise<CommandResult> {
  const ids = cmd.tabs.map((t) => t.target_id);
  const where = moveToWords(cmd.to, cmd.command.position);
  const to = moveDestination(cmd.to, cmd.command.position);
  if (!cmd.by_reopening) {
    const { changed, missing } = await chrome.moveTabs(ids, to);
    for (const c of changed) undo.tab({ kind: 'moved', target_id: c.targetId, label: labelOf(cmd.tabs, c.targetId), before: { window_id: c.before.windowId, index: c.before.index } });
    const moved = byIds(cmd.tabs, changed.map((c) => c.targetId));
    return { ok: true, message: `${sentence('Moved', moved, [['already gone', byIds(cmd.tabs, missing)]])} to ${where}`, data: { moved: moved.map((t) => t.index), already_gone: byIds(cmd.tabs, missing).map((t) => t.index) } };
  }
  // Without the companion extension no DevTools command moves a tab: open each address there, then close the original.
  const places = await chrome.placesOf(ids);
  const present = cmd.tabs.filter((t) => places.has(t.target_id));
  const gone = cmd.tabs.filter((t) => !places.has(t.target_id));
  const outcomes = await chrome.openTabs(present.map((t) => ({ url: t.url, pinned: t.pinned === true })), 'newWindow' in to ? { newWindow: true } : 'windowId' in to ? { windowId: to.windowId } : { windowOf: to.windowOf });
  // Only a tab whose copy opened is closed: a refused address stays where it was.
  const copied = present.filter((_, i) => 'targetId' in outcomes[i]!);
  const refused = present.filter((_, i) => 'error' in outcomes[i]!);
  outcomes.forEach((o, i) => {
    if ('targetId' in o) undo.tab({ kind: 'opened', target_id: o.targetId, label: `the copy of ${tabLabel(present[i]!)}` });
  });
  const { closed } = await closeRecorded(chrome, copied, undo);
  const moved = byIds(copied, closed);
  const reasons = outcomes.flatMap((o) => ('error' in o ? [o.error] : []));
  return {
    ok: refused.length === 0,
    message:
      `${sentence('Reopened', moved, [['already gone', gone], ['not moved', refused]])} in ${where} and closed the originals (without the companion extension their back/forward history is not kept)` +
      (reasons.length ? `; ${reasons.join('; ')}` : ''),
    data: { moved: moved.map((t) => t.index), by_reopening: true, not_moved: refused.map((t) => t.index), already_gone: gone.map((t) => t.index) },
  };
}

async function saveTabs(cmd: Op<'save_tabs'>, chrome: ChromeBackend, { ports, undo }: Pick<ExecContext, 'ports' | 'undo'>): Promise<CommandResult> {
  const store = ports.tabCollections;
  if (!store) throw new DeskPilotError('saved sets of tabs are not available here (no config directory)', 'unavailable');
  // A tab caught mid-load (just reloaded) can be listed without an address: take its address as
  // it is now, and save nothing rather than a set that could never be read back.
  const live = cmd.tabs.some((t) => !t.url.trim()) ? new Map((await chrome.listTabs()).map((t) => [t.targetId, t.url])) : null;
  const tabs = cmd.tabs.map((t) => ({ url: t.url.trim() ? t.url : (live?.get(t.target_id) ?? ''), title: t.title, pinned: t.pinned === true }));
  const blank = cmd.tabs.filter((_, i) => !tabs[i]!.url.trim());
  if (blank.length) throw new DeskPilotError(`${labels(blank)} has no address yet (still loading); nothing was saved — try again in a moment`, 'failed');
  const collection: TabCollection = { name: cmd.name, saved_at: new Date().toISOString(), tabs };
  await store.save(collection);
  const saved = `Saved ${plural(cmd.tabs.length, 'tab')} as "${cmd.name}": ${labels(cmd.tabs)}`;
  if (!cmd.command.close) return { ok: true, message: saved, data: { name: cmd.name, saved: cmd.tabs.map((t) => t.index) } };
  const { closed, missing } = await closeRecorded(chrome, cmd.tabs, undo);
  const closedTabs = byIds(cmd.tabs, closed);
  return {
    ok: true,
    message: `${saved}; closed ${closedTabs.length === cmd.tabs.length ? 'them' : plural(closedTabs.length, 'of them')}${missing.length ? ` (${missing.length} ${missing.length === 1 ? 'was' : 'were'} already gone)` : ''}`,
    data: { name: cmd.name, saved: cmd.tabs.map((t) => t.index), closed: closedTabs.map((t) => t.index) },
  };
}

async function restoreTabs(cmd: Op<'restore_tabs'>, chrome: ChromeBackend, { ports, undo }: Pick<ExecContext, 'ports' | 'undo'>): Promise<CommandResult> {
  const store = ports.tabCollections;
  if (!store) throw new DeskPilotError('saved sets of tabs are not available here (no config directory)', 'unavailable');
  const collection = (await store.list()).find((c) => c.name.toLowerCase() === cmd.name.toLowerCase());
  if (!collection) throw new DeskPilotError(`the saved set "${cmd.name}" was deleted after the snapshot; nothing was opened`, 'stale');
  // A tab of the set that is open already is not opened twice, unless duplicates were asked for.
  const open = cmd.command.duplicates ? new Set<string>() : new Set((await chrome.listTabs()).map((t) => t.url));
  const toOpen = collection.tabs.filter((t) => !open.has(t.url));
  const skipped = collection.tabs.length - toOpen.length;
  const where = cmd.command.browser_window_id !== undefined ? { windowId: cmd.command.browser_window_id } : { newWindow: cmd.command.new_window === true };
  const outcomes = toOpen.length ? await chrome.openTabs(toOpen.map((t) => ({ url: t.url, pinned: t.pinned })), where) : [];
  const opened: string[] = [];
  const refused: string[] = [];
  outcomes.forEach((o, i) => {
    const saved = toOpen[i]!;
    if ('targetId' in o) {
      opened.push(o.targetId);
      undo.tab({ kind: 'opened', target_id: o.targetId, label: `"${saved.title || saved.url}"` });
    } else refused.push(o.error);
  });
  return {
    ok: refused.length === 0,
    message: `Reopened ${plural(opened.length, 'tab')} from "${collection.name}"${opened.length ? inWindowWords(cmd.command) : ''}${skipped ? `; ${skipped} already open, skipped` : ''}${refused.length ? `; not opened: ${refused.join('; ')}` : ''}`,
    data: { name: collection.name, opened: opened.length, skipped_open: skipped, target_ids: opened, not_opened: refused },
  };
}

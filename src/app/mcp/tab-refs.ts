import type { ContextSnapshot, TabInfo } from '../../protocol/context';
import type { McpContext } from './define-tool';
import { SNAPSHOT_TTL_MS } from './snapshot-store';
import { tabBrief, tabData } from './tab-text';
import { ToolError } from './tool-error';

// A tab named by a client is a tab of a snapshot it fetched: an index together with that
// snapshot's id, or the tab's stable id. Either way it becomes the tab's stable id: a tab
// that moved since is still found; a tab that is gone is refused as stale, with the current
// tabs that look like it — never replaced by whichever tab now sits at the old index.

export interface TabRefs {
  snapshotId?: string;
  indices?: number[];
  ids?: string[];
}

const MAX_CANDIDATES = 5;

/**
 * The referenced tabs as they are now: in a fresh snapshot (in the order given), with that
 * snapshot — for closing, where the user is shown exactly what is open. `notDone`: e.g. "nothing was closed".
 */
export async function resolveTabRefs(ctx: McpContext, refs: TabRefs, notDone: string): Promise<{ snapshot: ContextSnapshot; tabs: TabInfo[] }> {
  const wanted = referencedTabs(ctx, refs);
  const fresh = await freshTabs(ctx, notDone);
  const byId = new Map(fresh.tabs.map((t) => [t.target_id, t]));
  const gone = wanted.filter((w) => !byId.has(w.target_id));
  if (gone.length) throw staleError(gone, fresh, ctx.snapshots.put(fresh), notDone);
  return { snapshot: fresh, tabs: wanted.map((w) => byId.get(w.target_id)!) };
}

/**
 * One referenced tab in the snapshot it was read from — no fresh snapshot needed, since the
 * engine acts on the tab's stable id and reports it gone (then see `staleError`). null: a tab
 * id no kept snapshot has, which only the desk as it is now can answer.
 */
export function tabAsSeen(ctx: McpContext, refs: TabRefs): { snapshot: ContextSnapshot; tab: TabInfo } | null {
  if (refs.ids?.length === 1 && !refs.indices?.length) return ctx.snapshots.findTab(refs.ids[0]!) ?? null;
  const [tab] = referencedTabs(ctx, refs) as TabInfo[];
  return { snapshot: ctx.snapshots.get(refs.snapshotId!)!, tab: tab! };
}

/** The error for a tab found gone while acting on it: with the tabs open now that look like it. */
export async function goneError(ctx: McpContext, tab: TabInfo, notDone: string): Promise<ToolError> {
  const fresh = await freshTabs(ctx, notDone);
  return staleError([tab], fresh, ctx.snapshots.put(fresh), notDone);
}

async function freshTabs(ctx: McpContext, notDone: string): Promise<ContextSnapshot> {
  const fresh = await ctx.desk.snapshot({ summaries: false });
  if (!fresh.sources.chrome.ok) throw new ToolError(`Chrome is unavailable, so ${notDone}. ${fresh.sources.chrome.message}`, 'unavailable');
  return fresh;
}

/** What the client meant, as tabs of the snapshot it read them from. */
function referencedTabs(ctx: McpContext, refs: TabRefs): Array<Pick<TabInfo, 'target_id'> & Partial<TabInfo>> {
  const hasIndices = refs.indices !== undefined && refs.indices.length > 0;
  const hasIds = refs.ids !== undefined && refs.ids.length > 0;
  if (hasIndices && hasIds) throw new ToolError('Give tab indices (with snapshot_id) or tab ids, not both.', 'invalid_argument');
  if (hasIds) return refs.ids!.map((id) => ctx.snapshots.findTab(id)?.tab ?? { target_id: id });
  if (!hasIndices) throw new ToolError('Name the tab: a tab index with the snapshot_id it came from (call list_tabs or desktop_snapshot), or its tab id.', 'invalid_argument');
  if (!refs.snapshotId) {
    throw new ToolError(
      'snapshot_id is missing: a tab index means something only in the snapshot it came from. Pass the snapshot_id that list_tabs or desktop_snapshot returned with it, or the tab id.',
      'invalid_argument',
    );
  }
  const snap = ctx.snapshots.get(refs.snapshotId);
  const owner = snap ? undefined : ctx.snapshots.ownerElsewhere(refs.snapshotId);
  if (owner !== undefined) {
    const name = owner ? `device: "${owner.name}"` : 'no device (this computer)';
    throw new ToolError(`snapshot_id "${refs.snapshotId}" is a snapshot of ${owner ? `"${owner.name}"` : 'this computer'}, not of the device this call names: pass ${name} with it.`, 'invalid_argument');
  }
  if (!snap) {
    throw new ToolError(
      `snapshot_id "${refs.snapshotId}" is unknown or expired (snapshots are kept ${SNAPSHOT_TTL_MS / 60_000} minutes). Call list_tabs for a fresh snapshot_id and indices.`,
      'snapshot_unknown',
    );
  }
  const out: TabInfo[] = [];
  const missing: number[] = [];
  for (const index of refs.indices!) {
    const tab = snap.tabs.find((t) => t.index === index);
    if (tab) out.push(tab);
    else missing.push(index);
  }
  if (missing.length) {
    const range = snap.tabs.length ? `its tabs are 1–${snap.tabs.length}` : 'it has no tabs';
    throw new ToolError(`Nothing was done: snapshot ${refs.snapshotId} has no tab ${missing.join(', ')} (${range}).`, 'invalid_argument');
  }
  return out;
}

function staleError(gone: Array<Partial<TabInfo> & { target_id: string }>, fresh: ContextSnapshot, freshId: string, notDone: string): ToolError {
  const described = gone.map((g) => (g.index !== undefined ? tabBrief(g as TabInfo) : `tab id ${g.target_id}`));
  const candidates = uniqueTabs(gone.flatMap((g) => lookalikes(g, fresh.tabs))).slice(0, MAX_CANDIDATES);
  const next = candidates.length
    ? `Open tabs like it in snapshot ${freshId}: ${candidates.map(tabBrief).join('; ')}. To act on one, use snapshot_id "${freshId}" with its index.`
    : `No open tab has the same title or site; call list_tabs to see what is open (snapshot ${freshId} is current).`;
  return new ToolError(`Stale: ${described.join(', ')} ${gone.length === 1 ? 'is' : 'are'} no longer open, so ${notDone}. ${next}`, 'stale', {
    gone: gone.map((g) => ({ ...(g.index !== undefined ? { index: g.index, title: g.title, url: g.url } : {}), tab_id: g.target_id })),
    snapshot_id: freshId,
    candidates: candidates.map(tabData),
  });
}

/**
 * Open tabs the vanished one may have become: those with its address or title; only when
 * there are none, those on its site.
 */
function lookalikes(old: Partial<TabInfo>, tabs: readonly TabInfo[]): TabInfo[] {
  const lower = (s: string | undefined) => (s ?? '').toLowerCase();
  const score = (t: TabInfo) => (old.url && t.url === old.url ? 3 : old.title && lower(t.title) === lower(old.title) ? 2 : old.domain && t.domain === old.domain ? 1 : 0);
  const scored = tabs.map((t) => ({ t, s: score(t) })).filter((x) => x.s > 0);
  const floor = scored.some((x) => x.s >= 2) ? 2 : 1;
  return scored
    .filter((x) => x.s >= floor)
    .sort((a, b) => b.s - a.s || a.t.index - b.t.index)
    .map((x) => x.t);
}

const uniqueTabs = (tabs: TabInfo[]) => [...new Map(tabs.map((t) => [t.target_id, t])).values()];

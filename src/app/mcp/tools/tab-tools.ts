import { z } from 'zod';
import { closestNames } from '../../../engine/closest-names';
import { MAX_SEARCH_LENGTH, MAX_URL_LENGTH } from '../../../protocol/commands';
import type { ContextSnapshot } from '../../../protocol/context';
import { gated } from '../confirm-gate';
import { defineTool, type McpContext } from '../define-tool';
import { ages, confirmFields, snapshotId, summaries, tabId, tabIndex, tabIndices, text } from '../fields';
import { batchOf, reportOutput } from '../report-output';
import { goneError, resolveTabRefs, tabAsSeen } from '../tab-refs';
import { TabListOutput, TabSearchOutput } from '../read-shapes';
import { tabRow, tabsSummary, tabsText } from '../tab-text';
import { ToolError } from '../tool-error';
import { browserWindowInput, listedWindowInput, windowFields } from '../browser-window-input';

// Chrome tabs: list and search (each answer is a snapshot with an id), switch, open, close.
// search_tabs is the one search (words, page text, age); find_tabs was its older twin.

async function tabSnapshot(ctx: McpContext, withSummaries: boolean | undefined): Promise<{ snap: ContextSnapshot; id: string }> {
  const snap = await ctx.desk.snapshot({ summaries: withSummaries ?? false });
  if (!snap.sources.chrome.ok) throw new ToolError(`Chrome is unavailable: ${snap.sources.chrome.message}`, 'unavailable');
  return { snap, id: ctx.snapshots.put(snap) };
}

const details = {
  urls: z.boolean({ error: 'must be true or false' }).optional().describe('Also give each tab\'s full address (url). Default false: the site only.'),
  ids: z.boolean({ error: 'must be true or false' }).optional().describe('Also give each tab\'s stable id (id), for tab_ids. Default false: i with snapshot_id names a tab.'),
};

export const listTabs = defineTool({
  name: 'list_tabs',
  title: 'List Chrome tabs',
  description:
    'List every open Chrome tab: i (index), w (window), title, site, and active/pinned/muted/group when set. ' +
    'Returns a snapshot_id: pass it with these indices to the tools that act on tabs (switch_tab, close_tabs, …).',
  input: { summaries, ...details },
  output: TabListOutput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async handler(args, { ctx }) {
    const { snap, id } = await tabSnapshot(ctx, args.summaries);
    return { text: [tabsSummary(id, snap.tabs, snap.tabs), tabsText(snap.tabs)].filter(Boolean).join('\n'), data: { snapshot_id: id, tabs: snap.tabs.map((t) => tabRow(t, args)) } };
  },
});

export const searchTabs = defineTool({
  name: 'search_tabs',
  title: 'Search Chrome tabs',
  description:
    'Find open tabs whose title, address or site holds every word of query (page_text: true also searches the text of the pages), ' +
    'and/or by age: oldest N, unused_for_hours, unused_today. Returns the matches (as list_tabs does, with when each was last used) and a snapshot_id for their indices.',
  input: {
    query: text(MAX_SEARCH_LENGTH).optional().describe('Words to look for, e.g. "invoice" or "pull request".'),
    page_text: z.boolean({ error: 'must be true or false' }).optional().describe('Also look in the text of the pages (slower the first time).'),
    ...ages,
    ...details,
  },
  output: TabSearchOutput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async handler(args, { ctx }) {
    const { snap, id } = await tabSnapshot(ctx, false);
    const { urls, ids, ...search } = args;
    if (Object.values(search).every((v) => v === undefined || v === false)) throw new ToolError('Nothing was searched: give query and/or an age (oldest, unused_for_hours, unused_today); list_tabs lists every tab.', 'invalid_argument');
    const out = reportOutput(await ctx.desk.exec({ type: 'search_tabs', ...search }, { snapshot: snap }));
    // Indices as the snapshot handed out numbers them (a tab opened since has none there).
    const hits = ((out.data as { results: Array<{ data?: { tabs?: Array<{ target_id: string; excerpt?: string }> } }> }).results[0]?.data?.tabs ?? []).flatMap((f) => {
      const t = snap.tabs.find((x) => x.target_id === f.target_id);
      return t ? [{ tab: t, excerpt: f.excerpt }] : [];
    });
    const byAge = args.oldest !== undefined || args.unused_for_hours !== undefined || args.unused_today === true;
    const rows = hits.map((h) => ({ ...tabRow(h.tab, { urls, ids }), ...(byAge ? { used: h.tab.last_used_at ?? null } : {}), ...(h.excerpt ? { excerpt: h.excerpt } : {}) }));
    const found = hits.map((h) => h.tab);
    const summary = tabsSummary(id, found, snap.tabs, args.query ? `match "${args.query}"` : 'found');
    // The same lines as list_tabs, with when each was last used (by age) and where the page text matched.
    const lines = hits.map((h) => `${tabsText([h.tab])}${byAge ? ` — used ${h.tab.last_used_at ?? 'not known'}` : ''}${h.excerpt ? ` — "…${h.excerpt}…"` : ''}`);
    if (found.length || !args.query) return { text: [summary, ...lines].join('\n'), data: { snapshot_id: id, total: snap.tabs.length, tabs: rows } };
    const near = closestNames(args.query, [...new Set(snap.tabs.flatMap((t) => [t.title, t.domain]).filter(Boolean))], 5);
    const hint = near.length ? ` Closest titles or sites: ${near.map((n) => `"${n}"`).join(', ')}.` : ' Call list_tabs to see every tab.';
    return { text: `${summary}\nNo tab matches "${args.query}".${hint}`, data: { snapshot_id: id, total: snap.tabs.length, tabs: [] } };
  },
});

export const switchTab = defineTool({
  name: 'switch_tab',
  title: 'Switch to a Chrome tab',
  description:
    'Show an open Chrome tab and raise its window. Name it by tab_index plus the snapshot_id it came from, or by tab_id. ' +
    'A tab closed since that snapshot is refused as stale, with the current tabs that look like it.',
  input: {
    snapshot_id: snapshotId.optional(),
    tab_index: tabIndex.optional().describe('The tab\'s index in that snapshot (1-based, across all windows).'),
    tab_id: tabId.optional().describe('Instead of snapshot_id + tab_index: the tab\'s id (id in list_tabs with ids: true; stable while the tab is open).'),
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async handler(args, { ctx }) {
    const refs = { snapshotId: args.snapshot_id, indices: args.tab_index === undefined ? undefined : [args.tab_index], ids: args.tab_id === undefined ? undefined : [args.tab_id] };
    const notDone = 'nothing was switched';
    // Resolved in the snapshot the client read (one call to the desk); a tab id no snapshot here had, in the desk as it is now.
    let seen = tabAsSeen(ctx, refs);
    if (!seen) {
      const now = await resolveTabRefs(ctx, refs, notDone);
      seen = { snapshot: now.snapshot, tab: now.tabs[0]! };
    }
    const { snapshot, tab } = seen;
    const report = await ctx.desk.exec({ type: 'switch_tab', tab_index: tab.index }, { snapshot });
    if (report.results[0]?.code === 'tab_gone') throw await goneError(ctx, tab, notDone);
    return reportOutput(report);
  },
});

export const openUrl = defineTool({
  name: 'open_url',
  title: 'Open a URL in a new tab',
  description:
    'Open a web address in a new Chrome tab. Site names are completed ("chatgpt" → https://chatgpt.com). ' +
    'Only http(s) addresses; use switch_tab when a tab for the site is already open. Default: Chrome\'s most recent window; ' +
    'new_window: true, browser_window_id, or window (w in list_tabs, with its snapshot_id) puts it elsewhere.',
  input: {
    url: text(MAX_URL_LENGTH).describe('The address or site name, e.g. "https://github.com/notifications" or "github".'),
    ...browserWindowInput,
    ...listedWindowInput,
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  async handler(args, { ctx }) {
    return reportOutput(await ctx.desk.exec({ type: 'open_url', url: args.url, ...windowFields(args, ctx) }));
  },
});

export const closeTabs = defineTool({
  name: 'close_tabs',
  title: 'Close Chrome tabs',
  description:
    'Close open Chrome tabs, named by tab_indices plus the snapshot_id they came from, or by tab_ids. ' +
    "Asks the user first (unless they turned that off); when this client cannot ask, it answers with exactly what would close and a confirm_token — ask the user, then call again with the same arguments and that confirm_token. " +
    'A tab closed since the snapshot is refused as stale; nothing closes then.',
  input: {
    snapshot_id: snapshotId.optional(),
    tab_indices: tabIndices.optional().describe('The tabs\' indices in that snapshot (1-based, across all windows), each once.'),
    tab_ids: z
      .array(tabId, { error: 'must be an array of tab ids' })
      .min(1, { error: 'must list at least one tab id' })
      .max(500, { error: 'must list at most 500 tab ids' })
      .optional()
      .describe('Instead of snapshot_id + tab_indices: tab ids (id in list_tabs or search_tabs with ids: true).'),
    ...confirmFields,
  },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async handler(args, call) {
    const { ctx } = call;
    const dupes = [...(args.tab_indices ?? []), ...(args.tab_ids ?? [])].filter((v, i, all) => all.indexOf(v) !== i);
    if (dupes.length) throw new ToolError(`Nothing was done: ${dupes.map((d) => JSON.stringify(d)).join(', ')} listed twice; name each tab once.`, 'invalid_argument');
    return gated(call, {
      tool: 'close_tabs',
      args,
      prepare: async () => {
        const { snapshot, tabs } = await resolveTabRefs(ctx, { snapshotId: args.snapshot_id, indices: args.tab_indices, ids: args.tab_ids }, 'nothing was closed');
        return { batch: batchOf(await ctx.desk.prepare({ type: 'close_tab', tab_indices: tabs.map((t) => t.index) }, { snapshot })) };
      },
    });
  },
});

export const TAB_TOOLS = [listTabs, searchTabs, switchTab, openUrl, closeTabs];

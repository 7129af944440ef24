import { z } from 'zod';
import { closestNames } from '../../../engine/closest-names';
import { MAX_URL_LENGTH } from '../../../protocol/commands';
import type { ContextSnapshot, TabInfo } from '../../../protocol/context';
import { confirmGate } from '../confirm-gate';
import { defineTool, type McpContext } from '../define-tool';
import { confirm, snapshotId, summaries, tabId, tabIndex, tabIndices, text } from '../fields';
import { batchOf, reportOutput } from '../report-output';
import { goneError, resolveTabRefs, tabAsSeen } from '../tab-refs';
import { snapshotHeader, tabData, tabsText } from '../tab-text';
import { ToolError } from '../tool-error';

// Chrome tabs: list and search (each answer is a snapshot with an id), switch, open, close.

async function tabSnapshot(ctx: McpContext, withSummaries: boolean | undefined): Promise<{ snap: ContextSnapshot; id: string }> {
  const snap = await ctx.desk.snapshot({ summaries: withSummaries ?? false });
  if (!snap.sources.chrome.ok) throw new ToolError(`Chrome is unavailable: ${snap.sources.chrome.message}`, 'unavailable');
  return { snap, id: ctx.snapshots.put(snap) };
}

const windowsOf = (tabs: readonly TabInfo[]) => new Set(tabs.map((t) => t.window_index)).size;
const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export const listTabs = defineTool({
  name: 'list_tabs',
  title: 'List Chrome tabs',
  description:
    'List every open Chrome tab: index, * if active in its window, w<n> window, site, "title". ' +
    'Returns a snapshot_id: pass it with these indices to switch_tab or close_tabs.',
  input: { summaries },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async handler(args, { ctx }) {
    const { snap, id } = await tabSnapshot(ctx, args.summaries);
    const head = snapshotHeader(id, `${count(snap.tabs.length, 'tab')} in ${count(windowsOf(snap.tabs), 'window')}`);
    return { text: [head, tabsText(snap.tabs)].filter(Boolean).join('\n'), data: { snapshot_id: id, tabs: snap.tabs.map(tabData) } };
  },
});

/** Every word of the query in the title, address or summary, case-insensitively. */
function matches(tab: TabInfo, words: string[]): boolean {
  const hay = `${tab.title} ${tab.url} ${tab.content_summary ?? ''}`.toLowerCase();
  return words.every((w) => hay.includes(w));
}

export const searchTabs = defineTool({
  name: 'search_tabs',
  title: 'Search Chrome tabs',
  description:
    'Find open Chrome tabs whose title or address (and summary, with summaries: true) contains every word of the query. ' +
    'Returns the matches with a snapshot_id to use with their indices.',
  input: {
    query: text(200).describe('Words to look for, e.g. "reddit" or "pull request".'),
    summaries,
  },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async handler(args, { ctx }) {
    const { snap, id } = await tabSnapshot(ctx, args.summaries);
    const words = args.query.toLowerCase().split(/\s+/).filter(Boolean);
    const found = snap.tabs.filter((t) => matches(t, words));
    if (!found.length) {
      const near = closestNames(args.query, [...new Set(snap.tabs.flatMap((t) => [t.title, t.domain]).filter(Boolean))], 5);
      const hint = near.length ? ` Closest titles or sites: ${near.map((n) => `"${n}"`).join(', ')}.` : ' Call list_tabs to see every tab.';
      return { text: `${snapshotHeader(id, `${count(snap.tabs.length, 'tab')} open`)}\nNo tab matches "${args.query}".${hint}`, data: { snapshot_id: id, query: args.query, tabs: [] } };
    }
    const head = snapshotHeader(id, `${count(found.length, 'tab')} of ${snap.tabs.length} match "${args.query}"`);
    return { text: `${head}\n${tabsText(found)}`, data: { snapshot_id: id, query: args.query, tabs: found.map(tabData) } };
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
    tab_id: tabId.optional().describe('Instead of snapshot_id + tab_index: the tab_id from a snapshot (stable while the tab is open).'),
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
    'Only http(s) addresses; use switch_tab when a tab for the site is already open.',
  input: {
    url: text(MAX_URL_LENGTH).describe('The address or site name, e.g. "https://github.com/notifications" or "github".'),
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  async handler(args, { ctx }) {
    return reportOutput(await ctx.desk.exec({ type: 'open_url', url: args.url }));
  },
});

export const closeTabs = defineTool({
  name: 'close_tabs',
  title: 'Close Chrome tabs',
  description:
    'Close open Chrome tabs, named by tab_indices plus the snapshot_id they came from, or by tab_ids. ' +
    "Asks the user first (unless they turned that off); when this client cannot ask, it refuses and says what to ask — then call again with confirm: true. " +
    'A tab closed since the snapshot is refused as stale; nothing closes then.',
  input: {
    snapshot_id: snapshotId.optional(),
    tab_indices: tabIndices.optional().describe('The tabs\' indices in that snapshot (1-based, across all windows), each once.'),
    tab_ids: z
      .array(tabId, { error: 'must be an array of tab ids' })
      .min(1, { error: 'must list at least one tab id' })
      .max(500, { error: 'must list at most 500 tab ids' })
      .optional()
      .describe('Instead of snapshot_id + tab_indices: tab_ids from a snapshot.'),
    confirm,
  },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async handler(args, call) {
    const { ctx } = call;
    const dupes = [...(args.tab_indices ?? []), ...(args.tab_ids ?? [])].filter((v, i, all) => all.indexOf(v) !== i);
    if (dupes.length) throw new ToolError(`Nothing was done: ${dupes.map((d) => JSON.stringify(d)).join(', ')} listed twice; name each tab once.`, 'invalid_argument');
    const { snapshot, tabs } = await resolveTabRefs(ctx, { snapshotId: args.snapshot_id, indices: args.tab_indices, ids: args.tab_ids }, 'nothing was closed');
    const batch = batchOf(await ctx.desk.prepare({ type: 'close_tab', tab_indices: tabs.map((t) => t.index) }, { snapshot }));
    const held = await confirmGate(batch, call, args.confirm === true, 'call close_tabs again with the same arguments and confirm: true');
    return held ?? reportOutput(await ctx.desk.run(batch));
  },
});

export const TAB_TOOLS = [listTabs, searchTabs, switchTab, openUrl, closeTabs];

import { z } from 'zod';
import { MAX_NAME_LENGTH, MAX_TAB_INDICES, TabGroupColor } from '../../../protocol/commands';
import type { TabInfo } from '../../../protocol/context';
import { gated } from '../confirm-gate';
import { defineTool, type McpContext, type ToolCall } from '../define-tool';
import { ages, confirmFields, snapshotId, tabId, tabIndices, text } from '../fields';
import { batchOf, reportOutput } from '../report-output';
import { resolveTabRefs } from '../tab-refs';
import { SiteCountOutput } from '../read-shapes';
import { ToolError } from '../tool-error';
import { browserWindowInput, listedWindowInput, windowFields } from '../browser-window-input';

// The tab manager (search_tabs, in tab-tools.ts, finds tabs by words, page text or age): count them per site; reload, pin,
// mute, group, move; close duplicates; save sets of tabs and reopen them. Tabs are named like
// close_tabs names them (indices with their snapshot_id, or tab ids); each call is one command
// of the exec protocol, validated and resolved by the engine. Pin, mute and group need the
// DeskPilot companion extension in Chrome; without it the error says how to add it.

const tabRefs = {
  snapshot_id: snapshotId.optional(),
  tab_indices: tabIndices.optional().describe('The tabs\' indices in that snapshot (1-based, across all windows), each once.'),
  tab_ids: z
    .array(tabId, { error: 'must be an array of tab ids' })
    .min(1, { error: 'must list at least one tab id' })
    .max(MAX_TAB_INDICES, { error: `must list at most ${MAX_TAB_INDICES} tab ids` })
    .optional()
    .describe('Instead of snapshot_id + tab_indices: tab ids (id in list_tabs or search_tabs with ids: true).'),
};
type Refs = { snapshot_id?: string; tab_indices?: number[]; tab_ids?: string[] };

type Ages = { unused_for_hours?: number; unused_today?: boolean; oldest?: number };
const ageFields = (a: Ages) => ({
  ...(a.unused_for_hours !== undefined ? { unused_for_hours: a.unused_for_hours } : {}),
  ...(a.unused_today ? { unused_today: true as const } : {}),
  ...(a.oldest !== undefined ? { oldest: a.oldest } : {}),
});

const rw = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

/** Runs one tab command on the named tabs, as they are now (a tab closed since is refused as stale). */
async function onTabs(ctx: McpContext, refs: Refs, notDone: string, command: (tabs: TabInfo[]) => Record<string, unknown>) {
  const { snapshot, tabs } = await resolveTabRefs(ctx, { snapshotId: refs.snapshot_id, indices: refs.tab_indices, ids: refs.tab_ids }, notDone);
  return reportOutput(await ctx.desk.exec(command(tabs), { snapshot }));
}

/** The same, for a command that may close tabs: it waits for the user's yes like close_tabs. */
async function onTabsAsking(call: ToolCall, tool: string, args: Refs & Record<string, unknown>, byRefs: boolean, notDone: string, command: (tabs: TabInfo[]) => Record<string, unknown>) {
  const { ctx } = call;
  return gated(call, {
    tool,
    args,
    prepare: async () => {
      const { snapshot, tabs } = byRefs
        ? await resolveTabRefs(ctx, { snapshotId: args.snapshot_id, indices: args.tab_indices, ids: args.tab_ids }, notDone)
        : { snapshot: await ctx.desk.snapshot({ summaries: false }), tabs: [] };
      return { batch: batchOf(await ctx.desk.prepare(command(tabs), { snapshot })) };
    },
  });
}

const indicesOf = (tabs: TabInfo[]) => tabs.map((t) => t.index);

export const countTabsByDomain = defineTool({
  name: 'count_tabs_by_domain',
  title: 'Count Chrome tabs per site',
  description: 'How many tabs are open per site (registrable domain), most first, with their indices.',
  input: {},
  output: SiteCountOutput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async handler(_args, { ctx }) {
    const out = reportOutput(await ctx.desk.exec({ type: 'count_tabs_by_domain' }));
    const domains = ((out.data.results as Array<{ data?: { domains?: Array<{ domain: string; count: number; tab_indices: number[] }> } }>)[0]?.data?.domains ?? []);
    const sites = domains.map((d) => ({ site: d.domain, n: d.count, i: d.tab_indices }));
    return { text: out.text, data: { total: sites.reduce((n, s) => n + s.n, 0), sites } };
  },
});

export const reloadTabs = defineTool({
  name: 'reload_tabs',
  title: 'Reload Chrome tabs',
  description: 'Reload tabs, named by tab_indices with their snapshot_id, or by tab_ids. ignore_cache: true for a hard reload.',
  input: { ...tabRefs, ignore_cache: z.boolean({ error: 'must be true or false' }).optional().describe('Bypass the cache (a hard reload).') },
  annotations: { ...rw, idempotentHint: false },
  async handler(args, { ctx }) {
    return onTabs(ctx, args, 'nothing was reloaded', (tabs) => ({ type: 'reload_tabs', tab_indices: indicesOf(tabs), ...(args.ignore_cache ? { ignore_cache: true } : {}) }));
  },
});

export const pinTabs = defineTool({
  name: 'pin_tabs',
  title: 'Pin or unpin Chrome tabs',
  description: 'Pin (pinned: true) or unpin (false) tabs. Needs the DeskPilot companion extension in Chrome; undo puts them back.',
  input: { ...tabRefs, pinned: z.boolean({ error: 'must be true or false' }).describe('true pins, false unpins.') },
  annotations: rw,
  async handler(args, { ctx }) {
    return onTabs(ctx, args, 'nothing was pinned', (tabs) => ({ type: 'pin_tabs', tab_indices: indicesOf(tabs), pinned: args.pinned }));
  },
});

export const muteTabs = defineTool({
  name: 'mute_tabs',
  title: 'Mute or unmute Chrome tabs',
  description: 'Mute (muted: true) or unmute (false) tabs. Needs the DeskPilot companion extension in Chrome; undo puts them back.',
  input: { ...tabRefs, muted: z.boolean({ error: 'must be true or false' }).describe('true mutes, false unmutes.') },
  annotations: rw,
  async handler(args, { ctx }) {
    return onTabs(ctx, args, 'nothing was muted', (tabs) => ({ type: 'mute_tabs', tab_indices: indicesOf(tabs), muted: args.muted }));
  },
});

export const groupTabs = defineTool({
  name: 'group_tabs',
  title: 'Group Chrome tabs',
  description: 'Put tabs in a tab group with this title (and colour) in the first tab\'s window; a group of that title there is reused. Needs the DeskPilot companion extension.',
  input: { ...tabRefs, title: text(MAX_NAME_LENGTH).describe('The group\'s title, e.g. "Work".'), color: TabGroupColor.optional() },
  annotations: rw,
  async handler(args, { ctx }) {
    return onTabs(ctx, args, 'nothing was grouped', (tabs) => ({ type: 'group_tabs', tab_indices: indicesOf(tabs), title: args.title, ...(args.color ? { color: args.color } : {}) }));
  },
});

export const ungroupTabs = defineTool({
  name: 'ungroup_tabs',
  title: 'Ungroup Chrome tabs',
  description: 'Take tabs out of their tab groups. Needs the DeskPilot companion extension.',
  input: tabRefs,
  annotations: rw,
  async handler(args, { ctx }) {
    return onTabs(ctx, args, 'nothing was ungrouped', (tabs) => ({ type: 'ungroup_tabs', tab_indices: indicesOf(tabs) }));
  },
});

export const moveTabs = defineTool({
  name: 'move_tabs',
  title: 'Move Chrome tabs to another window',
  description:
    'Move tabs to Chrome window window_index (w<n> in list_tabs) or browser_window_id, at position (1 = first; default the end), or to a new ' +
    'window (new_window: true). Without the companion extension the tabs are reopened there and closed here (history lost, no position), ' +
    'which asks the user first like closing.',
  input: {
    ...tabRefs,
    window_index: z.number({ error: 'must be a positive integer' }).int().min(1).max(100).optional().describe('The destination window.'),
    ...browserWindowInput,
    position: z.number({ error: 'must be a positive integer' }).int().min(1).max(500).optional().describe('1 = first in the destination window (default: last).'),
    ...confirmFields,
  },
  annotations: { ...rw, idempotentHint: false },
  async handler(args, call) {
    const where = windowFields(args);
    if ((args.window_index === undefined) === (Object.keys(where).length === 0)) {
      throw new ToolError('Give exactly one of window_index, browser_window_id or new_window: true.', 'invalid_argument');
    }
    return onTabsAsking(call, 'move_tabs', args, true, 'nothing was moved', (tabs) => ({
      type: 'move_tabs',
      tab_indices: indicesOf(tabs),
      ...(args.window_index !== undefined ? { window_index: args.window_index } : where),
      ...(args.position !== undefined ? { position: args.position } : {}),
    }));
  },
});

export const closeDuplicateTabs = defineTool({
  name: 'close_duplicate_tabs',
  title: 'Close duplicate Chrome tabs',
  description: 'Close tabs that show the same address as another open tab, keeping the active (else most recently used) one of each. Asks the user first like close_tabs.',
  input: { ...confirmFields },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async handler(args, call) {
    return onTabsAsking(call, 'close_duplicate_tabs', args, false, 'nothing was closed', () => ({ type: 'close_duplicate_tabs' }));
  },
});

export const saveTabs = defineTool({
  name: 'save_tabs',
  title: 'Save Chrome tabs as a named set',
  description:
    'Save tabs (by indices/ids, and/or by age) as a named set in DeskPilot\'s config dir, to reopen with restore_tabs; close: true closes them ' +
    'afterwards (asked first like close_tabs). A set of the same name is replaced.',
  input: { ...tabRefs, ...ages, name: text(MAX_NAME_LENGTH).describe('The set\'s name, e.g. "research".'), close: z.boolean().optional().describe('Close the tabs once saved.'), ...confirmFields },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  async handler(args, call) {
    const named = args.tab_indices !== undefined || args.tab_ids !== undefined;
    if (!named && args.unused_for_hours === undefined && !args.unused_today && args.oldest === undefined) {
      throw new ToolError('Name the tabs (tab_indices with snapshot_id, or tab_ids) or pick them by age.', 'invalid_argument');
    }
    return onTabsAsking(call, 'save_tabs', args, named, 'nothing was saved', (tabs) => ({
      type: 'save_tabs',
      name: args.name,
      ...(named ? { tab_indices: indicesOf(tabs) } : {}),
      ...ageFields(args),
      ...(args.close ? { close: true } : {}),
    }));
  },
});

export const restoreTabs = defineTool({
  name: 'restore_tabs',
  title: 'Reopen a saved set of tabs',
  description:
    'Reopen the tabs of a set saved with save_tabs (the set stays saved); tabs already open are skipped (the result says how many) unless duplicates: true; ' +
    'new_window: true opens them in a new window, browser_window_id or window (w in list_tabs, with its snapshot_id) in that window. ' +
    'desktop_snapshot lists the sets (tab_collections).',
  input: {
    name: text(MAX_NAME_LENGTH).describe('The saved set\'s name.'),
    ...browserWindowInput,
    ...listedWindowInput,
    duplicates: z.boolean().optional().describe('Also open the tabs that are open already.'),
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  async handler(args, { ctx }) {
    return reportOutput(await ctx.desk.exec({ type: 'restore_tabs', name: args.name, ...windowFields(args, ctx), ...(args.duplicates ? { duplicates: true } : {}) }));
  },
});

export const TAB_MANAGER_TOOLS = [countTabsByDomain, reloadTabs, pinTabs, muteTabs, groupTabs, ungroupTabs, moveTabs, closeDuplicateTabs, saveTabs, restoreTabs];

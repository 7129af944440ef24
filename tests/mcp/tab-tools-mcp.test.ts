import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { describeDesktop } from '../support/describe-desktop';
import { startDesktop, type Desktop } from '../support/desktop';
import { RawCdp } from '../support/raw-cdp';
import { waitFor } from '../support/wait-for';
import { COMPANION_DIR, CompanionView } from '../tabs/companion-view';
import { dataOf, stdioClient, textOf, tokenOf, type McpTestClient } from './mcp-client';

// Every tab tool over MCP: the real `deskpilot mcp` spawned by the SDK's own client, on a real
// Chromium with the companion extension. Each effect is read back from Chromium itself — the
// extension's chrome.tabs view over a separate DevTools connection, or raw CDP — or from the
// file a tool writes, never through DeskPilot. The client has listed the tools first, so it
// checks every structured answer against the tool's declared outputSchema as it arrives.

/** A list_tabs / search_tabs row, as declared in read-shapes.ts. */
interface Row {
  i: number;
  w: number;
  title: string;
  site: string;
  active?: boolean;
  muted?: boolean;
  pinned?: boolean;
  group?: string;
  url?: string;
  id?: string;
}

const TITLES = ['Alpha', 'Bravo', 'Charlie', 'Delta'];

describeDesktop('every tab tool over MCP, on a real Chromium', () => {
  let desk: Desktop;
  let raw: RawCdp;
  let view: CompanionView;
  let mcp: McpTestClient;
  let dir: string;
  let tools: Tool[];

  beforeAll(async () => {
    desk = await startDesktop({ extensions: [COMPANION_DIR] });
    raw = await RawCdp.connect(desk.chrome!.browserWsUrl);
    view = await CompanionView.connect(desk.chrome!.browserWsUrl);
    dir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-tab-tools-mcp-'));
    mcp = await stdioClient({ ...desk.env, DESKPILOT_CONFIG_DIR: path.join(dir, 'config'), DESKPILOT_CHROME_URL: desk.chrome!.browserWsUrl });
    // Listing the tools makes the SDK client validate each later answer against its outputSchema.
    tools = (await mcp.client.listTools()).tools;
  });

  afterAll(async () => {
    await mcp?.close();
    await view?.close();
    await raw?.dispose();
    await desk?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Exactly these tabs, in one window, each seen by the extension. */
  beforeEach(async () => {
    const before = await raw.pages();
    for (const t of TITLES) await raw.open(desk.pages.url('page', { title: t, text: `über ${t.toLowerCase()}` }));
    for (const p of before) await raw.close(p.targetId);
    for (const t of TITLES) await view.waitForTab(t, 'seen by the extension', () => true);
  });

  const ok = async (name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> => {
    const r = await mcp.call(name, args);
    expect(r.isError, `${name}: ${textOf(r)}`).toBeFalsy();
    return r;
  };
  const listed = async (args: Record<string, unknown> = {}) => dataOf(await ok('list_tabs', args)) as { snapshot_id: string; tabs: Row[] };
  const refs = (snap: { snapshot_id: string; tabs: Row[] }, ...titles: string[]) => ({
    snapshot_id: snap.snapshot_id,
    tab_indices: titles.map((t) => snap.tabs.find((r) => r.title === t)!.i),
  });

  describe('reads', () => {
    it('list_tabs lists what Chromium has: lean rows, the same tabs as lines of text; url and id only when asked', async () => {
      const r = await ok('list_tabs');
      const d = dataOf(r) as { snapshot_id: string; tabs: Row[] };
      const site = new URL(desk.pages.base).hostname;
      expect(d.tabs.map((t) => t.title).sort()).toEqual((await raw.titles()).sort());
      expect(d.tabs.map((t) => t.i)).toEqual([1, 2, 3, 4]);
      expect(d.tabs.every((t) => t.site === site && t.w === 1 && t.url === undefined && t.id === undefined)).toBe(true);
      // The active tab is the one Chromium shows (the last opened).
      expect(d.tabs.filter((t) => t.active).map((t) => t.title)).toEqual([(await view.tabs()).find((t) => t.active)!.title]);
      // The text holds the same tabs, for clients that hand the model only the text.
      const active = d.tabs.find((t) => t.active)!.i;
      expect(textOf(r)).toBe(
        [`Snapshot ${d.snapshot_id}: 4 tabs in 1 window. Pass snapshot_id "${d.snapshot_id}" with a tab's index (first number; * active, w window).`, ...d.tabs.map((t) => `${t.i}${t.i === active ? '*' : ''} w1 ${new URL(desk.pages.base).host} "${t.title}"`)].join('\n'),
      );
      const full = await listed({ urls: true, ids: true });
      const pages = await raw.pages();
      for (const t of full.tabs) expect(pages.find((p) => p.targetId === t.id)).toMatchObject({ title: t.title, url: t.url });
    });

    it('search_tabs finds by words and by page text (with where it matched); count_tabs_by_domain counts per site', async () => {
      const byWords = dataOf(await ok('search_tabs', { query: 'charl' })) as { total: number; tabs: Row[] };
      expect(byWords.tabs.map((t) => t.title)).toEqual(['Charlie']);
      expect(byWords.total).toBe(4);
      // Not in the address (it holds the text URL-encoded): found in the page's text.
      const byText = dataOf(await ok('search_tabs', { query: 'über delta', page_text: true })) as { tabs: Array<Row & { excerpt?: string }> };
      expect(byText.tabs.map((t) => t.title)).toEqual(['Delta']);
      expect(byText.tabs[0]!.excerpt).toContain('über delta');
      const none = await mcp.call('search_tabs', {});
      expect(none.isError).toBe(true);
      expect(textOf(none)).toMatch(/^Nothing was searched: give query/);
      const counted = dataOf(await ok('count_tabs_by_domain')) as { total: number; sites: Array<{ site: string; n: number; i: number[] }> };
      expect(counted).toEqual({ total: 4, sites: [{ site: new URL(desk.pages.base).hostname, n: 4, i: [1, 2, 3, 4] }] });
    });

    it('every read tool declares an outputSchema, and its structured answer validates against it (checked here apart from the client)', async () => {
      const reads = tools.filter((t) => t.annotations?.readOnlyHint);
      expect(reads.map((t) => t.name).sort()).toEqual(
        ['count_tabs_by_domain', 'desktop_snapshot', 'list_apps', 'list_devices', 'list_presets', 'list_recent', 'list_tabs', 'list_windows', 'query', 'search_tabs'].sort(),
      );
      const ajv = new AjvJsonSchemaValidator();
      const args: Record<string, Record<string, unknown>> = { search_tabs: { query: 'a' }, query: { question: 'how many tabs are open?' }, list_tabs: { urls: true, ids: true } };
      for (const tool of reads) {
        expect(tool.outputSchema, `${tool.name} declares an outputSchema`).toBeDefined();
        if (tool.name === 'list_devices') continue; // No sync server here: it answers an error, which carries no structured content.
        const r = await ok(tool.name, args[tool.name] ?? {});
        const check = ajv.getValidator(tool.outputSchema!)(r.structuredContent);
        expect(check.errorMessage, `${tool.name}: ${JSON.stringify(r.structuredContent).slice(0, 200)}`).toBeUndefined();
        expect(check.valid, tool.name).toBe(true);
      }
      const devices = await mcp.call('list_devices');
      expect(devices.isError).toBe(true);
      expect(devices.structuredContent).toBeUndefined();
    });
  });

  describe('acting', () => {
    it('reload_tabs reloads exactly the named tabs', async () => {
      const snap = await listed({ ids: true });
      const id = (title: string) => snap.tabs.find((t) => t.title === title)!.id!;
      for (const t of snap.tabs) await raw.evaluate(t.id!, 'window.__mark = 1');
      const r = await ok('reload_tabs', refs(snap, 'Bravo', 'Delta'));
      expect(textOf(r)).toMatch(/^Reloaded tab \d "Bravo" .*, tab \d "Delta" /);
      // A reloaded page is a new document: the mark is gone there and only there (mid-reload, the page may not answer).
      const mark = (title: string) => raw.evaluate(id(title), 'window.__mark').catch(() => 'reloading');
      await waitFor('Bravo and Delta to reload', async () => (await mark('Bravo')) === undefined && (await mark('Delta')) === undefined);
      expect(await mark('Alpha')).toBe(1);
      expect(await mark('Charlie')).toBe(1);
    });

    it('search_tabs by page text hands out a snapshot id whose indices pin_tabs then uses', async () => {
      const found = dataOf(await ok('search_tabs', { query: 'über bravo', page_text: true })) as { snapshot_id: string; tabs: Row[] };
      expect(found.tabs.map((t) => t.title)).toEqual(['Bravo']);
      const pinned = await ok('pin_tabs', { snapshot_id: found.snapshot_id, tab_indices: [found.tabs[0]!.i], pinned: true });
      expect(textOf(pinned)).toMatch(/^Pinned tab \d "Bravo"/);
      await view.waitForTab('Bravo', 'pinned', (t) => t.pinned);
      expect((await view.byTitle('Alpha')).pinned).toBe(false);
      await ok('pin_tabs', { ...refs(await listed(), 'Bravo'), pinned: false });
      await view.waitForTab('Bravo', 'unpinned', (t) => !t.pinned);
    });

    it('close_duplicate_tabs waits for a yes it cannot ask, then closes the duplicate only', async () => {
      await raw.open(desk.pages.url('page', { title: 'Alpha', text: 'über alpha' }));
      const refused = await mcp.call('close_duplicate_tabs');
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/^Not done yet: this needs the user's yes\. It would:\n• close duplicate tab \d "Alpha"/);
      expect((await view.tabs()).filter((t) => t.title === 'Alpha')).toHaveLength(2);
      await ok('close_duplicate_tabs', { confirm_token: tokenOf(refused) });
      expect((await view.tabs()).filter((t) => t.title === 'Alpha')).toHaveLength(1);
    });

    it('mute_tabs mutes and unmutes in Chromium; list_tabs shows it', async () => {
      const snap = await listed();
      await ok('mute_tabs', { ...refs(snap, 'Alpha'), muted: true });
      await view.waitForTab('Alpha', 'muted', (t) => t.muted);
      expect((await view.byTitle('Bravo')).muted).toBe(false);
      expect((await listed()).tabs.find((t) => t.title === 'Alpha')!.muted).toBe(true);
      await ok('mute_tabs', { ...refs(snap, 'Alpha'), muted: false });
      await view.waitForTab('Alpha', 'unmuted', (t) => !t.muted);
    });

    it('group_tabs puts tabs in a titled group; ungroup_tabs takes them out', async () => {
      const snap = await listed();
      await ok('group_tabs', { ...refs(snap, 'Alpha', 'Charlie'), title: 'Work', color: 'blue' });
      const group = await waitFor('the Work group', async () => (await view.groups()).find((g) => g.title === 'Work'));
      expect(group.color).toBe('blue');
      const inGroup = (await view.tabs()).filter((t) => t.groupId === group.id).map((t) => t.title).sort();
      expect(inGroup).toEqual(['Alpha', 'Charlie']);
      expect((await listed()).tabs.filter((t) => t.group === 'Work').map((t) => t.title).sort()).toEqual(['Alpha', 'Charlie']);
      await ok('ungroup_tabs', refs(await listed(), 'Alpha'));
      await view.waitForTab('Alpha', 'out of its group', (t) => t.groupId === -1);
      expect((await view.byTitle('Charlie')).groupId).toBe(group.id);
    });

    it('move_tabs moves a tab to a new window (a true move: the same tab, no question)', async () => {
      const before = await view.byTitle('Bravo');
      const r = await ok('move_tabs', { ...refs(await listed(), 'Bravo'), new_window: true });
      expect(textOf(r)).toMatch(/Bravo/);
      const moved = await view.waitForTab('Bravo', 'in another window', (t) => t.windowId !== before.windowId);
      expect(moved.id).toBe(before.id);
      expect((await view.tabs()).filter((t) => t.windowId === before.windowId).map((t) => t.title).sort()).toEqual(['Alpha', 'Charlie', 'Delta']);
      const rows = (await listed()).tabs;
      expect(rows.find((t) => t.title === 'Bravo')!.w).not.toBe(rows.find((t) => t.title === 'Alpha')!.w);
    });

    it('save_tabs writes the set to tab-collections.json; restore_tabs reopens its tabs once they are closed', async () => {
      const snap = await listed({ urls: true });
      const url = (title: string) => snap.tabs.find((t) => t.title === title)!.url!;
      const saved = await ok('save_tabs', { ...refs(snap, 'Alpha', 'Charlie'), name: 'research' });
      expect(textOf(saved)).toMatch(/research/);
      const file = JSON.parse(readFileSync(path.join(dir, 'config', 'tab-collections.json'), 'utf8')) as { collections: Array<{ name: string; tabs: Array<{ url: string }> }> };
      const set = file.collections.find((c) => c.name === 'research')!;
      expect(set.tabs.map((t) => t.url)).toEqual([url('Alpha'), url('Charlie')]);
      expect((await raw.titles()).sort()).toEqual([...TITLES].sort());

      for (const p of await raw.pages()) if (p.title === 'Alpha' || p.title === 'Charlie') await raw.close(p.targetId);
      const restored = await ok('restore_tabs', { name: 'research' });
      expect(textOf(restored)).toMatch(/research/);
      await waitFor('Alpha and Charlie to be open again', async () => {
        const urls = (await raw.pages()).map((p) => p.url);
        return urls.includes(url('Alpha')) && urls.includes(url('Charlie'));
      });
      expect((await raw.pages()).filter((p) => p.url === url('Alpha'))).toHaveLength(1);
    });
  });
});

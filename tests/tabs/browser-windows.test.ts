import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import CDP from 'chrome-remote-interface';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { Engine } from '../../src/engine/engine';
import type { ExecReport } from '../../src/protocol/report';
import { describeDesktop } from '../support/describe-desktop';
import type { Desktop } from '../support/desktop';
import type { RawCdp } from '../support/raw-cdp';
import { waitFor } from '../support/wait-for';
import { stdioClient, textOf, type McpTestClient } from '../mcp/mcp-client';
import { COMPANION_DIR, CompanionView } from './companion-view';
import { startTabRig, type TabRig } from './tab-rig';

// Browser windows as destinations (issue 27, part 2) on a real Chromium with two windows, the
// second made with Target.createTarget newWindow: open_url into a new window or a given one,
// move_tabs to a window at a position, restore_tabs in a new window, and a window id that no
// longer names an open window refused with nothing opened. Where each tab is, is read through
// a separate DevTools connection (Browser.getWindowForTarget), or the companion extension's
// own chrome.tabs view — never through the code under test.

/** Two windows: A holding A1 and A2, B holding B1 (the last one opened, so Chrome's most recent). */
async function twoWindows(desk: Desktop, raw: RawCdp): Promise<void> {
  const before = await raw.pages();
  await raw.open(desk.pages.url('page', { title: 'A1' }));
  await raw.open(desk.pages.url('page', { title: 'A2' }));
  for (const p of before) await raw.close(p.targetId);
  await raw.open(desk.pages.url('page', { title: 'B1' }), { newWindow: true });
}

function rig(extensions: string[]) {
  const r = {} as { tabs: TabRig; desk: Desktop; raw: RawCdp; engine: Engine; cdp: CDP.Client };
  beforeAll(async () => {
    r.tabs = await startTabRig(extensions);
    ({ desk: r.desk, raw: r.raw, engine: r.engine } = r.tabs);
    r.cdp = await CDP({ target: r.desk.chrome!.browserWsUrl, local: true });
  });
  afterAll(async () => {
    await r.cdp?.close().catch(() => undefined);
    await r.tabs?.stop();
  });
  beforeEach(async () => twoWindows(r.desk, r.raw));
  const windowOf = async (targetId: string) => (await r.cdp.Browser.getWindowForTarget({ targetId })).windowId;
  /** Each open browser window's id → the titles of its tabs (sorted). */
  const windows = async (): Promise<Map<number, string[]>> => {
    const out = new Map<number, string[]>();
    for (const p of await r.raw.pages()) {
      const w = await windowOf(p.targetId);
      out.set(w, [...(out.get(w) ?? []), p.title].sort());
    }
    return out;
  };
  const idOf = async (title: string) => (await r.raw.pages()).find((p) => p.title === title)!.targetId;
  const windowWith = async (title: string) => windowOf(await idOf(title));
  const indexOf = async (title: string) => (await r.engine.snapshot()).tabs.find((t) => t.title === title)!.index;
  const url = (title: string) => r.desk.pages.url('page', { title });
  return { r, windowOf, windows, idOf, windowWith, indexOf, url };
}

function done(report: ExecReport) {
  expect(report.status, JSON.stringify(report.errors ?? report.results)).toBe('done');
  return report.results[0]!;
}

describeDesktop('browser windows without the companion extension (issue 27)', () => {
  const { r, windowOf, windows, windowWith, indexOf, url } = rig([]);

  it('open_url with new_window opens exactly one new window, holding only the new tab', async () => {
    const before = await windows();
    const result = done(await r.engine.exec({ type: 'open_url', url: url('Fresh'), new_window: true }));
    expect(result.message).toBe(`Opened ${url('Fresh')} in a new tab in a new window`);
    const targetId = (result.data as { target_id: string }).target_id;
    await r.raw.waitFor(async () => (await r.raw.pages()).some((p) => p.targetId === targetId && p.title === 'Fresh'), 'Fresh to load');
    const after = await windows();
    const added = [...after.keys()].filter((w) => !before.has(w));
    expect(added).toHaveLength(1);
    expect(after.get(added[0]!)).toEqual(['Fresh']);
    expect(await windowOf(targetId)).toBe(added[0]);
    for (const [w, titles] of before) expect(after.get(w)).toEqual(titles);
  });

  it('open_url with browser_window_id lands in that window, not the most recent one, each time', async () => {
    const [a, b] = [await windowWith('A1'), await windowWith('B1')];
    // B was opened last, so Chrome would put a plain new tab there; then each open moves Chrome's
    // last used window, and the next must still land where it is told (without the extension
    // Chrome was seen putting one in 8 in the other window, which DeskPilot then corrects).
    const rounds: Array<[string, number]> = [['IntoA', a], ['IntoB', b], ['AgainA', a], ['AgainB', b], ['ThirdA', a]];
    for (const [title, w] of rounds) {
      const opened = done(await r.engine.exec({ type: 'open_url', url: url(title), browser_window_id: w }));
      expect(opened.message).toBe(`Opened ${url(title)} in a new tab in browser window ${w}`);
      expect(await windowOf((opened.data as { target_id: string }).target_id), title).toBe(w);
    }
    await waitFor('all to load, none elsewhere', async () => {
      const now = await windows();
      return (now.size === 2 && now.get(a)?.join() === 'A1,A2,AgainA,IntoA,ThirdA' && now.get(b)?.join() === 'AgainB,B1,IntoB') || undefined;
    });
  });

  it('the words "open … in the other window", planned offline on this desk, open the tab in the window Chrome is not showing in front', async () => {
    const [a, b] = [await windowWith('A1'), await windowWith('B1')];
    // B was opened last and holds the focus: the other window is A.
    await waitFor('Chromium B focused', async () => (await r.engine.snapshot()).running_apps.some((app) => app.windows.some((w) => w.focused && w.browser_window_id === b)) || undefined);
    // The offline matcher reads words, not query strings: an address without one.
    const address = `${new URL(url('x')).origin}/page`;
    const planned = await r.engine.plan(`open ${address} in the other window`, { mode: 'local' });
    expect(planned.outcome.envelope.commands, planned.outcome.envelope.clarification_reason ?? '').toEqual([{ type: 'open_url', url: address, browser_window_id: a }]);
    const opened = done(await r.engine.run(planned.batch!));
    expect(await windowOf((opened.data as { target_id: string }).target_id)).toBe(a);
    await waitFor('the page in A', async () => (await windows()).get(a)?.join() === 'A1,A2,Test page' || undefined);
  });

  it('a window id that names no open window is refused and nothing opens: unknown at prepare, closed before the run', async () => {
    const b = await windowWith('B1');
    const pagesBefore = (await r.raw.pages()).length;
    const unknown = await r.engine.exec({ type: 'open_url', url: url('Nowhere'), browser_window_id: b + 1000 });
    expect(unknown.status).toBe('invalid');
    expect(unknown.errors[0]!.message).toMatch(new RegExp(`^no Chrome window has id ${b + 1000} \\(it was closed, or the id is from an older snapshot\\); the Chrome windows are `));

    const prepared = await r.engine.prepare({ type: 'open_url', url: url('Late'), browser_window_id: b });
    expect(prepared.ok).toBe(true);
    await r.raw.close((await r.raw.pages()).find((p) => p.title === 'B1')!.targetId);
    await waitFor('window B to close', async () => !(await windows()).has(b) || undefined);
    const late = await r.engine.run((prepared as { batch: unknown }).batch);
    expect(late.status).toBe('failed');
    expect(late.results[0]!.message).toBe(`Chrome window ${b} is not open (it was closed, or the id is from an older listing); nothing was opened`);
    expect((await r.raw.pages()).map((p) => p.title).sort()).toEqual(['A1', 'A2']);
    expect((await r.raw.pages()).length).toBe(pagesBefore - 1);
  });

  it('restore_tabs in a new window opens the missing tabs together in one new window, and says what it skipped', async () => {
    const b = await windowWith('B1');
    done(await r.engine.exec({ type: 'save_tabs', name: 'work', tab_indices: [await indexOf('A1'), await indexOf('A2')] }));
    for (const t of ['A1', 'A2']) await r.raw.close((await r.raw.pages()).find((p) => p.title === t)!.targetId);
    await waitFor('only B left', async () => ((await windows()).size === 1 && (await windows()).has(b)) || undefined);

    const restored = done(await r.engine.exec({ type: 'restore_tabs', name: 'work', new_window: true }));
    expect(restored.message).toBe('Reopened 2 tabs from "work" in a new window');
    await waitFor('A1 and A2 together in a new window', async () => {
      const w = await windows();
      const other = [...w.keys()].filter((id) => id !== b);
      return (other.length === 1 && w.get(other[0]!)!.join() === 'A1,A2' && w.get(b)!.join() === 'B1') || undefined;
    });

    const again = done(await r.engine.exec({ type: 'restore_tabs', name: 'work', new_window: true }));
    expect(again.message).toBe('Reopened 0 tabs from "work"; 2 already open, skipped');
    expect((await windows()).size).toBe(2);

    const intoB = done(await r.engine.exec({ type: 'restore_tabs', name: 'work', browser_window_id: b, duplicates: true }));
    expect(intoB.message).toBe(`Reopened 2 tabs from "work" in browser window ${b}`);
    await waitFor('copies in B', async () => (await windows()).get(b)!.join() === 'A1,A2,B1' || undefined);
  });

  it('move_tabs to a browser window without the extension reopens the tab there, and refuses a position', async () => {
    const b = await windowWith('B1');
    const refused = await r.engine.exec({ type: 'move_tabs', tab_indices: [await indexOf('A2')], browser_window_id: b, position: 1 });
    expect(refused.status).toBe('unavailable');
    expect(refused.errors[0]!.path).toBe('commands[0].position');
    const moved = done(await r.engine.exec({ type: 'move_tabs', tab_indices: [await indexOf('A2')], browser_window_id: b }));
    expect(moved.message).toMatch(new RegExp(`^Reopened tab \\d "A2".* in window \\d \\(browser window ${b}\\) and closed the originals`));
    await waitFor('A2 in B', async () => (await windows()).get(b)!.join() === 'A2,B1' || undefined);
  });
});

describeDesktop('browser windows with the companion extension (issue 27)', () => {
  const { r, windowOf, windowWith, indexOf, url } = rig([COMPANION_DIR]);
  let view: CompanionView;
  beforeAll(async () => {
    view = await CompanionView.connect(r.desk.chrome!.browserWsUrl);
  });
  afterAll(async () => view?.close());

  it('move_tabs to the other window at position 1 puts the tab first in that strip (the same tab, moved)', async () => {
    await view.waitForTab('B1', 'seen by the extension', () => true);
    const [a, b] = [await windowWith('A1'), await windowWith('B1')];
    const before = await view.byTitle('A2');
    const moved = done(await r.engine.exec({ type: 'move_tabs', tab_indices: [await indexOf('A2')], browser_window_id: b, position: 1 }));
    expect(moved.message).toMatch(new RegExp(`^Moved tab \\d "A2".* to window \\d \\(browser window ${b}\\) at position 1$`));
    const after = await view.byTitle('A2');
    expect({ id: after.id, windowId: after.windowId, index: after.index }).toEqual({ id: before.id, windowId: b, index: 0 });
    expect(await view.byTitle('B1')).toMatchObject({ windowId: b, index: 1 });
    expect(await windowWith('A2')).toBe(b);
    expect((await view.byTitle('A1')).windowId).toBe(a);
  });

  it('open_url into a given window goes through the extension and lands at the end of that window', async () => {
    await view.waitForTab('B1', 'seen by the extension', () => true);
    const a = await windowWith('A1');
    const opened = done(await r.engine.exec({ type: 'open_url', url: url('ByCompanion'), browser_window_id: a }));
    expect(await windowOf((opened.data as { target_id: string }).target_id)).toBe(a);
    const tab = await view.waitForTab('ByCompanion', 'loaded', (t) => t.url === url('ByCompanion'));
    expect({ windowId: tab.windowId, index: tab.index, active: tab.active }).toEqual({ windowId: a, index: 2, active: true });
  });
});

describeDesktop('browser windows over MCP (issue 27): open_url, move_tabs and restore_tabs take the window', () => {
  const { r, windowOf, windows, windowWith } = rig([COMPANION_DIR]);
  let view: CompanionView;
  let mcp: McpTestClient;
  let dir: string;
  beforeAll(async () => {
    view = await CompanionView.connect(r.desk.chrome!.browserWsUrl);
    dir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-mcp-windows-'));
    mcp = await stdioClient({ ...r.desk.env, DESKPILOT_CONFIG_DIR: path.join(dir, 'config'), DESKPILOT_CHROME_URL: r.desk.chrome!.browserWsUrl });
  });
  afterAll(async () => {
    await mcp?.close();
    await view?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('open_url into a window by id, a closed id refused with nothing opened, move_tabs to a position, restore_tabs in a new window', async () => {
    await view.waitForTab('B1', 'seen by the extension', () => true);
    const [a, b] = [await windowWith('A1'), await windowWith('B1')];
    const opened = await mcp.call('open_url', { url: r.desk.pages.url('page', { title: 'ViaMcp' }), browser_window_id: a });
    expect(opened.isError, textOf(opened)).toBeFalsy();
    await waitFor('ViaMcp in A', async () => (await windows()).get(a)?.join() === 'A1,A2,ViaMcp' || undefined);

    const pages = (await r.raw.pages()).length;
    const stale = await mcp.call('open_url', { url: 'https://example.com/', browser_window_id: b + 1000 });
    expect(stale.isError).toBe(true);
    expect(textOf(stale)).toContain(`no Chrome window has id ${b + 1000}`);
    const both = await mcp.call('open_url', { url: 'https://example.com/', browser_window_id: b, new_window: true });
    expect(both.isError).toBe(true);
    expect(textOf(both)).toContain('Give one of new_window: true, browser_window_id or window (with snapshot_id), not several.');
    expect((await r.raw.pages()).length).toBe(pages);

    const list = await mcp.call('list_tabs', { ids: true });
    const rows = (list.structuredContent as { tabs: Array<{ i: number; title: string }>; snapshot_id: string });
    const a2 = rows.tabs.find((t) => t.title === 'A2')!;
    const moved = await mcp.call('move_tabs', { snapshot_id: rows.snapshot_id, tab_indices: [a2.i], browser_window_id: b, position: 1 });
    expect(moved.isError, textOf(moved)).toBeFalsy();
    expect(await view.byTitle('A2')).toMatchObject({ windowId: b, index: 0 });

    // The window as list_tabs numbers it, with that listing's snapshot_id.
    const wOfB1 = (list.structuredContent as { tabs: Array<{ title: string; w: number }> }).tabs.find((t) => t.title === 'B1')!.w;
    const byListing = await mcp.call('open_url', { url: r.desk.pages.url('page', { title: 'ByListing' }), window: wOfB1, snapshot_id: rows.snapshot_id });
    expect(byListing.isError, textOf(byListing)).toBeFalsy();
    await waitFor('ByListing in B', async () => (await windows()).get(b)?.includes('ByListing') || undefined);
    const noSuch = await mcp.call('open_url', { url: 'https://example.com/', window: 9, snapshot_id: rows.snapshot_id });
    expect(textOf(noSuch)).toContain('That listing has no Chrome window 9');

    const saved = await mcp.call('save_tabs', { snapshot_id: rows.snapshot_id, tab_indices: [rows.tabs.find((t) => t.title === 'A1')!.i], name: 'solo' });
    expect(saved.isError, textOf(saved)).toBeFalsy();
    await r.raw.close((await r.raw.pages()).find((p) => p.title === 'A1')!.targetId);
    const before = await windows();
    const restored = await mcp.call('restore_tabs', { name: 'solo', new_window: true });
    expect(textOf(restored)).toContain('Reopened 1 tab from "solo" in a new window');
    await waitFor('A1 alone in a new window', async () => {
      const after = await windows();
      const added = [...after.keys()].filter((w) => !before.has(w));
      return (added.length === 1 && after.get(added[0]!)!.join() === 'A1') || undefined;
    });
    expect(await windowOf((await r.raw.pages()).find((p) => p.title === 'A1')!.targetId)).not.toBe(b);
  });
});

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { Engine } from '../../src/engine/engine';
import type { ContextSnapshot } from '../../src/protocol/context';
import type { ExecReport } from '../../src/protocol/report';
import { describeDesktop } from '../support/describe-desktop';
import type { Desktop } from '../support/desktop';
import { RawCdp } from '../support/raw-cdp';
import { waitFor } from '../support/wait-for';
import { COMPANION_DIR, CompanionView, type ViewTab } from './companion-view';
import { startTabRig, type TabRig } from './tab-rig';

// The tab manager on a real Chromium with the companion extension loaded: each operation runs
// through DeskPilot's engine, and its effect is checked through the extension's own view of the
// tabs (pinned, muted, groupId, windowId, index, lastAccessed) over a separate connection. Each
// one's undo is checked the same way.

describeDesktop('the tab manager with the companion extension', () => {
  let rig: TabRig;
  let desk: Desktop;
  let raw: RawCdp;
  let view: CompanionView;
  let engine: Engine;
  let configDir: string;

  beforeAll(async () => {
    rig = await startTabRig([COMPANION_DIR]);
    ({ desk, raw, engine, configDir } = rig);
    view = await CompanionView.connect(desk.chrome!.browserWsUrl);
  });

  afterAll(async () => {
    await view?.close();
    await rig?.stop();
  });

  const url = (title: string, text?: string) => desk.pages.url('page', { title, ...(text ? { text } : {}) });
  const pageText = (title: string) => `the page of ${title}, über ${title.toLowerCase()}`;

  /** Exactly these tabs, in this order, in one window (other windows closed). */
  async function tabs(...titles: string[]): Promise<void> {
    const before = await raw.pages();
    // Words with non-ASCII letters appear in the page's text but not (percent-encoded) in its address.
    for (const t of titles) await raw.open(url(t, pageText(t)));
    for (const p of before) await raw.close(p.targetId);
    await view.waitForTab(titles[titles.length - 1]!, 'seen by the extension', () => true);
  }

  beforeEach(async () => {
    await tabs('One', 'Two', 'Three', 'Four');
  });

  async function indexOf(title: string, snap?: ContextSnapshot): Promise<number> {
    const s = snap ?? (await engine.snapshot());
    const t = s.tabs.find((x) => x.title === title);
    if (!t) throw new Error(`no tab titled ${title}`);
    return t.index;
  }

  async function exec(command: unknown): Promise<ExecReport> {
    return engine.exec(command);
  }

  const undo = () => exec({ type: 'undo' });
  const ok = (r: ExecReport) => {
    expect(r.errors).toEqual([]);
    expect(r.status).toBe('done');
    return r.results[0]!;
  };

  it('the snapshot shows what the extension shows: pinned, muted, group, last use, and that it answers', async () => {
    const snap = await engine.snapshot();
    expect(snap.sources.companion).toMatchObject({ ok: true });
    expect(snap.tab_usage).toEqual({ source: 'companion', watched_since: null });
    const seen = await view.tabs();
    for (const t of snap.tabs) {
      const v = seen.find((x) => x.title === t.title)!;
      expect(t).toMatchObject({ pinned: v.pinned, muted: v.muted, group: null, last_used_at: new Date(v.lastAccessed!).toISOString() });
    }
  });

  it('pin_tabs pins, and undo unpins', async () => {
    const r = ok(await exec({ type: 'pin_tabs', tab_indices: [await indexOf('Three')], pinned: true }));
    expect(r.message).toMatch(/^Pinned tab \d "Three"/);
    expect((await view.byTitle('Three')).pinned).toBe(true);
    expect((await view.byTitle('Two')).pinned).toBe(false);
    ok(await undo());
    expect((await view.byTitle('Three')).pinned).toBe(false);
  });

  it('mute_tabs mutes, unmuting all unmutes, and undo of each puts it back', async () => {
    ok(await exec({ type: 'mute_tabs', tab_indices: [await indexOf('One'), await indexOf('Four')], muted: true }));
    expect((await view.tabs()).filter((t) => t.muted).map((t) => t.title).sort()).toEqual(['Four', 'One']);
    const all = (await engine.snapshot()).tabs.map((t) => t.index);
    const unmute = ok(await exec({ type: 'mute_tabs', tab_indices: all, muted: false }));
    expect(unmute.message).toMatch(/^Unmuted tab \d "One" \([^)]*\), tab \d "Four" \([^)]*\) \(the other \d+ tabs were not muted\)$/);
    const again = ok(await exec({ type: 'mute_tabs', tab_indices: all, muted: false }));
    expect(again.message).toBe('No tab was muted');
    expect((await view.tabs()).some((t) => t.muted)).toBe(false);
    ok(await undo());
    expect((await view.tabs()).filter((t) => t.muted).map((t) => t.title).sort()).toEqual(['Four', 'One']);
    ok(await undo());
    expect((await view.tabs()).some((t) => t.muted)).toBe(false);
  });

  it('group_tabs makes one titled, coloured group; ungroup and group undo each other', async () => {
    const [two, three] = [await indexOf('Two'), await indexOf('Three')];
    const r = ok(await exec({ type: 'group_tabs', tab_indices: [two, three], title: 'Work', color: 'blue' }));
    expect(r.message).toContain('as "Work" (blue)');
    const [vTwo, vThree] = [await view.byTitle('Two'), await view.byTitle('Three')];
    expect(vTwo.groupId).toBeGreaterThanOrEqual(0);
    expect(vThree.groupId).toBe(vTwo.groupId);
    expect((await view.groups()).find((g) => g.id === vTwo.groupId)).toMatchObject({ title: 'Work', color: 'blue' });
    expect((await engine.snapshot()).tabs.find((t) => t.title === 'Two')!.group).toEqual({ title: 'Work', color: 'blue' });

    ok(await exec({ type: 'ungroup_tabs', tab_indices: [await indexOf('Two')] }));
    expect((await view.byTitle('Two')).groupId).toBe(-1);
    ok(await undo()); // back into Work
    expect((await view.byTitle('Two')).groupId).toBe((await view.byTitle('Three')).groupId);
    ok(await undo()); // out of the group it was put in
    expect((await view.tabs()).every((t) => t.groupId === -1)).toBe(true);
  });

  it('move_tabs to a new window moves the tabs themselves (same ids), and undo puts them back in place', async () => {
    const before = await view.tabs();
    const r = ok(await exec({ type: 'move_tabs', tab_indices: [await indexOf('Two'), await indexOf('Three')], new_window: true }));
    expect(r.message).toMatch(/^Moved tab 2 "Two".*to a new window$/);
    const [two, three, one] = [await view.byTitle('Two'), await view.byTitle('Three'), await view.byTitle('One')];
    expect(two.windowId).not.toBe(one.windowId);
    expect(three.windowId).toBe(two.windowId);
    // Moved, not reopened: chrome.tabs keeps the tab's id.
    expect(two.id).toBe(before.find((t) => t.title === 'Two')!.id);
    const snap = await engine.snapshot();
    expect(snap.tabs.find((t) => t.title === 'Two')!.window_index).not.toBe(snap.tabs.find((t) => t.title === 'One')!.window_index);

    ok(await undo());
    const after = await view.tabs();
    for (const title of ['One', 'Two', 'Three', 'Four']) {
      const [b, a] = [before.find((t) => t.title === title)!, after.find((t) => t.title === title)!];
      expect({ title, windowId: a.windowId, index: a.index }).toEqual({ title, windowId: b.windowId, index: b.index });
    }
  });

  it('move_tabs to another window puts them at its end', async () => {
    await raw.open(url('Other'), { newWindow: true });
    const other = await view.waitForTab('Other', 'open', () => true);
    ok(await exec({ type: 'move_tabs', tab_indices: [await indexOf('One')], window_index: (await engine.snapshot()).tabs.find((t) => t.title === 'Other')!.window_index }));
    const one = await view.byTitle('One');
    expect(one).toMatchObject({ windowId: other.windowId, index: 1 });
  });

  it('close_tab reopens on undo in its old window and position', async () => {
    const before = await view.byTitle('Three');
    ok(await exec({ type: 'close_tab', tab_indices: [await indexOf('Three')] }));
    expect((await view.tabs()).some((t) => t.title === 'Three')).toBe(false);
    const r = ok(await undo());
    expect(r.message).toContain('reopened tab 3 "Three"');
    const back = await view.waitForTab('Three', 'reopened and loaded', (t) => t.url === before.url);
    expect({ windowId: back.windowId, index: back.index }).toEqual({ windowId: before.windowId, index: before.index });
  });

  it('close_duplicate_tabs keeps the active copy and closes the others', async () => {
    await raw.open(url('Two', pageText('Two')));
    await raw.open(url('Two', pageText('Two'))); // active now
    await waitFor('three tabs titled Two', async () => (await view.tabs()).filter((t) => t.title === 'Two').length === 3);
    const active = (await view.tabs()).find((t) => t.title === 'Two' && t.active)!;
    const r = ok(await exec({ type: 'close_duplicate_tabs' }));
    expect(r.data).toMatchObject({ closed: expect.any(Array) });
    const left = (await view.tabs()).filter((t) => t.title === 'Two');
    expect(left.map((t) => t.id)).toEqual([active.id]);
    expect((await view.tabs()).map((t) => t.title).sort()).toEqual(['Four', 'One', 'Three', 'Two']);
  });

  it('reload_tabs reloads the page (a new document), the others not', async () => {
    const pages = await raw.pages();
    const id = (title: string) => pages.find((p) => p.title === title)!.targetId;
    const origin = (title: string) => raw.evaluate(id(title), 'performance.timeOrigin') as Promise<number>;
    const [two, three] = [await origin('Two'), await origin('Three')];
    const r = ok(await exec({ type: 'reload_tabs', tab_indices: [await indexOf('Two')], ignore_cache: true }));
    expect(r.message).toMatch(/^Hard-reloaded tab \d "Two"/);
    await waitFor('Two to load again', async () => ((await origin('Two').catch(() => two)) > two ? true : undefined));
    expect(await origin('Three')).toBe(three);
    // A reload cannot be taken back: undo says so.
    expect(ok(await undo()).message).toContain('cannot undo: reloading 1 tab');
  });

  it('search_tabs finds tabs by title, by page text, and by age (the extension\'s lastAccessed)', async () => {
    const byTitle = ok(await exec({ type: 'search_tabs', query: 'three' }));
    expect((byTitle.data as { tabs: Array<{ title: string }> }).tabs.map((t) => t.title)).toEqual(['Three']);
    expect((ok(await exec({ type: 'search_tabs', query: 'über four' })).data as { tabs: unknown[] }).tabs).toEqual([]);
    const byText = ok(await exec({ type: 'search_tabs', query: 'über four', page_text: true }));
    expect((byText.data as { tabs: Array<{ title: string; excerpt?: string }> }).tabs).toEqual([expect.objectContaining({ title: 'Four', excerpt: expect.stringContaining('über four') })]);
    // Use them in a known order: One longest ago, then Three, Two, Four.
    for (const title of ['One', 'Three', 'Two', 'Four']) {
      const was = (await view.byTitle(title)).lastAccessed!;
      await view.activate(title);
      await view.waitForTab(title, 'used now', (t) => t.lastAccessed! > was);
    }
    const oldest = ok(await exec({ type: 'search_tabs', oldest: 2 }));
    expect((oldest.data as { tabs: Array<{ title: string }> }).tabs.map((t) => t.title)).toEqual(['One', 'Three']);
  });

  it('count_tabs_by_domain counts per site', async () => {
    const r = ok(await exec({ type: 'count_tabs_by_domain' }));
    expect(r.data).toEqual({ domains: [{ domain: '127.0.0.1', count: 4, tab_indices: [1, 2, 3, 4] }] });
  });

  it('save_tabs with close keeps the set in the config dir and closes them; restore_tabs reopens them; undo closes those again', async () => {
    const saved = ok(await exec({ type: 'save_tabs', name: 'research', tab_indices: [await indexOf('Two'), await indexOf('Four')], close: true }));
    expect(saved.message).toMatch(/^Saved 2 tabs as "research".*; closed them$/);
    const file = path.join(configDir, 'tab-collections.json');
    expect(existsSync(file)).toBe(true);
    expect(JSON.parse(readFileSync(file, 'utf8')).collections[0]).toMatchObject({ name: 'research', tabs: [{ url: url('Two', pageText('Two')) }, { url: url('Four', pageText('Four')) }] });
    expect((await view.tabs()).map((t) => t.title).sort()).toEqual(['One', 'Three']);
    expect((await engine.snapshot()).tab_collections).toEqual(['research']);

    ok(await exec({ type: 'restore_tabs', name: 'Research' }));
    await waitFor('the saved tabs to be back', async () => (await view.tabs()).map((t) => t.title).sort().join() === 'Four,One,Three,Two');
    ok(await undo());
    await waitFor('the restored tabs to close again', async () => (await view.tabs()).map((t) => t.title).sort().join() === 'One,Three');
  });

  it('a tab closed after the snapshot is reported gone; the batch changes nothing else', async () => {
    const snap = await engine.snapshot();
    const prepared = await engine.prepare({ type: 'pin_tabs', tab_indices: [await indexOf('Two', snap), await indexOf('Three', snap)], pinned: true }, { snapshot: snap });
    expect(prepared.ok).toBe(true);
    if (!prepared.ok) return;
    await raw.close((await raw.pages()).find((p) => p.title === 'Two')!.targetId);
    const r = ok(await engine.run(prepared.batch));
    expect(r.message).toMatch(/^Pinned tab 3 "Three".*; already gone: tab 2 "Two"/);
    const seen: ViewTab[] = await view.tabs();
    expect(seen.filter((t) => t.pinned).map((t) => t.title)).toEqual(['Three']);
    // An index the snapshot never had is refused before anything runs.
    const stale = await engine.exec({ type: 'mute_tabs', tab_indices: [9], muted: true });
    expect(stale.status).toBe('invalid');
    expect(stale.errors).toEqual([{ path: 'commands[0].tab_indices[0]', message: 'tab 9 does not exist (open tabs are 1–3)' }]);
  });
});

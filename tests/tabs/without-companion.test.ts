import CDP from 'chrome-remote-interface';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { Engine } from '../../src/engine/engine';
import type { ExecReport } from '../../src/protocol/report';
import type { WiredEngine } from '../../src/compose/wire-engine';
import { describeDesktop } from '../support/describe-desktop';
import type { Desktop } from '../support/desktop';
import { RawCdp } from '../support/raw-cdp';
import { waitFor } from '../support/wait-for';
import { startTabRig, type TabRig } from './tab-rig';

// The tab manager on a real Chromium without the companion extension: what needs it says so
// and how to add it, and changes nothing; everything else works over DevTools alone; moving
// is done by reopening; tab ages come from the warm service's own clock once it watches.

interface StripTab {
  title: string;
  url: string;
  windowId: number;
  pinned: boolean;
}

describeDesktop('the tab manager without the companion extension', () => {
  let rig: TabRig;
  let desk: Desktop;
  let raw: RawCdp;
  let strip: CDP.Client;
  let wired: WiredEngine;
  let engine: Engine;

  beforeAll(async () => {
    rig = await startTabRig();
    ({ desk, raw, wired, engine } = rig);
    strip = await CDP({ target: desk.chrome!.browserWsUrl, local: true });
  });

  afterAll(async () => {
    await strip?.close();
    await rig?.stop();
  });

  const url = (title: string) => desk.pages.url('page', { title });

  beforeEach(async () => {
    const before = await raw.pages();
    for (const t of ['One', 'Two', 'Three']) await raw.open(url(t));
    for (const p of before) await raw.close(p.targetId);
  });

  /** The tab strips as Chrome's own tab targets report them, independent of DeskPilot. */
  async function stripTabs(): Promise<StripTab[]> {
    const { targetInfos } = (await (strip.send as unknown as (m: string, p: object) => Promise<unknown>)('Target.getTargets', { filter: [{ type: 'tab' }] })) as {
      targetInfos: Array<{ targetId: string; title: string; url: string; embedderData?: { tabPinned?: boolean } }>;
    };
    const tabs = await Promise.all(
      targetInfos.map(async (t) => ({
        title: t.title,
        url: t.url,
        windowId: (await strip.Browser.getWindowForTarget({ targetId: t.targetId })).windowId,
        pinned: t.embedderData?.tabPinned === true,
      })),
    );
    return tabs.sort((a, b) => a.title.localeCompare(b.title));
  }

  const indexOf = async (title: string) => (await engine.snapshot()).tabs.find((t) => t.title === title)!.index;

  it('the snapshot says the extension is missing and how to add it; pinned still comes from DevTools', async () => {
    const snap = await engine.snapshot();
    expect(snap.sources.companion?.ok).toBe(false);
    expect(snap.sources.companion?.message).toMatch(/not installed in this Chrome.*deskpilot chrome launch.*Load unpacked.*companion-extension/);
    expect(snap.tab_usage).toBeUndefined();
    expect(snap.tabs.every((t) => t.pinned === false && t.muted === undefined && t.last_used_at === undefined)).toBe(true);
  });

  it.each([
    ['pin_tabs', { pinned: true }],
    ['mute_tabs', { muted: true }],
    ['group_tabs', { title: 'Work' }],
    ['ungroup_tabs', {}],
  ])('%s fails with the documented message and changes nothing', async (type, fields) => {
    const before = await stripTabs();
    const r: ExecReport = await engine.exec({ type, tab_indices: [await indexOf('Two')], ...fields });
    expect(r.status).toBe('unavailable');
    expect(r.results).toEqual([]);
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]!.message).toMatch(new RegExp(`^${type} needs the DeskPilot companion extension \\(Chrome has no DevTools command for it\\): The DeskPilot companion extension is not installed in this Chrome\\. .*"Load unpacked"`));
    expect(await stripTabs()).toEqual(before);
  });

  it('tab ages are refused with where they come from, and nothing closes', async () => {
    const before = await stripTabs();
    const r = await engine.exec({ type: 'close_tab', unused_for_hours: 1 });
    expect(r.status).toBe('unavailable');
    expect(r.errors[0]!.message).toMatch(/^tab ages are not known: they come from the DeskPilot companion extension, or from the warm service/);
    expect(await stripTabs()).toEqual(before);
  });

  it('move_tabs reopens the tab in a new window and closes the original; undo brings the original back', async () => {
    const prepared = await engine.prepare({ type: 'move_tabs', tab_indices: [await indexOf('Two')], new_window: true });
    expect(prepared.ok).toBe(true);
    if (!prepared.ok) return;
    // Closing a tab loses its history: it is asked about like a close.
    expect(prepared.batch.confirm).toEqual([expect.objectContaining({ kind: 'close_tab', summary: expect.stringContaining('by reopening them there') })]);
    const r = await engine.run(prepared.batch);
    expect(r.status).toBe('done');
    expect(r.results[0]!.message).toMatch(/^Reopened tab 2 "Two".* in a new window and closed the originals/);
    const after = await stripTabs();
    const one = after.find((t) => t.title === 'One')!;
    expect(after.filter((t) => t.title === 'Two')).toEqual([expect.objectContaining({ url: url('Two') })]);
    expect(after.find((t) => t.title === 'Two')!.windowId).not.toBe(one.windowId);

    const undone = await engine.exec({ type: 'undo' });
    expect(undone.status).toBe('done');
    await waitFor('Two back in the first window only', async () => {
      const now = (await stripTabs()).filter((t) => t.title === 'Two');
      return now.length === 1 && now[0]!.windowId === one.windowId;
    });
  });

  it('search, count, reload, duplicates and saved sets work over DevTools alone', async () => {
    await raw.open(url('One'));
    const dupes = await engine.exec({ type: 'close_duplicate_tabs' });
    expect(dupes.status).toBe('done');
    expect((await stripTabs()).map((t) => t.title)).toEqual(['One', 'Three', 'Two']);
    const count = await engine.exec({ type: 'count_tabs_by_domain' });
    expect(count.results[0]!.message).toBe('3 tabs on 1 site: 127.0.0.1 3');
    const found = await engine.exec({ type: 'search_tabs', query: 'two' });
    expect((found.results[0]!.data as { tabs: Array<{ title: string }> }).tabs.map((t) => t.title)).toEqual(['Two']);
    expect((await engine.exec({ type: 'reload_tabs', tab_indices: [1, 2] })).status).toBe('done');
    expect((await engine.exec({ type: 'save_tabs', name: 'later', tab_indices: [await indexOf('Two')], close: true })).status).toBe('done');
    await waitFor('Two to close', async () => !(await stripTabs()).some((t) => t.title === 'Two'));
    const restored = await engine.exec({ type: 'restore_tabs', name: 'later' });
    expect(restored.status, JSON.stringify(restored.errors)).toBe('done');
    await waitFor('Two to be back', async () => (await stripTabs()).some((t) => t.title === 'Two' && t.url === url('Two')));
  });

  it("with the warm service watching, tab ages come from its own clock", async () => {
    const stop = wired.watchTabUse();
    try {
      const snap = await waitFor('the clock to start', async () => {
        const s = await engine.snapshot();
        return s.tab_usage ? s : undefined;
      });
      expect(snap.tab_usage).toMatchObject({ source: 'service', watched_since: expect.any(String) });
      // Open since before the clock looked, and not selected: not used since it started.
      expect(snap.tabs.find((t) => t.title === 'One')!.last_used_at).toBeNull();
      expect(snap.tabs.find((t) => t.is_active)!.last_used_at).not.toBeNull();
      // A tab opened later counts as used when it was opened.
      await raw.open(url('Four'));
      const later = await engine.snapshot();
      const four = later.tabs.find((t) => t.title === 'Four')!;
      expect(Date.parse(four.last_used_at!)).toBeGreaterThanOrEqual(Date.parse(snap.tab_usage!.watched_since!));
      // Nothing is known to be a day old yet: an age pick finds nothing to close, and says so.
      const r = await engine.exec({ type: 'close_tab', unused_for_hours: 24 });
      expect(r.status).toBe('invalid');
      expect(r.errors[0]!.message).toBe('no open tab is unused for 1 day, so there is nothing to do');
    } finally {
      stop();
    }
  });
});

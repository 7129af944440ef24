import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Engine } from '../../src/engine/engine';
import type { Desktop } from '../support/desktop';
import { describeDesktop } from '../support/describe-desktop';
import { RawCdp } from '../support/raw-cdp';
import { waitFor } from '../support/wait-for';
import { startTabRig, type TabRig } from './tab-rig';

// Issue 27: restoring a saved set skips the tabs that are open already and says how many,
// unless duplicates are asked for. Read back through a second CDP connection on real Chromium.

describeDesktop('restore_tabs with some of the set already open (issue 27)', () => {
  let rig: TabRig;
  let desk: Desktop;
  let raw: RawCdp;
  let engine: Engine;

  beforeAll(async () => {
    rig = await startTabRig();
    ({ desk, raw, engine } = rig);
  });
  afterAll(async () => rig?.stop());

  const url = (title: string) => desk.pages.url('page', { title });
  const titles = async () => (await raw.pages()).map((p) => p.title).sort();
  const indexOf = async (title: string) => (await engine.snapshot()).tabs.find((t) => t.title === title)!.index;

  it('reopens only what is missing, says how many it skipped, and opens duplicates when asked', async () => {
    const before = await raw.pages();
    for (const t of ['One', 'Two']) await raw.open(url(t));
    for (const p of before) await raw.close(p.targetId);
    await waitFor('One and Two', async () => (await titles()).join() === 'One,Two' || undefined);

    const saved = await engine.exec({ type: 'save_tabs', name: 'pair', tab_indices: [await indexOf('One'), await indexOf('Two')] });
    expect(saved.status).toBe('done');
    const two = (await raw.pages()).find((p) => p.title === 'Two')!;
    await raw.close(two.targetId);
    await waitFor('Two to close', async () => (await titles()).join() === 'One' || undefined);

    const restored = await engine.exec({ type: 'restore_tabs', name: 'pair' });
    expect(restored.status, JSON.stringify(restored.errors)).toBe('done');
    expect(restored.results[0]!.message).toBe('Reopened 1 tab from "pair"; 1 already open, skipped');
    await waitFor('Two to be back', async () => (await titles()).join() === 'One,Two' || undefined);

    const again = await engine.exec({ type: 'restore_tabs', name: 'pair' });
    expect(again.results[0]!.message).toBe('Reopened 0 tabs from "pair"; 2 already open, skipped');
    expect(await titles()).toEqual(['One', 'Two']);

    const dup = await engine.exec({ type: 'restore_tabs', name: 'pair', duplicates: true });
    expect(dup.results[0]!.message).toBe('Reopened 2 tabs from "pair"');
    await waitFor('each tab twice', async () => (await titles()).join() === 'One,One,Two,Two' || undefined);
  });
});

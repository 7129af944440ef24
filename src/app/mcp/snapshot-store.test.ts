import { describe, expect, it } from 'vitest';
import type { ContextSnapshot } from '../../protocol/context';
import { MAX_SNAPSHOTS, SNAPSHOT_TTL_MS, SnapshotStore } from './snapshot-store';

const snap = (...targets: string[]): ContextSnapshot => ({
  taken_at: '2026-01-01T00:00:00.000Z',
  monitors: [],
  running_apps: [],
  installed_apps: [],
  tabs: targets.map((target_id, i) => ({ index: i + 1, title: target_id, url: 'https://x.test/', domain: 'x.test', content_summary: null, is_active: false, window_index: 1, local_index: i + 1, target_id })),
  presets: [],
  sources: { windows: { ok: true, message: '' }, chrome: { ok: true, message: '' }, presets: { ok: true, message: '' } },
});

describe('SnapshotStore', () => {
  it('hands out short ids and gives each snapshot back until it expires', () => {
    let now = 0;
    const store = new SnapshotStore(() => now);
    const a = snap('A');
    const id = store.put(a);
    expect(id).toBe('s1');
    now += SNAPSHOT_TTL_MS;
    expect(store.get(id)).toBe(a);
    now += 1;
    expect(store.get(id)).toBeUndefined();
    expect(store.put(snap())).toBe('s2');
  });

  it(`keeps the newest ${MAX_SNAPSHOTS}`, () => {
    const store = new SnapshotStore(() => 0);
    const ids = Array.from({ length: MAX_SNAPSHOTS + 1 }, () => store.put(snap()));
    expect(store.get(ids[0]!)).toBeUndefined();
    expect(store.get(ids[1]!)).toBeDefined();
    expect(store.get(ids.at(-1)!)).toBeDefined();
  });

  it('finds a tab in the newest snapshot that had it', () => {
    const store = new SnapshotStore(() => 0);
    store.put(snap('A', 'B'));
    const newer = snap('B');
    store.put(newer);
    expect(store.findTab('B')).toEqual({ snapshot: newer, tab: newer.tabs[0] });
    expect(store.findTab('A')?.tab.index).toBe(1);
    expect(store.findTab('C')).toBeUndefined();
  });

  it('keeps another device\'s snapshots apart: its ids and tabs are not found from this computer, and the reverse', () => {
    const here = new SnapshotStore(() => 0);
    const b = here.forDevice({ id: 'device-b', name: 'home desktop' });
    const mine = here.put(snap('A'));
    const theirs = b.put(snap('B'));
    expect(theirs).not.toBe(mine);
    expect(here.get(theirs)).toBeUndefined();
    expect(here.ownerElsewhere(theirs)).toEqual({ id: 'device-b', name: 'home desktop' });
    expect(b.get(mine)).toBeUndefined();
    expect(b.ownerElsewhere(mine)).toBeNull();
    expect(b.get(theirs)?.tabs[0]?.target_id).toBe('B');
    expect(here.findTab('B')).toBeUndefined();
    expect(b.findTab('B')?.tab.title).toBe('B');
  });
});

import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import type { ContextSnapshot, TabInfo } from '../../protocol/context';
import { SyncDoc } from './sync-doc';

const DEV = 'device-0001';

function tab(i: number, window = 1, over: Partial<TabInfo> = {}): TabInfo {
  return {
    index: i,
    title: `Tab ${i}`,
    url: `https://site${i}.example.org/page/${i}`,
    domain: `site${i}.example.org`,
    content_summary: 'not published',
    is_active: i === 1,
    window_index: window,
    local_index: i,
    target_id: `TARGET${String(i).padStart(4, '0')}`,
    ...over,
  };
}

function snapshot(tabs: TabInfo[]): ContextSnapshot {
  const ok = { ok: true, message: 'ok' };
  // Indices as a snapshot gives them: global order, per-window local order.
  const perWindow = new Map<number, number>();
  const numbered = tabs.map((t, i) => {
    const local = (perWindow.get(t.window_index) ?? 0) + 1;
    perWindow.set(t.window_index, local);
    return { ...t, index: i + 1, local_index: local };
  });
  return {
    taken_at: new Date().toISOString(),
    monitors: [],
    running_apps: [{ name: 'XTerm', pid: 42, windows: [] }],
    installed_apps: [{ name: 'XTerm' }],
    tabs: numbered,
    presets: ['code space'],
    sources: { windows: ok, chrome: ok, presets: ok },
  };
}

/** Two documents kept in sync the way the server relays updates; returns the update sizes sent. */
function pair() {
  const a = new Y.Doc();
  const b = new Y.Doc();
  const sizes: number[] = [];
  a.on('update', (u: Uint8Array) => {
    sizes.push(u.byteLength);
    Y.applyUpdate(b, u);
  });
  return { a: new SyncDoc(a), b: new SyncDoc(b), sizes };
}

describe('published desks', () => {
  it('come back as the same snapshot on the other side, without content summaries', () => {
    const { a, b } = pair();
    const tabs = [tab(1), tab(2), tab(3, 2), tab(4, 2)];
    const snap = snapshot(tabs);
    a.publishSnapshot(DEV, snap);
    const read = b.readSnapshot(DEV);
    expect(read.problem).toBeNull();
    expect(read.snapshot).toEqual({ ...snap, tabs: snap.tabs.map((t) => ({ ...t, content_summary: null })) });
    expect(read.snapshot!.tabs.map((t) => [t.index, t.window_index, t.local_index])).toEqual([
      [1, 1, 1],
      [2, 1, 2],
      [3, 2, 1],
      [4, 2, 2],
    ]);
  });

  it('with 300 tabs, one tab changing sends one small update, and an unchanged desk sends nothing', () => {
    const { a, b, sizes } = pair();
    const tabs = Array.from({ length: 300 }, (_, i) => tab(i + 1, 1 + Math.floor(i / 100)));
    a.publishSnapshot(DEV, snapshot(tabs));
    sizes.length = 0;
    a.publishSnapshot(DEV, snapshot(tabs));
    expect(sizes).toEqual([]);

    tabs[150] = { ...tabs[150]!, title: 'A new title', url: 'https://news.example.org/story/1' };
    a.publishSnapshot(DEV, snapshot(tabs));
    expect(sizes).toHaveLength(1);
    expect(sizes[0]).toBeLessThan(2048);
    expect(b.readSnapshot(DEV).snapshot!.tabs[150]!.title).toBe('A new title');

    // Closing a tab is a deletion, not the list again.
    sizes.length = 0;
    tabs.splice(10, 1);
    a.publishSnapshot(DEV, snapshot(tabs));
    expect(sizes[0]).toBeLessThan(2048);
    const after = b.readSnapshot(DEV).snapshot!;
    expect(after.tabs).toHaveLength(299);
    expect(after.tabs[10]!.target_id).toBe('TARGET0012');
    expect(after.tabs[10]!.index).toBe(11);
  });

  it('a moved tab lands in its new place', () => {
    const { a, b } = pair();
    const tabs = Array.from({ length: 6 }, (_, i) => tab(i + 1));
    a.publishSnapshot(DEV, snapshot(tabs));
    const [moved] = tabs.splice(1, 1);
    tabs.splice(4, 0, moved!);
    a.publishSnapshot(DEV, snapshot(tabs));
    expect(b.readSnapshot(DEV).snapshot!.tabs.map((t) => t.target_id)).toEqual(tabs.map((t) => t.target_id));
  });

  it('nothing published yet, or published by an incompatible version, is said so', () => {
    const { a, b } = pair();
    expect(b.readSnapshot(DEV)).toEqual({ snapshot: null, problem: 'it has published nothing yet' });
    a.publishSnapshot(DEV, snapshot([tab(1)]));
    a.doc.getMap(`snap:${DEV}`).set('monitors', 'not a list');
    expect(b.readSnapshot(DEV).problem).toContain('snapshot.monitors');
  });
});

describe('device and command rows', () => {
  const device = { v: 1 as const, id: DEV, name: 'work laptop', platform: 'linux', version: '0.1.0', last_seen: 1 };

  it('a removal stays when the device writes its row again; only pairing lifts it', () => {
    const { a } = pair();
    a.putDevice(device);
    a.markRemoved(DEV, 5);
    a.putDevice({ ...device, last_seen: 9 });
    expect(a.device(DEV)?.removed_at).toBe(5);
    a.pairDevice({ ...device, last_seen: 10 });
    expect(a.device(DEV)?.removed_at).toBeUndefined();
  });

  it('rows are checked where they are read: a malformed one is reported with its target', () => {
    const { a, b } = pair();
    const m = new Y.Map<unknown>();
    a.doc.getMap('commands').set('row-00000001', m);
    m.set('deviceId', DEV);
    m.set('action', 'explode');
    const read = b.readRow('row-00000001');
    expect(read).toMatchObject({ ok: false, deviceId: DEV });
    expect(read && !read.ok && read.problem).toContain('row.action');
  });

  it('taken and result are single fields of the row, seen on the other side', () => {
    const { a, b } = pair();
    const seen: string[][] = [];
    b.onRows((ids) => seen.push([...ids]));
    a.addRow({ v: 1, id: 'row-00000002', action: 'publish', deviceId: DEV, from: 'device-0002', createdAt: 100 });
    a.setTaken('row-00000002', 101);
    a.setResult<'publish'>('row-00000002', { taken_at: 'now' });
    expect(b.readRow('row-00000002')).toEqual({
      ok: true,
      row: { v: 1, id: 'row-00000002', action: 'publish', deviceId: DEV, from: 'device-0002', createdAt: 100, taken: { at: 101 }, result: { taken_at: 'now' } },
    });
    a.deleteRow('row-00000002');
    expect(b.readRow('row-00000002')).toBeNull();
    expect(seen).toEqual([['row-00000002'], ['row-00000002'], ['row-00000002'], ['row-00000002']]);
  });
});

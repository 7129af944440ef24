import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import type { ContextSnapshot, TabInfo } from '../../protocol/context';
import { testUser } from '../../../tests/sync/keyrings';
import { sealJson, canonical } from './seal';
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

/** Two devices' documents kept in sync the way the server relays updates; returns the update sizes (and bytes) sent. */
function pair() {
  const a = new Y.Doc();
  const b = new Y.Doc();
  const sizes: number[] = [];
  const sent: Buffer[] = [];
  a.on('update', (u: Uint8Array) => {
    sizes.push(u.byteLength);
    sent.push(Buffer.from(u));
    Y.applyUpdate(b, u);
  });
  const [da, db] = testUser(['work laptop', 'home desktop']);
  return { a: new SyncDoc(a, da!.ring), b: new SyncDoc(b, db!.ring), sizes, sent, da: da!, db: db! };
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
    const { a, b, da } = pair();
    expect(b.readSnapshot(DEV)).toEqual({ snapshot: null, problem: 'it has published nothing yet' });
    a.publishSnapshot(DEV, snapshot([tab(1)]));
    const key = Buffer.from(da.store.get().keys[0]!.key, 'base64url');
    a.doc.getMap(`snap:${DEV}`).set('monitors', { e: 1, ...sealJson(key, 'not a list', canonical('deskpilot snapshot v2', [DEV, 'part', 'monitors', 1])) });
    expect(b.readSnapshot(DEV).problem).toContain('snapshot.monitors');
  });

  it('are encrypted: no title, URL or app name in what is sent; a part written without the key, or moved to another device, is not read', () => {
    const { a, b, sent } = pair();
    a.publishSnapshot(DEV, snapshot([tab(1, 1, { title: 'Secret Kitten Gallery', url: 'https://kittens.example.org/private' })]));
    const bytes = Buffer.concat(sent).toString('latin1');
    for (const text of ['Secret Kitten Gallery', 'kittens.example.org', 'XTerm', 'code space']) expect(bytes).not.toContain(text);
    expect(b.readSnapshot(DEV).snapshot!.tabs[0]!.title).toBe('Secret Kitten Gallery');
    // A writer without the key (the server) replaces a part: the desk is not read.
    a.doc.getMap(`snap:${DEV}`).set('presets', ['evil']);
    expect(b.readSnapshot(DEV).snapshot).toBeNull();
    // A sealed tab copied under another device's name does not open there (bound to its device).
    a.publishSnapshot('device-0002', snapshot([tab(2)]));
    a.doc.getMap('tabs:device-0002').set('TARGET0002', a.doc.getMap(`tabs:${DEV}`).get('TARGET0001'));
    expect(b.readSnapshot('device-0002').snapshot!.tabs).toEqual([]);
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

  it('rows are checked where they are read: a malformed one, or an unsigned version-1 one, is reported with its target', () => {
    const { a, b } = pair();
    a.writeWire({ v: 2, id: 'row-00000001', to: DEV, action: 'explode' });
    const read = b.readRow('row-00000001');
    expect(read).toMatchObject({ ok: false, deviceId: DEV });
    expect(read && !read.ok && read.problem).toContain('row.from');
    a.writeWire({ v: 1, id: 'row-00000003', deviceId: DEV, to: DEV, from: 'device-0001', action: 'publish', createdAt: 1 });
    expect(b.readRow('row-00000003')).toMatchObject({ ok: false, deviceId: DEV, problem: 'unsigned (a version-1 row)' });
  });

  it('taken and result are single fields of the row, signed by the target, seen on the other side', () => {
    const { a: target, b: sender } = pair();
    const seen: string[][] = [];
    target.onRows((ids) => seen.push([...ids]));
    // device-0002 (sender) writes to device-0001 (target); the documents relay one way here, so the
    // sender's doc is fed back by hand.
    sender.addRow({ v: 2, id: 'row-00000002', action: 'publish', deviceId: DEV, from: 'device-0002', createdAt: 100 });
    Y.applyUpdate(target.doc, Y.encodeStateAsUpdate(sender.doc));
    target.setTaken('row-00000002', 101);
    target.setResult<'publish'>('row-00000002', { taken_at: 'now' });
    expect(sender.readRow('row-00000002')).toEqual({
      ok: true,
      row: { v: 2, id: 'row-00000002', action: 'publish', deviceId: DEV, from: 'device-0002', createdAt: 100, taken: { at: 101 }, result: { taken_at: 'now' } },
      takenUnverified: false,
      resultProblem: null,
    });
    const b = sender;
    target.deleteRow('row-00000002');
    expect(b.readRow('row-00000002')).toBeNull();
    expect(seen).toEqual([['row-00000002'], ['row-00000002'], ['row-00000002'], ['row-00000002']]);
  });
});

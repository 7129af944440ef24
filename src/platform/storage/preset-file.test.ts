import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PresetFileStore } from './preset-file';
import { TabCollectionFileStore } from './tab-collection-file';
import { UndoFileStore } from './undo-file';

describe('preset and undo files (real files)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-presets-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('saves, replaces case-insensitively, lists and deletes presets', async () => {
    const store = new PresetFileStore(path.join(dir, 'presets.json'));
    expect(await store.list()).toEqual([]);
    await store.save({ name: 'Code Space', placements: [{ app: 'XTerm', monitor: 'left', rect: [0, 0, 0.5, 1], launch: true }], urls: [] });
    await store.save({ name: 'code space', placements: [], urls: ['github.com'] });
    expect((await store.list()).map((p) => [p.name, p.urls])).toEqual([['code space', ['github.com']]]);
    expect(await store.delete('CODE SPACE')).toBe(true);
    expect(await store.delete('code space')).toBe(false);
    expect(JSON.parse(readFileSync(store.file, 'utf8'))).toEqual({ version: 1, presets: [] });
  });

  it('a file that is not a presets file fails whole, is named, and is never overwritten', async () => {
    const file = path.join(dir, 'presets.json');
    const broken = JSON.stringify({ version: 2, presets: [] });
    writeFileSync(file, broken);
    const store = new PresetFileStore(file, () => undefined);
    await expect(store.list()).rejects.toThrow(`${file}: version`);
    await expect(store.save({ name: 'b', placements: [], urls: [] })).rejects.toThrow(/version/);
    expect(readFileSync(file, 'utf8')).toBe(broken);
    writeFileSync(file, '{"version": 1, "presets": [');
    await expect(store.list()).rejects.toThrow(/is not valid JSON/);
  });

  it('one bad preset is skipped, named once, and kept as it was through saves and deletes', async () => {
    const file = path.join(dir, 'presets.json');
    const bad = { name: 'a', placements: [{ app: 'X', monitor: 'left', rect: [0, 0, 2, 1] }] };
    const noRect = { name: 'x', placements: [{ app: 'X', launch: true }] };
    const good = { name: 'Code', placements: [], urls: ['github.com'] };
    writeFileSync(file, JSON.stringify({ version: 1, presets: [bad, good, noRect, { ...good, urls: [] }] }));
    const said: string[] = [];
    const store = new PresetFileStore(file, (m) => said.push(m));
    expect((await store.list()).map((p) => [p.name, p.urls])).toEqual([['Code', ['github.com']]]);
    await store.list();
    expect(said).toEqual([
      `${file}: presets[0] is skipped (presets[0].placements[0].rect[2]: must be at most 1; presets[0].placements[0].rect: x + width must be at most 1, width above 0)`,
      `${file}: presets[2] is skipped (presets[2].placements[0]: needs exactly one of "rect" (relative to a monitor) or "bounds" (absolute))`,
      `${file}: presets[3] is skipped (duplicate name "Code"; the first one is used)`,
    ]);
    await store.save({ name: 'b', placements: [], urls: [] });
    await store.save({ name: 'code', placements: [], urls: ['example.com'] });
    expect(await store.delete('b')).toBe(true);
    // A bad record is not a preset the user can see: delete does not reach it.
    expect(await store.delete('a')).toBe(false);
    const kept = JSON.parse(readFileSync(file, 'utf8')).presets;
    expect(kept[0]).toEqual(bad);
    expect(kept[2]).toEqual(noRect);
    expect((await store.list()).map((p) => [p.name, p.urls])).toEqual([['code', ['example.com']]]);
  });

  it('a saved set of tabs with no address is skipped and the other sets restore (the file no longer fails whole)', async () => {
    const file = path.join(dir, 'tab-collections.json');
    const tab = { url: 'https://example.com/', title: 'Example', pinned: false };
    writeFileSync(file, JSON.stringify({ version: 1, collections: [{ name: 'old', saved_at: '2026-11-01T00:00:00Z', tabs: [{ url: '', title: 'loading' }] }, { name: 'work', saved_at: '2026-11-02T00:00:00Z', tabs: [tab] }] }));
    const said: string[] = [];
    const store = new TabCollectionFileStore(file, (m) => said.push(m));
    expect((await store.list()).map((c) => c.name)).toEqual(['work']);
    expect(said).toHaveLength(1);
    expect(said[0]).toContain('collections[0] is skipped (collections[0].tabs[0].url:');
  });

  it('the undo stack pops newest first and keeps across store instances', async () => {
    const file = path.join(dir, 'undo.json');
    const entry = (n: number) => ({ batchId: `b${n}`, at: n, label: `move ${n}`, windows: [], focused: null, irreversible: [] });
    await new UndoFileStore(file).push(entry(1));
    await new UndoFileStore(file).push(entry(2));
    await new UndoFileStore(file).push(entry(3));
    const store = new UndoFileStore(file);
    expect((await store.pop(2)).map((e) => e.batchId)).toEqual(['b3', 'b2']);
    expect((await store.pop(5)).map((e) => e.batchId)).toEqual(['b1']);
    expect(await store.pop(1)).toEqual([]);
  });

  it('the undo entry of a batch is saved in place as the batch runs, and taken off when it changed nothing', async () => {
    const file = path.join(dir, 'undo.json');
    const entry = (n: number, label = `move ${n}`) => ({ batchId: `b${n}`, at: n, label, windows: [], focused: null, irreversible: [] });
    const store = new UndoFileStore(file);
    await store.push(entry(1));
    await store.put({ ...entry(2, 'pending'), pending: true });
    await store.put(entry(3));
    await store.put(entry(2, 'done'));
    expect(JSON.parse(readFileSync(file, 'utf8')).entries.map((e: { label: string }) => e.label)).toEqual(['move 1', 'done', 'move 3']);
    await store.remove('b3');
    await store.remove('nothing');
    expect((await store.pop(5)).map((e) => e.batchId)).toEqual(['b2', 'b1']);
  });
});

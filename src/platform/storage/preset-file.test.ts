import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PresetFileStore } from './preset-file';
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

  it('names the bad entry of a broken file and never overwrites it', async () => {
    const file = path.join(dir, 'presets.json');
    const broken = JSON.stringify({ version: 1, presets: [{ name: 'a', placements: [{ app: 'X', monitor: 'left', rect: [0, 0, 2, 1] }] }] });
    writeFileSync(file, broken);
    const store = new PresetFileStore(file);
    await expect(store.list()).rejects.toThrow(`${file}: presets[0].placements[0].rect[2]: must be at most 1`);
    await expect(store.save({ name: 'b', placements: [], urls: [] })).rejects.toThrow(/presets\[0\]/);
    expect(readFileSync(file, 'utf8')).toBe(broken);
    writeFileSync(file, JSON.stringify({ version: 1, presets: [{ name: 'x', placements: [{ app: 'X', launch: true }] }] }));
    await expect(store.list()).rejects.toThrow('presets[0].placements[0]: needs exactly one of "rect" (relative to a monitor) or "bounds" (absolute)');
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

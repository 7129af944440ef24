import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadRecall, RECALL_MAX, saveRecall, withRecalled } from './recall-storage';

/** A Map behind the Storage calls recall uses (the renderer's localStorage; no DOM here). */
function memoryStorage(failWrites = false) {
  const m = new Map<string, string>();
  return {
    getItem: (k: string) => m.get(k) ?? null,
    setItem: (k: string, v: string) => {
      if (failWrites) throw new Error('QuotaExceededError');
      m.set(k, v);
    },
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('withRecalled', () => {
  it('adds newest last, and moves an earlier copy of the same text to the end', () => {
    expect(withRecalled(['a', 'b', 'c'], 'b')).toEqual(['a', 'c', 'b']);
    expect(withRecalled([], 'x')).toEqual(['x']);
  });

  it(`keeps the last ${RECALL_MAX}`, () => {
    const many = Array.from({ length: RECALL_MAX }, (_, i) => `c${i}`);
    const next = withRecalled(many, 'new');
    expect(next).toHaveLength(RECALL_MAX);
    expect(next[0]).toBe('c1');
    expect(next.at(-1)).toBe('new');
  });
});

describe('loadRecall / saveRecall (a fake in-memory localStorage)', () => {
  it('reads back what was saved', () => {
    vi.stubGlobal('window', { localStorage: memoryStorage() });
    saveRecall(['close reddit', 'move xterm left']);
    expect(loadRecall()).toEqual(['close reddit', 'move xterm left']);
  });

  it('a broken or foreign value reads as no history, keeping only strings', () => {
    const storage = memoryStorage();
    vi.stubGlobal('window', { localStorage: storage });
    storage.setItem('deskpilot.recall.v1', '{not json');
    expect(loadRecall()).toEqual([]);
    storage.setItem('deskpilot.recall.v1', JSON.stringify(['a', 3, null, 'b']));
    expect(loadRecall()).toEqual(['a', 'b']);
  });

  it('a storage that refuses writes does not throw: recall lasts for the session', () => {
    vi.stubGlobal('window', { localStorage: memoryStorage(true) });
    expect(() => saveRecall(['a'])).not.toThrow();
    expect(loadRecall()).toEqual([]);
  });
});

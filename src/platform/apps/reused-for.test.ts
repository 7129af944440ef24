import { describe, expect, it } from 'vitest';
import { catalogReusedFor, reusedFor } from './reused-for';

// The reuse window on a clock the test moves (no waiting).

describe('reusedFor', () => {
  it('answers the same arguments from the last read until the window has passed, then reads again', async () => {
    let t = 0;
    let reads = 0;
    const list = reusedFor(2_000, async (limit: number) => [++reads, limit], () => t);
    expect(await list(10)).toEqual([1, 10]);
    t = 1_999;
    expect(await list(10)).toEqual([1, 10]);
    // Other arguments are another list.
    expect(await list(5)).toEqual([2, 5]);
    t = 2_000;
    expect(await list(10)).toEqual([3, 10]);
    expect(reads).toBe(3);
  });

  it('shares a read in flight, and does not keep a failed one', async () => {
    let reads = 0;
    let fail = true;
    const list = reusedFor(2_000, async () => {
      reads++;
      if (fail) throw new Error('unreadable');
      return 'ok';
    }, () => 0);
    const [a, b] = [list(), list()];
    await expect(a).rejects.toThrow('unreadable');
    await expect(b).rejects.toThrow('unreadable');
    expect(reads).toBe(1);
    fail = false;
    expect(await list()).toBe('ok');
    expect(reads).toBe(2);
  });

  it('a catalog keeps launching through the real one', async () => {
    const launched: string[] = [];
    const app = { name: 'XTerm', windowKeys: ['xterm'] } as never;
    const catalog = catalogReusedFor(2_000, { list: async () => [app], launch: async (a) => (launched.push((a as { name: string }).name), { pid: 7 }) }, () => 0);
    expect(await catalog.list()).toEqual([app]);
    expect(await catalog.launch(app)).toEqual({ pid: 7 });
    expect(launched).toEqual(['XTerm']);
  });
});

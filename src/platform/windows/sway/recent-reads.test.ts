import { describe, expect, it } from 'vitest';
import { RecentReads } from './recent-reads';

describe('sway reads reused for a moment', () => {
  it('reuses a read within the window, reads again after it or once forgotten (a command went out)', async () => {
    let t = 1000;
    let reads = 0;
    const r = new RecentReads(250, () => t);
    const read = () => r.get('tree', async () => ++reads);
    expect(await read()).toBe(1);
    t += 250;
    expect(await read()).toBe(1);
    t += 1;
    expect(await read()).toBe(2);
    r.forget();
    expect(await read()).toBe(3);
    const outputs = () => r.get('outputs', async () => ++reads);
    expect(await outputs()).toBe(4);
    r.forget(['outputs']);
    expect(await outputs()).toBe(4);
    expect(await read()).toBe(5);
  });

  it('never hands out a failed read again', async () => {
    let fail = true;
    const r = new RecentReads(250, () => 0);
    const read = () => r.get('tree', async () => (fail ? Promise.reject(new Error('sway went away')) : 'tree'));
    await expect(read()).rejects.toThrow('sway went away');
    fail = false;
    expect(await read()).toBe('tree');
  });
});

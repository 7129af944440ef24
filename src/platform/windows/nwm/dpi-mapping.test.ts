import { describe, expect, it } from 'vitest';
import type { RawMonitor } from '../../../engine/ports';
import { logicalToPhysical, pairForRect, pairMonitors, physicalToLogical } from './dpi-mapping';
import type { NativeMonitor } from './nwm-protocol';

const phys = (handle: number, x: number, y: number, width: number, height: number, scale: number, primary = false): NativeMonitor => ({
  handle,
  bounds: { x, y, width, height },
  workArea: { x, y, width, height },
  primary,
  scale,
});
const dip = (id: string, l: number, t: number, r: number, b: number, scale: number, primary = false): RawMonitor => ({
  id,
  name: id,
  bounds: [l, t, r, b],
  workArea: [l, t, r, b],
  primary,
  scale,
});

describe('pairing physical monitors with injected displays', () => {
  it('pairs by scaled size and primary flag, look-alikes by position', () => {
    // Two identical 150 % monitors left and right of a 100 % primary.
    const physical = [phys(3, 1920, 0, 3840, 2160, 1.5), phys(1, 0, 0, 1920, 1080, 1, true), phys(2, -3840, 0, 3840, 2160, 1.5)];
    const logical = [dip('right', 1920, 0, 4480, 1440, 1.5), dip('left', -2560, 0, 0, 1440, 1.5), dip('main', 0, 0, 1920, 1080, 1, true)];
    const pairs = pairMonitors(physical, logical)!;
    expect(pairs.map((p) => [p.physical.handle, p.logical.id])).toEqual([
      [2, 'left'],
      [1, 'main'],
      [3, 'right'],
    ]);
  });

  it('refuses lists that do not correspond', () => {
    expect(pairMonitors([phys(1, 0, 0, 1920, 1080, 1, true)], [])).toBeNull();
    expect(pairMonitors([phys(1, 0, 0, 1920, 1080, 1, true), phys(2, 1920, 0, 2560, 1440, 1)], [dip('a', 0, 0, 1920, 1080, 1, true), dip('b', 1920, 0, 3840, 1080, 1)])).toBeNull();
  });

  it('a single monitor pairs even when the scales are reported differently', () => {
    expect(pairMonitors([phys(1, 0, 0, 2880, 1800, 1.75, true)], [dip('a', 0, 0, 1440, 900, 2, true)])).toHaveLength(1);
  });
});

describe('converting through a monitor', () => {
  const pair = { physical: phys(3, 1920, 0, 3840, 2160, 1.5), logical: dip('right', 1920, 0, 4480, 1440, 1.5) };

  it('round-trips a rectangle on the monitor', () => {
    const physical: [number, number, number, number] = [2220, 300, 3720, 1200];
    expect(physicalToLogical(physical, pair)).toEqual([2120, 200, 3120, 800]);
    expect(logicalToPhysical([2120, 200, 3120, 800], pair)).toEqual(physical);
  });

  it('keeps halves adjacent: the two halves of the display share an edge in both spaces', () => {
    const left = logicalToPhysical([1920, 0, 3200, 1440], pair);
    const right = logicalToPhysical([3200, 0, 4480, 1440], pair);
    expect(left[2]).toBe(right[0]);
    expect([left[0], right[2]]).toEqual([1920, 5760]);
  });

  it('picks the monitor by overlap, else the nearest', () => {
    const main = { physical: phys(1, 0, 0, 1920, 1080, 1, true), logical: dip('main', 0, 0, 1920, 1080, 1, true) };
    const pairs = [main, pair];
    expect(pairForRect(pairs, [1800, 0, 2600, 600], 'logical')).toBe(pair);
    expect(pairForRect(pairs, [100, 100, 500, 500], 'physical')).toBe(main);
    expect(pairForRect(pairs, [-900, 100, -100, 500], 'logical')).toBe(main);
  });
});

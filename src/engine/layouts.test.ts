import { describe, expect, it } from 'vitest';
import { LAYOUTS } from '../protocol/window-layouts';
import { columns, layoutFrame } from './geometry';
import { assignRoles, inPositionOrder, targetMonitor } from './monitor-roles';
import type { RawMonitor, Rect4 } from './ports';

// Named layouts (Rectangle's set) and monitor targets: pure arithmetic on work areas.

const AREA: Rect4 = [1920, 30, 3840, 1080]; // 1920 × 1050, a panel on top
const WIN: Rect4 = [2000, 100, 2600, 500]; // 600 × 400

describe('layoutFrame', () => {
  it.each([
    ['left_half', [1920, 30, 2880, 1080]],
    ['right_half', [2880, 30, 3840, 1080]],
    ['top_half', [1920, 30, 3840, 555]],
    ['bottom_half', [1920, 555, 3840, 1080]],
    ['top_left', [1920, 30, 2880, 555]],
    ['top_right', [2880, 30, 3840, 555]],
    ['bottom_left', [1920, 555, 2880, 1080]],
    ['bottom_right', [2880, 555, 3840, 1080]],
    ['first_third', [1920, 30, 2560, 1080]],
    ['center_third', [2560, 30, 3200, 1080]],
    ['last_third', [3200, 30, 3840, 1080]],
    ['first_two_thirds', [1920, 30, 3200, 1080]],
    ['last_two_thirds', [2560, 30, 3840, 1080]],
    ['top_left_sixth', [1920, 30, 2560, 555]],
    ['top_center_sixth', [2560, 30, 3200, 555]],
    ['top_right_sixth', [3200, 30, 3840, 555]],
    ['bottom_left_sixth', [1920, 555, 2560, 1080]],
    ['bottom_center_sixth', [2560, 555, 3200, 1080]],
    ['bottom_right_sixth', [3200, 555, 3840, 1080]],
    ['maximize', [1920, 30, 3840, 1080]],
    ['almost_maximize', [2016, 82, 3744, 1027]],
    ['center', [2580, 355, 3180, 755]],
  ] as const)('%s', (layout, frame) => {
    expect(layoutFrame(layout, AREA, WIN)).toEqual(frame);
  });

  it('covers every layout of the protocol, each inside the work area', () => {
    for (const layout of LAYOUTS) {
      const [l, t, r, b] = layoutFrame(layout, AREA, WIN);
      expect(l >= AREA[0] && t >= AREA[1] && r <= AREA[2] && b <= AREA[3] && l < r && t < b, layout).toBe(true);
    }
  });

  it('thirds are rows on a portrait monitor; neighbours share their edges exactly on odd sizes', () => {
    const portrait: Rect4 = [0, 0, 1080, 1921];
    expect(layoutFrame('first_third', portrait, WIN)).toEqual([0, 0, 1080, 640]);
    expect(layoutFrame('center_third', portrait, WIN)).toEqual([0, 640, 1080, 1280]);
    expect(layoutFrame('last_two_thirds', portrait, WIN)).toEqual([0, 640, 1080, 1921]);
    const odd: Rect4 = [0, 0, 1001, 501];
    expect(layoutFrame('left_half', odd, WIN)[2]).toBe(layoutFrame('right_half', odd, WIN)[0]);
    expect(layoutFrame('center_third', odd, WIN)[2]).toBe(layoutFrame('last_third', odd, WIN)[0]);
  });

  it('larger and smaller step by a tenth of the area around the centre, staying inside it and above a quarter', () => {
    expect(layoutFrame('larger', AREA, WIN)).toEqual([1920, 48, 2712, 553]);
    expect(layoutFrame('smaller', AREA, WIN)).toEqual([2060, 153, 2540, 448]);
    // Already at the right edge: it grows leftwards; already full size: it stays.
    expect(layoutFrame('larger', AREA, [3400, 500, 3840, 900])).toEqual([3208, 448, 3840, 953]);
    expect(layoutFrame('larger', AREA, AREA)).toEqual(AREA);
    // Small windows stop shrinking at a quarter of the area (or their own size, if smaller).
    expect(layoutFrame('smaller', AREA, [2000, 100, 2500, 400])).toEqual([2010, 119, 2490, 381]);
    expect(layoutFrame('smaller', AREA, [2000, 100, 2100, 200])).toEqual([2000, 100, 2100, 200]);
  });

  it('columns tile the work area left to right', () => {
    expect(columns(AREA, 3)).toEqual([
      [1920, 30, 2560, 1080],
      [2560, 30, 3200, 1080],
      [3200, 30, 3840, 1080],
    ]);
  });
});

const mon = (id: string, bounds: Rect4, primary = false): RawMonitor => ({ id, name: id, bounds, workArea: bounds, primary, scale: 1 });

describe('monitor roles and targets', () => {
  it('a monitor wholly above another is "top", the one below "bottom"; side by side there are none', () => {
    const stacked = assignRoles([mon('LAPTOP', [0, 0, 1728, 1117], true), mon('LG', [-416, -1440, 2144, 0])]);
    expect(stacked.map((m) => [m.name, m.roles])).toEqual([
      ['LAPTOP', ['main', 'right', 'bottom']],
      ['LG', ['left', 'top']],
    ]);
    const overlapping = assignRoles([mon('A', [0, 0, 1512, 982], true), mon('B', [1512, -458, 4072, 982])]);
    expect(overlapping.flatMap((m) => m.roles)).not.toContain('top');
  });

  it('numbers follow the context, next/previous the positions left to right (wrapping)', () => {
    const ms = assignRoles([mon('MID', [1920, 0, 3840, 1080], true), mon('L', [0, 0, 1920, 1080]), mon('R', [3840, 0, 5760, 1080])]);
    expect(inPositionOrder(ms).map((m) => m.name)).toEqual(['L', 'MID', 'R']);
    const at = (name: string) => ms.find((m) => m.name === name)!;
    const name = (t: Parameters<typeof targetMonitor>[1], current: string | null) => {
      const m = targetMonitor(ms, t, current ? at(current) : null);
      return typeof m === 'string' ? m : m.name;
    };
    expect([name('1', null), name('3', null), name('next', 'MID'), name('next', 'R'), name('previous', 'L')]).toEqual(['MID', 'R', 'R', 'L', 'R']);
    expect(name('4', null)).toBe('there is no monitor 4 (3 monitors are connected)');
    expect(name('next', null)).toBe('the window is on no monitor, so there is no next one');
    expect(name('top', null)).toBe('no "top" monitor is connected');
  });
});

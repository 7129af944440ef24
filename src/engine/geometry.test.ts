import { describe, expect, it } from 'vitest';
import type { RawWindow } from './ports';
import { groupWindows, nameResolver } from './app-grouping';
import { formatRect, fromRelative, toRelative, transferRect } from './geometry';
import { assignRoles, monitorOf } from './monitor-roles';
import { capturePreset, placementFrame } from './presets';

const LEFT = { id: 'L', name: 'LEFT', bounds: [0, 0, 1920, 1080] as [number, number, number, number], workArea: [0, 0, 1920, 1080] as [number, number, number, number], primary: true, scale: 1 };
const RIGHT = { id: 'R', name: 'RIGHT', bounds: [1920, 0, 3840, 1080] as [number, number, number, number], workArea: [1920, 30, 3840, 1080] as [number, number, number, number], primary: false, scale: 1 };
const win = (over: Partial<RawWindow>): RawWindow => ({
  id: '0x1', pid: 1, appKeys: ['xterm', 'XTerm'], fallbackName: 'XTerm', title: 't', bounds: [100, 100, 900, 700], focused: false, minimized: false, ...over,
});

describe('monitor roles', () => {
  it('main is the primary, left/right the leftmost/rightmost; one monitor is all three', () => {
    const two = assignRoles([RIGHT, LEFT]);
    expect(two.map((m) => [m.name, m.roles])).toEqual([['RIGHT', ['right']], ['LEFT', ['main', 'left']]]);
    expect(assignRoles([{ ...RIGHT, primary: false }])[0]!.roles).toEqual(['main', 'left', 'right']);
    expect(assignRoles([{ ...LEFT, primary: false }, { ...RIGHT, primary: true }]).find((m) => m.primary)!.name).toBe('RIGHT');
  });

  it('a window belongs to the monitor holding most of it', () => {
    const ms = assignRoles([LEFT, RIGHT]);
    expect(monitorOf([1800, 0, 2400, 500], ms)!.name).toBe('RIGHT');
    expect(monitorOf([5000, 0, 5100, 100], ms)).toBeNull();
  });
});

describe('geometry', () => {
  it('moves a frame to another work area keeping relative position and size, clamped', () => {
    expect(transferRect([100, 100, 900, 700], [0, 0, 1920, 1080], [1920, 30, 3840, 1080])).toEqual([2020, 127, 2820, 710]);
    // Too large for the target: shrunk to fit and kept inside.
    expect(transferRect([0, 0, 3000, 1000], [0, 0, 4000, 1000], [0, 0, 1000, 500])).toEqual([0, 0, 750, 500]);
    expect(transferRect([1800, 900, 1920, 1080], [0, 0, 1920, 1080], [1920, 0, 3840, 1080])).toEqual([3720, 900, 3840, 1080]);
  });

  it('converts between relative and absolute placements', () => {
    expect(fromRelative([0, 0, 0.5, 1], [1920, 30, 3840, 1080])).toEqual([1920, 30, 2880, 1080]);
    expect(toRelative([1920, 30, 2880, 1080], [1920, 30, 3840, 1080])).toEqual([0, 0, 0.5, 1]);
    expect(toRelative([-50, 0, 500, 2000], [0, 0, 1000, 1000])).toEqual([0, 0, 0.55, 1]);
    expect(formatRect([2020, 100, 2820, 700])).toBe('2020,100 800x600');
  });
});

describe('apps from windows', () => {
  it('names windows from the catalog by WM_CLASS, else by the fallback, grouped most recent first', () => {
    const nameOf = nameResolver([{ name: 'XTerm', id: 'debian-xterm.desktop', windowKeys: ['xterm'] }]);
    const apps = groupWindows(
      [win({ id: 'a' }), win({ id: 'b', appKeys: ['xclock', 'XClock'], fallbackName: 'XClock', bounds: [2000, 0, 2200, 200] }), win({ id: 'c', appKeys: ['XTerm'] })],
      nameOf,
      assignRoles([LEFT, RIGHT]),
    );
    expect(apps.map((a) => [a.name, a.windows.map((w) => [w.id, w.monitor])])).toEqual([
      ['XTerm', [['a', 'LEFT'], ['c', 'LEFT']]],
      ['XClock', [['b', 'RIGHT']]],
    ]);
  });
});

describe('presets geometry', () => {
  const ms = assignRoles([LEFT, RIGHT]);
  it('captures relative placements by left/right role and places them back exactly', () => {
    const desk = { windows: [win({ bounds: [1920, 30, 2880, 1080] }), win({ id: 'm', minimized: true, appKeys: ['x'], fallbackName: 'Min' })], nameOf: (w: RawWindow) => w.fallbackName, monitors: ms };
    const preset = capturePreset('code space', desk);
    expect(preset).toEqual({ name: 'code space', placements: [{ app: 'XTerm', monitor: 'right', rect: [0, 0, 0.5, 1], launch: true }], urls: [] });
    expect(placementFrame(preset.placements[0]!, ms)).toEqual({ frame: [1920, 30, 2880, 1080], note: '' });
  });

  it('adapts a two-monitor preset to one monitor and says so', () => {
    const one = assignRoles([LEFT]);
    const r = placementFrame({ app: 'XTerm', monitor: 'right', rect: [0.5, 0, 0.5, 1], launch: true }, one);
    expect(r.frame).toEqual([960, 0, 1920, 1080]);
    expect(r.note).toBe(' — only one monitor is connected, so "right" is LEFT');
    const named = placementFrame({ app: 'XTerm', monitor: 'DP-7', rect: [0, 0, 1, 1], launch: true }, one);
    expect(named.note).toBe(' — monitor DP-7 is not connected, so it went to LEFT');
  });
});

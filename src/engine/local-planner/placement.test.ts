import { describe, expect, it } from 'vitest';
import { centred, currentMonitor, halfOf, maximised, roleFor } from './placement';
import { laptop, threeMonitors, twoMonitors } from './test-fixtures';

describe('bounds arithmetic on a work area [l, t, r, b]', () => {
  const area = [1920, 0, 4480, 1400];

  it('halves tile the area exactly', () => {
    expect(halfOf(area, 'left')).toEqual([1920, 0, 3200, 1400]);
    expect(halfOf(area, 'right')).toEqual([3200, 0, 4480, 1400]);
    expect(halfOf(area, 'top')).toEqual([1920, 0, 4480, 700]);
    expect(halfOf(area, 'bottom')).toEqual([1920, 700, 4480, 1400]);
  });

  it('rounds an odd width down on the left half, so the halves still meet', () => {
    expect(halfOf([0, 0, 1511, 900], 'left')).toEqual([0, 0, 755, 900]);
    expect(halfOf([0, 0, 1511, 900], 'right')).toEqual([755, 0, 1511, 900]);
  });

  it('maximise is the work area', () => {
    expect(maximised([0, 32, 1920, 1080])).toEqual([0, 32, 1920, 1080]);
  });

  it('centres W×H, rounding down, and refuses what does not fit', () => {
    expect(centred([0, 32, 1920, 1080], 1200, 800)).toEqual([360, 156, 1560, 956]);
    expect(centred([0, 25, 1440, 900], 1001, 701)).toEqual([219, 112, 1220, 813]);
    expect(centred([0, 0, 1920, 1080], 1921, 500)).toBeNull();
    expect(centred([0, 0, 1920, 1080], 0, 500)).toBeNull();
  });
});

describe('monitors', () => {
  it('finds the monitor of an app by its window', () => {
    const snap = twoMonitors();
    const cursor = snap.running_apps.find((a) => a.name === 'Cursor')!;
    expect(currentMonitor(snap, cursor)?.name).toBe('RIGHT');
  });

  it('falls back to overlap when the window names no monitor', () => {
    const snap = twoMonitors();
    const slack = snap.running_apps.find((a) => a.name === 'Slack')!;
    slack.windows[0]!.monitor = null;
    expect(currentMonitor(snap, slack)?.name).toBe('LEFT');
  });

  it('with one monitor it is always that one', () => {
    const snap = laptop();
    expect(currentMonitor(snap, { name: 'X', pid: null, windows: [] })?.name).toBe('eDP-1');
  });

  it('names a monitor by a role only it has', () => {
    const [left, main, right] = threeMonitors().monitors;
    expect([roleFor(left!), roleFor(main!), roleFor(right!)]).toEqual(['left', 'main', 'right']);
  });
});

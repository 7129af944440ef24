import { describe, expect, it } from 'vitest';
import type { Rect4 } from '../../../engine/ports';
import { intersect, monitorWorkArea, parseStrut, strutsExplainWorkarea, subtractStruts } from './monitor-work-area';

const W = 3840;
const H = 1080;
const LEFT: Rect4 = [0, 0, 1920, 1080];
const RIGHT: Rect4 = [1920, 0, 3840, 1080];

// A 50 px panel along the bottom of the left monitor only, as a dock declares it.
const bottomPanelLeft = parseStrut([0, 0, 0, 50, 0, 0, 0, 0, 0, 0, 0, 1919], [], W, H)!;
// A 30 px panel along the top of the right monitor only.
const topPanelRight = parseStrut([0, 0, 30, 0, 0, 0, 0, 0, 1920, 3839, 0, 0], [], W, H)!;

describe('struts', () => {
  it('reads _NET_WM_STRUT_PARTIAL, falls back to _NET_WM_STRUT as a full-edge strut, and ignores empty ones', () => {
    expect(bottomPanelLeft).toMatchObject({ bottom: 50, bottomStartX: 0, bottomEndX: 1919 });
    expect(parseStrut([], [0, 0, 25, 0], W, H)).toMatchObject({ top: 25, topStartX: 0, topEndX: W - 1 });
    expect(parseStrut([], [], W, H)).toBeNull();
    expect(parseStrut([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], [], W, H)).toBeNull();
  });

  it('cuts a partial strut only from the monitor it spans', () => {
    expect(subtractStruts(LEFT, [bottomPanelLeft], W, H)).toEqual([0, 0, 1920, 1030]);
    expect(subtractStruts(RIGHT, [bottomPanelLeft], W, H)).toEqual(RIGHT);
    expect(subtractStruts(RIGHT, [topPanelRight], W, H)).toEqual([1920, 30, 3840, 1080]);
    expect(subtractStruts(LEFT, [topPanelRight], W, H)).toEqual(LEFT);
  });

  it('cuts left and right struts by their distance from the screen edge', () => {
    const leftDock = parseStrut([64, 0, 0, 0, 0, 1079, 0, 0, 0, 0, 0, 0], [], W, H)!;
    const rightDock = parseStrut([0, 48, 0, 0, 0, 0, 0, 1079, 0, 0, 0, 0], [], W, H)!;
    expect(subtractStruts(LEFT, [leftDock, rightDock], W, H)).toEqual([64, 0, 1920, 1080]);
    expect(subtractStruts(RIGHT, [leftDock, rightDock], W, H)).toEqual([1920, 0, 3792, 1080]);
  });
});

describe('monitor work area', () => {
  it('is the monitor bounds when nothing is reserved', () => {
    expect(monitorWorkArea({ bounds: RIGHT, workarea: [0, 0, W, H], struts: [], screenWidth: W, screenHeight: H })).toEqual(RIGHT);
  });

  it("does not shorten the other monitor by the WM's whole-screen _NET_WORKAREA", () => {
    // openbox reports 0,0,3840,1030 for the left-only bottom panel.
    const workarea: Rect4 = [0, 0, W, 1030];
    const input = { workarea, struts: [bottomPanelLeft], screenWidth: W, screenHeight: H };
    expect(monitorWorkArea({ ...input, bounds: LEFT })).toEqual([0, 0, 1920, 1030]);
    expect(monitorWorkArea({ ...input, bounds: RIGHT })).toEqual(RIGHT);
  });

  it('intersects _NET_WORKAREA when struts do not explain it (WM margins, unseen panels)', () => {
    const margins: Rect4 = [0, 10, W, H];
    expect(strutsExplainWorkarea(margins, [], W, H)).toBe(false);
    expect(monitorWorkArea({ bounds: RIGHT, workarea: margins, struts: [], screenWidth: W, screenHeight: H })).toEqual([1920, 10, 3840, 1080]);
  });

  it('falls back to the bounds when there is no _NET_WORKAREA at all', () => {
    expect(monitorWorkArea({ bounds: LEFT, workarea: null, struts: [], screenWidth: W, screenHeight: H })).toEqual(LEFT);
  });

  it('intersects rectangles, null when they do not overlap', () => {
    expect(intersect(LEFT, [100, 100, 4000, 500])).toEqual([100, 100, 1920, 500]);
    expect(intersect(LEFT, RIGHT)).toBeNull();
  });
});

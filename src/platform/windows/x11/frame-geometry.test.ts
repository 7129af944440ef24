import { describe, expect, it } from 'vitest';
import { clientSizeForFrame, constrainClientSize, expectedFrame, outerFrame, parseExtents, parseSizeHints, sameRect } from './frame-geometry';

// openbox's default theme: left, right, top, bottom.
const OPENBOX = parseExtents([1, 1, 20, 5]);
// xterm's WM_NORMAL_HINTS as xprop shows them: min 10x17, inc 6x13, base 4x4 (flags PMinSize|PResizeInc|PBaseSize).
const XTERM_HINTS = [16 | 64 | 256, 0, 0, 0, 0, 10, 17, 0, 0, 6, 13, 0, 0, 0, 0, 4, 4, 1];

describe('frame extents', () => {
  it('reads left, right, top, bottom and treats a missing property as no decorations', () => {
    expect(OPENBOX).toEqual({ left: 1, right: 1, top: 20, bottom: 5 });
    expect(parseExtents([])).toEqual({ left: 0, right: 0, top: 0, bottom: 0 });
  });
});

describe('outer frame from client geometry', () => {
  it('adds the extents around the client (xterm at 196,72 484x316 → frame 195,52..681,393)', () => {
    expect(outerFrame({ x: 196, y: 72, width: 484, height: 316, border: 0 }, OPENBOX)).toEqual([195, 52, 681, 393]);
  });

  it('counts the X border width of the client too', () => {
    expect(outerFrame({ x: 10, y: 10, width: 100, height: 50, border: 2 }, parseExtents([0, 0, 0, 0]))).toEqual([8, 8, 112, 62]);
  });

  it('round-trips: the client size for a frame gives back that frame', () => {
    const frame: [number, number, number, number] = [2020, 100, 2820, 700];
    const size = clientSizeForFrame(frame, OPENBOX, 0);
    expect(size).toEqual({ width: 798, height: 575 });
    expect(outerFrame({ x: 2020 + 1, y: 100 + 20, ...size, border: 0 }, OPENBOX)).toEqual(frame);
  });

  it('never asks for a client smaller than 1x1', () => {
    expect(clientSizeForFrame([0, 0, 2, 2], OPENBOX, 0)).toEqual({ width: 1, height: 1 });
  });
});

describe('size hints', () => {
  it('parses xterm-style hints, defaulting what is not set', () => {
    expect(parseSizeHints(XTERM_HINTS)).toEqual({
      minWidth: 10,
      minHeight: 17,
      maxWidth: Infinity,
      maxHeight: Infinity,
      widthInc: 6,
      heightInc: 13,
      baseWidth: 4,
      baseHeight: 4,
    });
    expect(parseSizeHints([])).toBeNull();
  });

  it('uses the minimum size as base size when no base is given (ICCCM)', () => {
    const hints = parseSizeHints([16 | 64, 0, 0, 0, 0, 10, 20, 0, 0, 5, 5, 0, 0, 0, 0]);
    expect(hints).toMatchObject({ baseWidth: 10, baseHeight: 20 });
  });

  it('rounds a requested size down to whole character cells', () => {
    const hints = parseSizeHints(XTERM_HINTS);
    // 798 = 4 + 132*6 + 2 → 796; 575 = 4 + 43*13 + 12 → 563
    expect(constrainClientSize(798, 575, hints)).toEqual({ width: 796, height: 563 });
  });

  it('clamps to minimum and maximum sizes (fixed-size windows)', () => {
    const fixed = parseSizeHints([16 | 32, 0, 0, 0, 0, 164, 164, 164, 164, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(constrainClientSize(800, 20, fixed)).toEqual({ width: 164, height: 164 });
  });

  it('predicts the frame xterm lands on: same top-left, size rounded down', () => {
    expect(expectedFrame([2020, 100, 2820, 700], OPENBOX, 0, parseSizeHints(XTERM_HINTS))).toEqual([2020, 100, 2818, 688]);
    expect(expectedFrame([2020, 100, 2820, 700], OPENBOX, 0, null)).toEqual([2020, 100, 2820, 700]);
  });

  it('compares rectangles by value', () => {
    expect(sameRect([1, 2, 3, 4], [1, 2, 3, 4])).toBe(true);
    expect(sameRect([1, 2, 3, 4], [1, 2, 3, 5])).toBe(false);
  });
});

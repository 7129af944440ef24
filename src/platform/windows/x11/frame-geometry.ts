// Frame math: the engine speaks in outer frames (decorations included), X11 positions and
// sizes client windows. Pure, so it is unit-tested without a display.
import type { Rect4 } from '../../../engine/ports';

/** Decoration widths the window manager adds around a client (_NET_FRAME_EXTENTS). */
export interface FrameExtents {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

export const NO_EXTENTS: FrameExtents = { left: 0, right: 0, top: 0, bottom: 0 };

/** A client window: absolute position of its origin (inside its X border), size, border width. */
export interface ClientGeometry {
  x: number;
  y: number;
  width: number;
  height: number;
  border: number;
}

/** _NET_FRAME_EXTENTS is left, right, top, bottom; absent (undecorated, or no WM support) is 0. */
export function parseExtents(values: readonly number[]): FrameExtents {
  if (values.length < 4) return NO_EXTENTS;
  const [left, right, top, bottom] = values as [number, number, number, number];
  return { left, right, top, bottom };
}

export function outerFrame(client: ClientGeometry, ext: FrameExtents): Rect4 {
  const { x, y, width, height, border } = client;
  return [x - border - ext.left, y - border - ext.top, x + width + border + ext.right, y + height + border + ext.bottom];
}

/** The client size that makes the outer frame `frame` wide and tall (at least 1x1). */
export function clientSizeForFrame(frame: Rect4, ext: FrameExtents, border: number): { width: number; height: number } {
  const [l, t, r, b] = frame;
  return {
    width: Math.max(1, r - l - ext.left - ext.right - 2 * border),
    height: Math.max(1, b - t - ext.top - ext.bottom - 2 * border),
  };
}

/** The parts of ICCCM WM_NORMAL_HINTS that decide which client sizes a window accepts. */
export interface SizeHints {
  minWidth: number;
  minHeight: number;
  maxWidth: number;
  maxHeight: number;
  widthInc: number;
  heightInc: number;
  baseWidth: number;
  baseHeight: number;
}

const P_MIN_SIZE = 1 << 4;
const P_MAX_SIZE = 1 << 5;
const P_RESIZE_INC = 1 << 6;
const P_BASE_SIZE = 1 << 8;

/**
 * WM_NORMAL_HINTS (WM_SIZE_HINTS, 18 CARD32): flags, x, y, width, height, min w/h, max w/h,
 * inc w/h, min aspect (2), max aspect (2), base w/h, gravity. null when absent or short.
 */
export function parseSizeHints(values: readonly number[]): SizeHints | null {
  if (values.length < 15) return null;
  const v = (i: number) => values[i] ?? 0;
  const flags = v(0);
  const hasMin = (flags & P_MIN_SIZE) !== 0;
  const hasBase = (flags & P_BASE_SIZE) !== 0 && values.length >= 17;
  // ICCCM: a missing base size defaults to the minimum size and vice versa.
  const min = hasMin ? [v(5), v(6)] : hasBase ? [v(15), v(16)] : [0, 0];
  const base = hasBase ? [v(15), v(16)] : hasMin ? [v(5), v(6)] : [0, 0];
  const max = (flags & P_MAX_SIZE) !== 0 ? [v(7) || Infinity, v(8) || Infinity] : [Infinity, Infinity];
  const inc = (flags & P_RESIZE_INC) !== 0 ? [Math.max(1, v(9)), Math.max(1, v(10))] : [1, 1];
  return {
    minWidth: min[0]!,
    minHeight: min[1]!,
    maxWidth: max[0]!,
    maxHeight: max[1]!,
    widthInc: inc[0]!,
    heightInc: inc[1]!,
    baseWidth: base[0]!,
    baseHeight: base[1]!,
  };
}

/** The size a hint-respecting window manager grants for a requested client size (clamp, then round down to a step). */
export function constrainClientSize(width: number, height: number, hints: SizeHints | null): { width: number; height: number } {
  if (!hints) return { width, height };
  const fit = (want: number, min: number, max: number, base: number, inc: number) => {
    const clamped = Math.min(Math.max(want, min), max);
    return clamped < base ? clamped : base + Math.floor((clamped - base) / inc) * inc;
  };
  return {
    width: fit(width, hints.minWidth, hints.maxWidth, hints.baseWidth, hints.widthInc),
    height: fit(height, hints.minHeight, hints.maxHeight, hints.baseHeight, hints.heightInc),
  };
}

/** The outer frame a window should end up with when asked for `target` (top-left kept, size constrained). */
export function expectedFrame(target: Rect4, ext: FrameExtents, border: number, hints: SizeHints | null): Rect4 {
  const wanted = clientSizeForFrame(target, ext, border);
  const got = constrainClientSize(wanted.width, wanted.height, hints);
  const [l, t] = target;
  return [l, t, l + got.width + ext.left + ext.right + 2 * border, t + got.height + ext.top + ext.bottom + 2 * border];
}

export function sameRect(a: Rect4, b: Rect4): boolean {
  return a[0] === b[0] && a[1] === b[1] && a[2] === b[2] && a[3] === b[3];
}

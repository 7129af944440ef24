// Per-monitor work areas. EWMH's _NET_WORKAREA is ONE rectangle for the whole screen, and window
// managers cut every strut out of it across the full width or height: with a panel along the
// bottom of the left monitor only, openbox reports 0,0,3840,1030, which would wrongly shorten
// the right monitor too. So each monitor's work area is its bounds minus the struts
// (_NET_WM_STRUT_PARTIAL, else _NET_WM_STRUT) of the managed windows that overlap it.
// _NET_WORKAREA is still consulted: when it is inset further than the struts explain (window
// manager margins, a panel we cannot see), it is intersected in as well, erring on the side
// of never placing a window under a panel. Pure, so it is unit-tested.
import type { Rect4 } from '../../../engine/ports';

/** One strut, normalised to the 12-value _NET_WM_STRUT_PARTIAL form (root-relative, ends inclusive). */
export interface Strut {
  left: number;
  right: number;
  top: number;
  bottom: number;
  leftStartY: number;
  leftEndY: number;
  rightStartY: number;
  rightEndY: number;
  topStartX: number;
  topEndX: number;
  bottomStartX: number;
  bottomEndX: number;
}

/**
 * From _NET_WM_STRUT_PARTIAL (12 values) or, when that is absent, _NET_WM_STRUT (4 values,
 * spanning the whole screen edge). null when the window reserves nothing.
 */
export function parseStrut(partial: readonly number[], legacy: readonly number[], screenWidth: number, screenHeight: number): Strut | null {
  const v = partial.length >= 12 ? partial : legacy.length >= 4 ? [...legacy.slice(0, 4), 0, screenHeight - 1, 0, screenHeight - 1, 0, screenWidth - 1, 0, screenWidth - 1] : null;
  if (!v) return null;
  const n = (i: number) => v[i] ?? 0;
  const strut: Strut = {
    left: n(0),
    right: n(1),
    top: n(2),
    bottom: n(3),
    leftStartY: n(4),
    leftEndY: n(5),
    rightStartY: n(6),
    rightEndY: n(7),
    topStartX: n(8),
    topEndX: n(9),
    bottomStartX: n(10),
    bottomEndX: n(11),
  };
  return strut.left || strut.right || strut.top || strut.bottom ? strut : null;
}

/** Inclusive [start, end] overlaps half-open [lo, hi). */
const spans = (start: number, end: number, lo: number, hi: number) => start < hi && end >= lo;

/** The monitor's bounds with every overlapping strut cut off its side. */
export function subtractStruts(bounds: Rect4, struts: readonly Strut[], screenWidth: number, screenHeight: number): Rect4 {
  let [l, t, r, b] = bounds;
  const [ml, mt, mr, mb] = bounds;
  for (const s of struts) {
    // A strut is a band along a screen edge; it concerns a monitor when the band overlaps it.
    if (s.left > ml && spans(s.leftStartY, s.leftEndY, mt, mb)) l = Math.max(l, s.left);
    if (s.right > 0 && screenWidth - s.right < mr && spans(s.rightStartY, s.rightEndY, mt, mb)) r = Math.min(r, screenWidth - s.right);
    if (s.top > mt && spans(s.topStartX, s.topEndX, ml, mr)) t = Math.max(t, s.top);
    if (s.bottom > 0 && screenHeight - s.bottom < mb && spans(s.bottomStartX, s.bottomEndX, ml, mr)) b = Math.min(b, screenHeight - s.bottom);
  }
  return [l, t, Math.max(l, r), Math.max(t, b)];
}

/** Whether the struts account for every inset of _NET_WORKAREA from the screen edges. */
export function strutsExplainWorkarea(workarea: Rect4, struts: readonly Strut[], screenWidth: number, screenHeight: number): boolean {
  const most = (pick: (s: Strut) => number) => struts.reduce((m, s) => Math.max(m, pick(s)), 0);
  const [l, t, r, b] = workarea;
  return (
    l <= most((s) => s.left) &&
    t <= most((s) => s.top) &&
    screenWidth - r <= most((s) => s.right) &&
    screenHeight - b <= most((s) => s.bottom)
  );
}

export function intersect(a: Rect4, b: Rect4): Rect4 | null {
  const l = Math.max(a[0], b[0]);
  const t = Math.max(a[1], b[1]);
  const r = Math.min(a[2], b[2]);
  const bo = Math.min(a[3], b[3]);
  return l < r && t < bo ? [l, t, r, bo] : null;
}

export interface WorkAreaInput {
  bounds: Rect4;
  /** _NET_WORKAREA for the current desktop, or null when the window manager does not set it. */
  workarea: Rect4 | null;
  struts: readonly Strut[];
  screenWidth: number;
  screenHeight: number;
}

export function monitorWorkArea({ bounds, workarea, struts, screenWidth, screenHeight }: WorkAreaInput): Rect4 {
  const cut = subtractStruts(bounds, struts, screenWidth, screenHeight);
  const usable = cut[0] < cut[2] && cut[1] < cut[3] ? cut : bounds;
  if (!workarea || strutsExplainWorkarea(workarea, struts, screenWidth, screenHeight)) return usable;
  return intersect(usable, workarea) ?? intersect(bounds, workarea) ?? usable;
}

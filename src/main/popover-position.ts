// Where the tray popover goes, as plain geometry so it can be tested without Electron:
// below the menu bar on macOS, above (or beside) the taskbar on Windows, near the click on
// Linux (whose tray reports no bounds), always inside the work area of the tray's display.

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}
export interface Point {
  x: number;
  y: number;
}
export interface Size {
  width: number;
  height: number;
}

/** What the popover hangs from: the tray icon, the click position, or nothing known. */
export type Anchor = { kind: 'tray'; bounds: Rect } | { kind: 'cursor'; point: Point } | { kind: 'none' };

/** Between the menu bar / taskbar and the popover. */
export const GAP = 6;
/** Kept free between the popover and the left/right edges of the work area. */
export const EDGE_MARGIN = 8;

/** Linux (and Windows, at times) reports {0,0,0,0} for the tray icon. */
export const isEmptyRect = (r: Rect | null | undefined): boolean => !r || r.width <= 0 || r.height <= 0;

/**
 * The tray icon's bounds when the OS reports them; else where the click was (Linux passes the
 * cursor only for clicks on the tray); else nothing, and the popover goes top-right.
 */
export function chooseAnchor(trayBounds: Rect | null | undefined, cursor: Point | null | undefined): Anchor {
  if (trayBounds && !isEmptyRect(trayBounds)) return { kind: 'tray', bounds: trayBounds };
  if (cursor) return { kind: 'cursor', point: cursor };
  return { kind: 'none' };
}

export type Edge = 'top' | 'bottom' | 'left' | 'right';

/** Which screen edge the tray sits on, judged by where it lies relative to the work area. */
export function trayEdge(platform: NodeJS.Platform, a: Rect, work: Rect): Edge {
  if (platform === 'darwin') return 'top';
  if (a.y >= work.y + work.height) return 'bottom';
  if (a.y + a.height <= work.y) return 'top';
  if (a.x + a.width <= work.x) return 'left';
  if (a.x >= work.x + work.width) return 'right';
  // Inside the work area (an auto-hiding taskbar, a panel that reserves no space): by halves.
  return a.y + a.height / 2 < work.y + work.height / 2 ? 'top' : 'bottom';
}

const clamp = (v: number, lo: number, hi: number) => (hi < lo ? lo : Math.min(Math.max(v, lo), hi));

/** Top-left corner for a popover of `size`; `work` is the work area of the anchor's display. */
export function popoverPosition(platform: NodeJS.Platform, anchor: Anchor, work: Rect, size: Size): Point {
  const clampX = (x: number) => clamp(x, work.x + EDGE_MARGIN, work.x + work.width - size.width - EDGE_MARGIN);
  const clampY = (y: number) => clamp(y, work.y, work.y + work.height - size.height);
  if (anchor.kind === 'none') {
    return { x: Math.round(clampX(Infinity)), y: Math.round(work.y + GAP) };
  }
  const a: Rect = anchor.kind === 'tray' ? anchor.bounds : { ...anchor.point, width: 0, height: 0 };
  const centreX = a.x + a.width / 2 - size.width / 2;
  const centreY = a.y + a.height / 2 - size.height / 2;
  // Measured from the taskbar / menu bar edge of the work area when the icon lies outside it,
  // so the gap is the same whether the OS reports the icon's rectangle or only the click.
  const right = work.x + work.width;
  const bottom = work.y + work.height;
  let p: Point;
  switch (trayEdge(platform, a, work)) {
    case 'top':
      p = { x: centreX, y: Math.max(a.y + a.height, work.y) + GAP };
      break;
    case 'bottom':
      p = { x: centreX, y: Math.min(a.y, bottom) - size.height - GAP };
      break;
    case 'left':
      p = { x: Math.max(a.x + a.width, work.x) + GAP, y: centreY };
      break;
    case 'right':
      p = { x: Math.min(a.x, right) - size.width - GAP, y: centreY };
      break;
  }
  return { x: Math.round(clampX(p.x)), y: Math.round(clampY(p.y)) };
}

/** The launcher: centred in the work area of the display the cursor is on. */
export function centred(work: Rect, size: Size): Point {
  return {
    x: Math.round(work.x + Math.max(0, (work.width - size.width) / 2)),
    y: Math.round(work.y + Math.max(0, (work.height - size.height) / 2)),
  };
}

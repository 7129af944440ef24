// Windows: converting between the physical pixels the addon reports and the displays injected
// by the app (Electron's screen module reports device-independent pixels, DIP).
//
// Assumptions (unverified on a real mixed-DPI desktop):
// - The helper is per-monitor DPI aware, so GetWindowRect and GetMonitorInfo both answer in
//   physical pixels. Electron's exe manifest declares <dpiAware>true/pm</dpiAware>, and a forked
//   helper runs that exe. Plain node.exe declares nothing: Windows then DPI-virtualises both
//   rectangles, which stays consistent while every monitor has the same scale.
// - Within one monitor the mapping is linear and anchored at the monitor's origin, as Chromium
//   maps screen ↔ DIP: dip = dipOrigin + (physical − physicalOrigin) · dipSize / physicalSize.
//   Between monitors there is no single linear mapping, so each rectangle is converted through
//   the monitor it belongs to.
import type { RawMonitor, Rect4 } from '../../../engine/ports';
import type { NativeMonitor } from './nwm-protocol';
import { toRect4 } from './native-rect';

export interface MonitorPair {
  physical: NativeMonitor;
  logical: RawMonitor;
}

const width = (r: Rect4) => r[2] - r[0];
const height = (r: Rect4) => r[3] - r[1];

/** Same display: the logical size times its scale is the physical size (±2 px of rounding). */
function corresponds(physical: NativeMonitor, logical: RawMonitor): boolean {
  const s = logical.scale || 1;
  const tolerance = 2 * s;
  return (
    Math.abs(width(logical.bounds) * s - physical.bounds.width) <= tolerance &&
    Math.abs(height(logical.bounds) * s - physical.bounds.height) <= tolerance
  );
}

const byPosition = (a: [number, number], b: [number, number]) => a[0] - b[0] || a[1] - b[1];

/**
 * Pairs each physical monitor with the injected display it is: same size once scaled, the
 * primary with the primary; displays that look alike are paired in left-to-right,
 * top-to-bottom order, which both spaces keep.
 * null when the lists do not correspond one to one (e.g. a display was just plugged in).
 */
export function pairMonitors(physical: NativeMonitor[], logical: RawMonitor[]): MonitorPair[] | null {
  if (physical.length !== logical.length || physical.length === 0) return null;
  if (physical.length === 1) return [{ physical: physical[0]!, logical: logical[0]! }];
  const unpaired = new Set(logical);
  const pairs: MonitorPair[] = [];
  const sortedPhysical = [...physical].sort((a, b) => byPosition([a.bounds.x, a.bounds.y], [b.bounds.x, b.bounds.y]));
  for (const p of sortedPhysical) {
    const match = [...unpaired]
      .filter((l) => corresponds(p, l))
      .sort(
        (a, b) =>
          Number(b.primary === p.primary) - Number(a.primary === p.primary) ||
          byPosition([a.bounds[0], a.bounds[1]], [b.bounds[0], b.bounds[1]]),
      )[0];
    if (!match) return null;
    unpaired.delete(match);
    pairs.push({ physical: p, logical: match });
  }
  return pairs;
}

function mapRect(r: Rect4, from: Rect4, to: Rect4): Rect4 {
  const sx = width(to) / width(from);
  const sy = height(to) / height(from);
  return [
    Math.round(to[0] + (r[0] - from[0]) * sx),
    Math.round(to[1] + (r[1] - from[1]) * sy),
    Math.round(to[0] + (r[2] - from[0]) * sx),
    Math.round(to[1] + (r[3] - from[1]) * sy),
  ];
}

export function physicalToLogical(r: Rect4, pair: MonitorPair): Rect4 {
  return mapRect(r, toRect4(pair.physical.bounds), pair.logical.bounds);
}

export function logicalToPhysical(r: Rect4, pair: MonitorPair): Rect4 {
  return mapRect(r, pair.logical.bounds, toRect4(pair.physical.bounds));
}

const overlap = (a: Rect4, b: Rect4) =>
  Math.max(0, Math.min(a[2], b[2]) - Math.max(a[0], b[0])) * Math.max(0, Math.min(a[3], b[3]) - Math.max(a[1], b[1]));

const centreDistance = (a: Rect4, b: Rect4) =>
  Math.hypot((a[0] + a[2]) / 2 - (b[0] + b[2]) / 2, (a[1] + a[3]) / 2 - (b[1] + b[3]) / 2);

/** The monitor a rectangle belongs to: most overlap, else the nearest (Windows' MonitorFromRect rule). */
export function pairForRect(pairs: MonitorPair[], r: Rect4, space: 'logical' | 'physical'): MonitorPair {
  const boundsOf = (p: MonitorPair) => (space === 'logical' ? p.logical.bounds : toRect4(p.physical.bounds));
  let best = pairs[0]!;
  for (const p of pairs) {
    const a = overlap(r, boundsOf(p));
    const b = overlap(r, boundsOf(best));
    if (a > b || (a === b && a === 0 && centreDistance(r, boundsOf(p)) < centreDistance(r, boundsOf(best)))) best = p;
  }
  return best;
}

import type { MonitorName } from '../protocol/commands';
import type { MonitorInfo } from '../protocol/context';
import { overlapArea } from './geometry';
import type { RawMonitor } from './ports';

// "main" is the primary monitor (the first one if none is marked), "left"/"right" the
// leftmost/rightmost by their left edge. One monitor answers to all three.

export function assignRoles(raw: readonly RawMonitor[]): MonitorInfo[] {
  if (raw.length === 0) return [];
  const byLeft = [...raw].sort((a, b) => a.bounds[0] - b.bounds[0] || a.bounds[1] - b.bounds[1]);
  const main = raw.find((m) => m.primary) ?? raw[0]!;
  const leftmost = byLeft[0]!;
  const rightmost = byLeft[byLeft.length - 1]!;
  return raw.map((m) => {
    const roles: MonitorName[] = [];
    if (m === main) roles.push('main');
    if (m === leftmost) roles.push('left');
    if (m === rightmost) roles.push('right');
    return {
      id: m.id,
      name: m.name,
      roles,
      bounds: [...m.bounds],
      work_area: [...m.workArea],
      primary: m === main,
      scale: m.scale,
    };
  });
}

/** The monitor holding most of a frame (null when the frame is on none). */
export function monitorOf(frame: readonly number[], monitors: readonly MonitorInfo[]): MonitorInfo | null {
  let best: MonitorInfo | null = null;
  let bestArea = 0;
  for (const m of monitors) {
    const a = overlapArea(frame, m.bounds);
    if (a > bestArea) [best, bestArea] = [m, a];
  }
  return best;
}

import type { MonitorName } from '../protocol/commands';
import type { MonitorTarget } from '../protocol/window-layouts';
import type { MonitorInfo } from '../protocol/context';
import { overlapArea } from './geometry';
import type { RawMonitor } from './ports';

// "main" is the primary monitor (the first one if none is marked), "left"/"right" the
// leftmost/rightmost by their left edge. One monitor answers to all three. "top"/"bottom"
// exist only when one monitor lies wholly above another (a laptop under an external screen):
// the one with the highest top edge and the one with the lowest.

export function assignRoles(raw: readonly RawMonitor[]): MonitorInfo[] {
  if (raw.length === 0) return [];
  const byLeft = [...raw].sort((a, b) => a.bounds[0] - b.bounds[0] || a.bounds[1] - b.bounds[1]);
  const byTop = [...raw].sort((a, b) => a.bounds[1] - b.bounds[1] || a.bounds[0] - b.bounds[0]);
  const main = raw.find((m) => m.primary) ?? raw[0]!;
  const leftmost = byLeft[0]!;
  const rightmost = byLeft[byLeft.length - 1]!;
  const [topmost, bottommost] = [byTop[0]!, byTop[byTop.length - 1]!];
  const stacked = topmost.bounds[3] <= bottommost.bounds[1];
  return raw.map((m) => {
    const roles: MonitorName[] = [];
    if (m === main) roles.push('main');
    if (m === leftmost) roles.push('left');
    if (m === rightmost) roles.push('right');
    if (stacked && m === topmost) roles.push('top');
    if (stacked && m === bottommost) roles.push('bottom');
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

export function monitorFor(monitors: readonly MonitorInfo[], role: MonitorName): MonitorInfo | null {
  return monitors.find((m) => m.roles.includes(role)) ?? null;
}

/** Left to right, then top to bottom: the order "next" and "previous" monitor go in. */
export const inPositionOrder = (monitors: readonly MonitorInfo[]): MonitorInfo[] =>
  [...monitors].sort((a, b) => a.bounds[0] - b.bounds[0] || a.bounds[1] - b.bounds[1]);

/**
 * The monitor a place_app target names: a role, a number (the context's order, from 1), or the
 * one after/before `current` (wrapping). A sentence saying why when there is none.
 */
export function targetMonitor(monitors: readonly MonitorInfo[], target: MonitorTarget, current: MonitorInfo | null): MonitorInfo | string {
  if (/^\d$/.test(target)) {
    return monitors[Number(target) - 1] ?? `there is no monitor ${target} (${monitors.length === 1 ? 'one monitor is' : `${monitors.length} monitors are`} connected)`;
  }
  if (target === 'next' || target === 'previous') {
    if (!current) return `the window is on no monitor, so there is no ${target} one`;
    const order = inPositionOrder(monitors);
    const i = order.findIndex((m) => m.id === current.id);
    const step = target === 'next' ? 1 : -1;
    return order[(i + step + order.length) % order.length]!;
  }
  return monitorFor(monitors, target as MonitorName) ?? `no "${target}" monitor is connected`;
}

import type { MonitorName } from '../../protocol/commands';
import type { ContextSnapshot, MonitorInfo, RunningApp } from '../../protocol/context';

// Monitor geometry for place_app. Bounds are computed from a monitor's work area [l, t, r, b]
// (what panels and docks leave free), in integers. Rounding, chosen so halves tile exactly:
//   left half  = [l, t, l + floor(w/2), b]       right half  = [l + floor(w/2), t, r, b]
//   top half   = [l, t, r, t + floor(h/2)]       bottom half = [l, t + floor(h/2), r, b]
//   maximise   = [l, t, r, b]
//   W×H centred = [l + floor((w-W)/2), t + floor((h-H)/2), that + W, that + H]

export type Rect = [number, number, number, number];
export type Half = 'left' | 'right' | 'top' | 'bottom';

const w = (r: readonly number[]) => r[2]! - r[0]!;
const h = (r: readonly number[]) => r[3]! - r[1]!;

export function halfOf(area: readonly number[], half: Half): Rect {
  const [l, t, r, b] = area as Rect;
  const midX = l + Math.floor(w(area) / 2);
  const midY = t + Math.floor(h(area) / 2);
  switch (half) {
    case 'left':
      return [l, t, midX, b];
    case 'right':
      return [midX, t, r, b];
    case 'top':
      return [l, t, r, midY];
    case 'bottom':
      return [l, midY, r, b];
  }
}

export const maximised = (area: readonly number[]): Rect => [area[0]!, area[1]!, area[2]!, area[3]!];

/** null when the size does not fit in the area (the planner asks rather than overflow). */
export function centred(area: readonly number[], width: number, height: number): Rect | null {
  if (width <= 0 || height <= 0 || width > w(area) || height > h(area)) return null;
  const l = area[0]! + Math.floor((w(area) - width) / 2);
  const t = area[1]! + Math.floor((h(area) - height) / 2);
  return [l, t, l + width, t + height];
}

export const monitorByRole = (snap: ContextSnapshot, role: MonitorName): MonitorInfo | null =>
  snap.monitors.find((m) => m.roles.includes(role)) ?? null;

function overlap(a: readonly number[], b: readonly number[]): number {
  const x = Math.min(a[2]!, b[2]!) - Math.max(a[0]!, b[0]!);
  const y = Math.min(a[3]!, b[3]!) - Math.max(a[1]!, b[1]!);
  return x > 0 && y > 0 ? x * y : 0;
}

/** The window place_app moves: the app's most recently used one (the resolver picks the same). */
export const windowOf = (app: RunningApp) => app.windows[0] ?? null;

/** The monitor holding the app's window; with one monitor, that one. null when unknowable. */
export function currentMonitor(snap: ContextSnapshot, app: RunningApp): MonitorInfo | null {
  if (snap.monitors.length === 1) return snap.monitors[0]!;
  const win = windowOf(app);
  if (!win) return null;
  const named = win.monitor ? snap.monitors.find((m) => m.name === win.monitor) : undefined;
  if (named) return named;
  let best: MonitorInfo | null = null;
  let area = 0;
  for (const m of snap.monitors) {
    const a = overlap(win.bounds, m.bounds);
    if (a > area) [best, area] = [m, a];
  }
  return best;
}

/** A role naming exactly this monitor: left/right first, because with two monitors "main" is one of them too. */
export function roleFor(monitor: MonitorInfo): MonitorName | null {
  for (const role of ['left', 'right', 'main'] as const) if (monitor.roles.includes(role)) return role;
  return null;
}

import { execFileSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import type * as Electron from 'electron';
import type { StandIn } from './electron-types';
import { recordCall } from './runtime';

// screen: the displays are the X server's monitors on the test desktop (`xrandr
// --listmonitors`, RandR 1.5), their work areas cut by the window manager's _NET_WORKAREA, and
// the cursor is X's pointer (`xdotool getmouselocation`). Scale 1: Xvfb has no DPI scaling.

const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { encoding: 'utf8', env: process.env, timeout: 30_000 });

function workArea(): Electron.Rectangle | null {
  try {
    const m = /=\s*(\d+),\s*(\d+),\s*(\d+),\s*(\d+)/.exec(run('xprop', ['-root', '_NET_WORKAREA']));
    return m ? { x: Number(m[1]), y: Number(m[2]), width: Number(m[3]), height: Number(m[4]) } : null;
  } catch {
    return null;
  }
}

function intersect(a: Electron.Rectangle, b: Electron.Rectangle | null): Electron.Rectangle {
  if (!b) return a;
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  const right = Math.min(a.x + a.width, b.x + b.width);
  const bottom = Math.min(a.y + a.height, b.y + b.height);
  return right > x && bottom > y ? { x, y, width: right - x, height: bottom - y } : a;
}

/** " 0: +*LEFT 1920/508x1080/286+0+0  screen" → a Display. */
export function displaysFromXrandr(listing: string, area: Electron.Rectangle | null): { displays: Electron.Display[]; primary: number } {
  const displays: Electron.Display[] = [];
  let primary = 0;
  for (const line of listing.split('\n')) {
    const m = /^\s*(\d+):\s*\+?(\*?)(\S+)\s+(\d+)\/\d+x(\d+)\/\d+\+(-?\d+)\+(-?\d+)/.exec(line);
    if (!m) continue;
    const [, index, star, label, w, h, x, y] = m;
    const id = 1000 + Number(index);
    const bounds = { x: Number(x), y: Number(y), width: Number(w), height: Number(h) };
    const wa = intersect(bounds, area);
    if (star) primary = id;
    displays.push({
      id,
      label: label!,
      bounds,
      workArea: wa,
      size: { width: bounds.width, height: bounds.height },
      workAreaSize: { width: wa.width, height: wa.height },
      scaleFactor: 1,
      rotation: 0,
      internal: false,
      monochrome: false,
      accelerometerSupport: 'unknown',
      touchSupport: 'unknown',
      colorSpace: '',
      colorDepth: 24,
      depthPerComponent: 8,
      detected: true,
      displayFrequency: 60,
      maximumCursorSize: { width: 64, height: 64 },
      nativeOrigin: { x: bounds.x, y: bounds.y },
    });
  }
  if (displays.length === 0) throw new Error(`no monitors in xrandr --listmonitors on DISPLAY=${process.env.DISPLAY ?? '(unset)'}`);
  return { displays, primary: primary || displays[0]!.id };
}

const distance = (r: Electron.Rectangle, p: Electron.Point) => {
  const dx = Math.max(r.x - p.x, 0, p.x - (r.x + r.width - 1));
  const dy = Math.max(r.y - p.y, 0, p.y - (r.y + r.height - 1));
  return dx * dx + dy * dy;
};
const overlap = (a: Electron.Rectangle, b: Electron.Rectangle) =>
  Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)) * Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y));

class StandInScreen
  extends EventEmitter
  implements StandIn<Electron.Screen, 'getAllDisplays' | 'getPrimaryDisplay' | 'getCursorScreenPoint' | 'getDisplayNearestPoint' | 'getDisplayMatching'>
{
  private read() {
    return displaysFromXrandr(run('xrandr', ['--listmonitors']), workArea());
  }

  getAllDisplays(): Electron.Display[] {
    recordCall('screen.getAllDisplays');
    return this.read().displays;
  }

  getPrimaryDisplay(): Electron.Display {
    recordCall('screen.getPrimaryDisplay');
    const { displays, primary } = this.read();
    return displays.find((d) => d.id === primary)!;
  }

  getCursorScreenPoint(): Electron.Point {
    recordCall('screen.getCursorScreenPoint');
    const out = run('xdotool', ['getmouselocation', '--shell']);
    return { x: Number(/X=(-?\d+)/.exec(out)?.[1] ?? 0), y: Number(/Y=(-?\d+)/.exec(out)?.[1] ?? 0) };
  }

  getDisplayNearestPoint(point: Electron.Point): Electron.Display {
    recordCall('screen.getDisplayNearestPoint', point);
    return this.read().displays.reduce((best, d) => (distance(d.bounds, point) < distance(best.bounds, point) ? d : best));
  }

  getDisplayMatching(rect: Electron.Rectangle): Electron.Display {
    recordCall('screen.getDisplayMatching', rect);
    const { displays, primary } = this.read();
    const best = displays.reduce((b, d) => (overlap(d.bounds, rect) > overlap(b.bounds, rect) ? d : b));
    return overlap(best.bounds, rect) > 0 ? best : displays.find((d) => d.id === primary)!;
  }
}

export const screen = new StandInScreen();

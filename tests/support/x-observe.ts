import { execFileSync } from 'node:child_process';

// Reads the X server with the standard tools (xwininfo, xprop, wmctrl), independent of
// DeskPilot's own X11 client, so tests check effects through something else.

export type Frame = [number, number, number, number];

const run = (env: NodeJS.ProcessEnv, cmd: string, args: string[]) => execFileSync(cmd, args, { env, encoding: 'utf8' });

/** Outer frame [l, t, r, b]: the client's absolute position from xwininfo, plus _NET_FRAME_EXTENTS. */
export function frameOf(env: NodeJS.ProcessEnv, id: string): Frame {
  const info = run(env, 'xwininfo', ['-id', id]);
  const num = (label: string) => Number(new RegExp(`${label}:\\s+(-?\\d+)`).exec(info)![1]);
  const [x, y, w, h] = [num('Absolute upper-left X'), num('Absolute upper-left Y'), num('Width'), num('Height')];
  const ext = /= (\d+), (\d+), (\d+), (\d+)/.exec(run(env, 'xprop', ['-id', id, '_NET_FRAME_EXTENTS']));
  const [l, r, t, b] = ext ? ext.slice(1).map(Number) : [0, 0, 0, 0];
  return [x - l!, y - t!, x + w + r!, y + h + b!];
}

export function activeWindow(env: NodeJS.ProcessEnv): number {
  const out = run(env, 'xprop', ['-root', '_NET_ACTIVE_WINDOW']);
  return parseInt(/window id # (0x[0-9a-f]+)/i.exec(out)![1]!, 16);
}

export interface WmWindow {
  id: number;
  pid: number;
  title: string;
}

/** `wmctrl -lp`: every managed window with its pid and title. */
export function wmWindows(env: NodeJS.ProcessEnv): WmWindow[] {
  return run(env, 'wmctrl', ['-lp'])
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [id, , pid, , ...title] = line.split(/\s+/);
      return { id: parseInt(id!, 16), pid: Number(pid), title: title.join(' ') };
    });
}

export const isHidden = (env: NodeJS.ProcessEnv, id: string) => run(env, 'xprop', ['-id', id, '_NET_WM_STATE']).includes('_NET_WM_STATE_HIDDEN');

/** Alive and not a zombie. */
export function processRunning(pid: number): boolean {
  try {
    const stat = execFileSync('cat', [`/proc/${pid}/stat`], { encoding: 'utf8' });
    return !/^\d+ \(.*\) Z/.test(stat);
  } catch {
    return false;
  }
}

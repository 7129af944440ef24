import { execFileSync } from 'node:child_process';
import type { Frame } from '../support/x-observe';

// The outer frame a window will take for a requested one, from what the X server itself says
// (xprop's WM_NORMAL_HINTS and _NET_FRAME_EXTENTS), computed here independently of DeskPilot:
// the top-left corner is kept (NorthWest gravity), the client size rounds down to the window's
// resize increments above its base size and stays at least its minimum (ICCCM 4.1.2.3).

interface Hints {
  min: [number, number] | null;
  base: [number, number] | null;
  inc: [number, number] | null;
}

function hintsOf(env: NodeJS.ProcessEnv, id: string): { hints: Hints; extents: [number, number, number, number] } {
  const out = execFileSync('xprop', ['-id', id, 'WM_NORMAL_HINTS', '_NET_FRAME_EXTENTS'], { env, encoding: 'utf8' });
  const pair = (label: string): [number, number] | null => {
    const m = new RegExp(`program specified ${label}: (\\d+) by (\\d+)`).exec(out);
    return m ? [Number(m[1]), Number(m[2])] : null;
  };
  const ext = /_NET_FRAME_EXTENTS\(CARDINAL\) = (\d+), (\d+), (\d+), (\d+)/.exec(out);
  return {
    hints: { min: pair('minimum size'), base: pair('base size'), inc: pair('resize increment') },
    extents: ext ? [Number(ext[1]), Number(ext[2]), Number(ext[3]), Number(ext[4])] : [0, 0, 0, 0],
  };
}

/** The outer frame `id` gets when asked for `target` (its left/right/top/bottom extents, then the client size rules). */
export function allowedFrame(env: NodeJS.ProcessEnv, id: string, target: readonly number[]): Frame {
  const { hints, extents } = hintsOf(env, id);
  const [l, r, t, b] = extents;
  const base = hints.base ?? hints.min ?? [0, 0];
  const client = [target[2]! - target[0]! - l - r, target[3]! - target[1]! - t - b].map((want, i) => {
    const inc = hints.inc?.[i] ?? 1;
    const size = base[i]! + Math.floor((want - base[i]!) / inc) * inc;
    return Math.max(size, hints.min?.[i] ?? 1);
  });
  return [target[0]!, target[1]!, target[0]! + l + r + client[0]!, target[1]! + t + b + client[1]!];
}

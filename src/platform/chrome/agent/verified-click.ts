// A click that is known to have reached its element. Input.dispatchMouseEvent goes to the tab's top
// session and Chrome routes it to a frame by the compositor's last frame, which lags the layout after
// a scroll or a layout change (see hit-probe.ts). So: aim, arm the worlds, press, and ask
// the element's world what the press reached. A press that went elsewhere was swallowed in the
// document it reached; release it there (swallowed too), let the documents on the way to the element
// render fresh frames so the browser's hit-test data catches up, and aim again.

import { CdpTimeoutError } from '../cdp-connection';
import type { FrameSession, World } from './frames';
import type { ProbeReport } from './hit-probe';

export interface Point {
  x: number;
  y: number;
}

export interface ClickTarget {
  fs: FrameSession;
  w: World;
  /** The element's registry number in its world. */
  local: number;
}

/** What verifiedClick needs from the tab. */
export interface ClickPort {
  /** Every live world of the tab. */
  worlds(): Array<{ fs: FrameSession; w: World }>;
  /** Calls __dp[fn](...args) in a world. */
  call<T>(fs: FrameSession, w: World, fn: string, ...args: unknown[]): Promise<T>;
  /** Resolves once the world's document rendered two more frames (or at a generous bound). */
  frames(fs: FrameSession, w: World): Promise<void>;
  mouse(type: 'mouseMoved' | 'mousePressed' | 'mouseReleased', at: Point, button: 'left' | 'right' | 'none', buttons: number, clickCount?: number): Promise<void>;
}

export type ClickResult = { kind: 'clicked' } | { kind: 'not_found' } | { kind: 'missed'; landed: string; attempts: number };

/** Presses that landed elsewhere before giving up; each new try first waits for fresh frames. */
export const CLICK_ATTEMPTS = 4;

export async function verifiedClick(
  port: ClickPort,
  target: ClickTarget,
  aim: () => Promise<Point>,
  button: 'left' | 'right',
  count: number,
): Promise<ClickResult> {
  const buttons = button === 'left' ? 1 : 2;
  let landed = '';
  for (let attempt = 1; attempt <= CLICK_ATTEMPTS; attempt++) {
    const at = await aim();
    // Chrome picks the process by its (possibly stale) compositor data; the renderer then picks the
    // frame by the current layout. So strays can only come from other processes' frames.
    const others = port.worlds().filter((x) => x.fs !== target.fs);
    const [armed] = await Promise.all([
      port.call<boolean>(target.fs, target.w, 'arm', target.local),
      // A world that went away cannot receive the press either.
      ...others.map((o) => port.call(o.fs, o.w, 'arm', null).catch(() => undefined)),
    ]);
    const armedWorlds = [{ fs: target.fs, w: target.w }, ...others];
    if (!armed) {
      await disarm(port, armedWorlds);
      return { kind: 'not_found' };
    }
    let miss: string | null;
    let disarmed = false;
    try {
      // Not awaited: a tab the compositor does not show acks rAF-aligned moves only on its next
      // frame (up to ~1 s). The press flushes the queued move first, so the page still sees it.
      void port.mouse('mouseMoved', at, 'none', 0).catch(() => undefined);
      // The press is acknowledged after the document it reached has handled it.
      await port.mouse('mousePressed', at, button, buttons, 1);
      miss = await whereItMissed(port, target, others);
      // A delivered press gets its release and click unwatched; a stray one's are swallowed too.
      if (miss === null) {
        disarmed = true;
        await disarm(port, armedWorlds);
      }
      await port.mouse('mouseReleased', at, button, 0, 1);
      for (let i = 2; miss === null && i <= count; i++) {
        await port.mouse('mousePressed', at, button, buttons, i);
        await port.mouse('mouseReleased', at, button, 0, i);
      }
    } finally {
      if (!disarmed) await disarm(port, armedWorlds);
    }
    if (miss === null) return { kind: 'clicked' };
    landed = miss;
    if (attempt < CLICK_ATTEMPTS) await Promise.all(chain(target.fs).map(({ fs, w }) => port.frames(fs, w)));
  }
  return { kind: 'missed', landed, attempts: CLICK_ATTEMPTS };
}

/**
 * null when the press reached the element (or cannot have been lost); otherwise what it reached
 * instead ('' when nothing saw it).
 */
async function whereItMissed(port: ClickPort, target: ClickTarget, others: Array<{ fs: FrameSession; w: World }>): Promise<string | null> {
  // No answer: the press took the element's document away (e.g. a link), so it was delivered.
  // A document that did not answer in time says nothing of where the press went: the click
  // fails as timed out rather than being reported done (or pressed again).
  const report = await port.call<ProbeReport>(target.fs, target.w, 'probed').catch(unlessTimedOut(null));
  if (report === null || report.got === 'hit') return null;
  if (report.got === 'miss') return report.what;
  const stray = (await Promise.all(others.map((o) => port.call<ProbeReport>(o.fs, o.w, 'probed').catch(() => null)))).find((r) => r?.got);
  if (stray) return stray.what;
  // Nobody saw it: a page listener that ran before ours (in a document we joined late) may have
  // stopped it on its way — then the element is :active, the press was delivered, and repeating
  // it would click twice. Otherwise it was dropped (a document that has not painted yet drops
  // input) or went to a frame we do not watch: try again.
  const pressed = await port.call<boolean>(target.fs, target.w, 'pressed').catch(unlessTimedOut(true));
  return pressed ? null : '';
}

/** A failed call's stand-in, except for a timeout, which is passed on. */
function unlessTimedOut<T>(value: T): (e: unknown) => T {
  return (e) => {
    if (e instanceof CdpTimeoutError) throw e;
    return value;
  };
}

async function disarm(port: ClickPort, worlds: Array<{ fs: FrameSession; w: World }>): Promise<void> {
  await Promise.all(worlds.map((o) => port.call(o.fs, o.w, 'disarm').catch(() => undefined)));
}

/** The root worlds of the sessions from the tab's top down to `fs`: the documents whose frames route input to it. */
function chain(fs: FrameSession): Array<{ fs: FrameSession; w: World }> {
  const out: Array<{ fs: FrameSession; w: World }> = [];
  for (let s: FrameSession | null = fs; s; s = s.parent) {
    const w = s.worlds.get(s.rootFrameId);
    if (w) out.push({ fs: s, w });
  }
  return out;
}

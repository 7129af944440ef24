// Where a frame sits in the tab's top-level viewport, and bringing it into view: the snapshot
// places a frame's elements with it, input aims at them with it.

import type { FrameSession } from './frames';
import type { TabSession } from './tab-session';

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Offsets already asked for during one snapshot or action (frames share their ancestors'). */
export type OffsetMemo = Map<string, Promise<Box | null>>;

/**
 * Offset of a frame's viewport in the top-level viewport: the content box of its owner <iframe>
 * (DOM.getBoxModel answers in the coordinates of the owner session's local root), plus that
 * session's own offset for out-of-process frames. Null when the frame has no box.
 */
export function frameOffset(s: TabSession, fs: FrameSession, frameId: string, memo: OffsetMemo = new Map()): Promise<Box | null> {
  if (fs === s.top && frameId === fs.rootFrameId) return Promise.resolve({ x: 0, y: 0, w: Infinity, h: Infinity });
  const key = `${fs.sessionId}|${frameId}`;
  let p = memo.get(key);
  if (!p) {
    p = (async () => {
      const ownerSession = frameId === fs.rootFrameId ? fs.parent : fs;
      if (!ownerSession) return null;
      const base = await frameOffset(s, ownerSession, ownerSession.rootFrameId, memo);
      if (!base) return null;
      try {
        const { backendNodeId } = await s.send(ownerSession, 'DOM.getFrameOwner', { frameId });
        const { model } = await s.send(ownerSession, 'DOM.getBoxModel', { backendNodeId });
        const q = model.content;
        return { x: base.x + q[0]!, y: base.y + q[1]!, w: q[2]! - q[0]!, h: q[5]! - q[1]! };
      } catch {
        return null;
      }
    })();
    memo.set(key, p);
  }
  return p;
}

/** Brings the <iframe>s holding a frame into view, outermost first (before acting inside it). */
export async function revealFrame(s: TabSession, fs: FrameSession, frameId: string): Promise<void> {
  if (fs === s.top && frameId === fs.rootFrameId) return;
  const ownerSession = frameId === fs.rootFrameId ? fs.parent : fs;
  if (!ownerSession) return;
  await revealFrame(s, ownerSession, ownerSession.rootFrameId);
  try {
    const { backendNodeId } = await s.send(ownerSession, 'DOM.getFrameOwner', { frameId });
    await s.send(ownerSession, 'DOM.scrollIntoViewIfNeeded', { backendNodeId });
  } catch {
    // detached meanwhile: the element lookup reports it
  }
}

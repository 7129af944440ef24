// The CDP sessions of one agent tab: the page's own flat session and one per out-of-process iframe
// (auto-attached), each with the isolated worlds of its frames.

export interface World {
  frameId: string;
  contextId: number;
  /** Runtime's uniqueId: never reused, so it also names "this document" of the frame. */
  uniqueId: string;
}

export class FrameSession {
  /** frameId → our isolated world in that frame's current document. */
  readonly worlds = new Map<string, World>();
  readonly children = new Set<FrameSession>();
  detached = false;

  constructor(
    readonly sessionId: string,
    /** The target's id; for pages and OOPIFs it is also the id of the session's root frame. */
    readonly targetId: string,
    readonly parent: FrameSession | null,
  ) {}

  get rootFrameId(): string {
    return this.targetId;
  }

  addWorld(w: World): void {
    this.worlds.set(w.frameId, w);
  }

  dropContext(contextId: number, uniqueId?: string): void {
    for (const [frameId, w] of this.worlds) {
      if ((uniqueId !== undefined && w.uniqueId === uniqueId) || (uniqueId === undefined && w.contextId === contextId)) this.worlds.delete(frameId);
    }
  }

  /** This session and every session below it, parents first. */
  *tree(): Generator<FrameSession> {
    yield this;
    for (const c of this.children) yield* c.tree();
  }
}

/** Which element a snapshot number names: a registry slot of one world. */
export interface ElementRef {
  sessionId: string;
  frameId: string;
  uniqueId: string;
  local: number;
}

// What the page script cannot see from its isolated world, found through DevTools before each
// snapshot and handed to it (__dp.adopt), so it walks and lists them like everything else:
//  • elements whose only sign of being clickable is a click listener of the page's. A script of one
//    world cannot see another world's listeners; DOMDebugger.getEventListeners on the page's own
//    `document` (its main world, where the page's scripts run) lists them for the whole tree in one
//    call. Not with pierce: reporting every world's listeners that way left this Chromium's renderer
//    hung a few snapshots later, so shadow trees are asked one root at a time (the closed ones found
//    below); listeners inside open shadow roots and same-process frames are not looked for.
//  • closed shadow roots: el.shadowRoot is null for them in every world; DOM.describeNode with
//    pierce names them and DOM.resolveNode hands them to our world. Hosts are asked about one by
//    one, so only custom elements that are defined and visible, each once, at most MAX_HOSTS a time.
// Best effort and bounded: a page that does not answer is snapshotted as the script alone sees it.

import type { FrameSession, World } from './frames';
import type { TabSession } from './tab-session';

/** Listener types that make an element something a person clicks. */
const CLICK_EVENTS = new Set(['click', 'mousedown', 'mouseup', 'pointerdown', 'pointerup', 'dblclick']);
/** Nodes with a new click listener resolved per snapshot (the rest come with the next ones). */
const MAX_NEW_NODES = 200;
/** Custom elements asked about a closed shadow root per snapshot. */
export const MAX_HOSTS = 40;

let groups = 0;

export class HiddenClickables {
  /** Per document (our world's uniqueId): the backend node ids already handed to its page script. */
  private readonly known = new Map<string, Set<number>>();
  /** Per document: the page-world `document` object its listeners are asked through. */
  private readonly docs = new Map<string, string>();

  constructor(private readonly s: TabSession) {}

  /** Finds and adopts what is new in the document of world `w` (a session's root frame). Never throws. */
  async reveal(fs: FrameSession, w: World): Promise<void> {
    const s = this.s;
    const group = `deskpilot-hidden-${++groups}`;
    const timeoutMs = s.timings.evalTimeoutMs;
    let known = this.known.get(w.uniqueId);
    if (!known) this.known.set(w.uniqueId, (known = new Set()));
    try {
      // One round trip once the page's document is known: its listeners, and the hosts to ask about.
      const docId = await this.pageDocument(fs, w, timeoutMs);
      const [docListeners, hosts] = await Promise.all([
        this.listenerNodes(fs, docId, timeoutMs).catch((e: unknown) => {
          this.docs.delete(w.uniqueId);
          throw e;
        }),
        s.send(
          fs,
          'Runtime.evaluate',
          { expression: `globalThis.__dp ? __dp.hostCandidates(${MAX_HOSTS}) : null`, uniqueContextId: w.uniqueId, objectGroup: group, silent: true },
          timeoutMs,
        ),
      ]);
      const roots = (await this.closedRoots(fs, hosts.result.objectId, timeoutMs)).filter((id) => !known.has(id));
      // The listeners inside each new closed root's tree (resolved in the page's world).
      const inRoots = await Promise.all(
        roots.map((backendNodeId) =>
          s
            .send(fs, 'DOM.resolveNode', { backendNodeId, objectGroup: group }, timeoutMs)
            .then((r) => (r.object.objectId ? this.listenerNodes(fs, r.object.objectId, timeoutMs) : []))
            .catch(() => []),
        ),
      );
      const clicky: number[] = [];
      for (const id of [...docListeners, ...inRoots.flat()]) {
        if (clicky.length >= MAX_NEW_NODES) break;
        if (!known.has(id)) clicky.push(id);
      }
      if (clicky.length === 0 && roots.length === 0) return;
      for (const id of [...roots, ...clicky]) known.add(id);
      const resolve = (ids: number[]) =>
        Promise.all(
          ids.map((backendNodeId) =>
            s
              .send(fs, 'DOM.resolveNode', { backendNodeId, executionContextId: w.contextId, objectGroup: group }, timeoutMs)
              .then((r) => r.object.objectId)
              .catch(() => undefined),
          ),
        );
      const [rootObjs, clickyObjs] = await Promise.all([resolve(roots), resolve(clicky)]);
      const args = (objs: Array<string | undefined>) => objs.filter((o): o is string => o !== undefined).map((objectId) => ({ objectId }));
      const r = args(rootObjs);
      const c = args(clickyObjs);
      await s.send(
        fs,
        'Runtime.callFunctionOn',
        {
          executionContextId: w.contextId,
          functionDeclaration: `function (nRoots) { var n = Array.prototype.slice.call(arguments, 1); return globalThis.__dp ? __dp.adopt(n.slice(0, nRoots), n.slice(nRoots)) : 0; }`,
          arguments: [{ value: r.length }, ...r, ...c],
          returnByValue: true,
          silent: true,
        },
        timeoutMs,
      );
    } catch {
      // The document went away or did not answer in time: the snapshot goes on with what the script sees.
    } finally {
      void s.send(fs, 'Runtime.releaseObjectGroup', { objectGroup: group }).catch(() => undefined);
    }
  }

  /**
   * The page's own `document` (the session's main frame, the page's world: no context given), kept
   * per document. `document` is unforgeable there, so evaluating it runs none of the page's code.
   */
  private async pageDocument(fs: FrameSession, w: World, timeoutMs: number): Promise<string> {
    const known = this.docs.get(w.uniqueId);
    if (known) return known;
    const r = await this.s.send(fs, 'Runtime.evaluate', { expression: 'document', objectGroup: `deskpilot-doc-${w.uniqueId}`, silent: true }, timeoutMs);
    if (!r.result.objectId) throw new Error('no document');
    this.docs.set(w.uniqueId, r.result.objectId);
    return r.result.objectId;
  }

  /** Forgets the documents that are gone. */
  keepOnly(live: ReadonlySet<string>): void {
    for (const id of this.known.keys()) if (!live.has(id)) this.known.delete(id);
    for (const id of this.docs.keys()) if (!live.has(id)) this.docs.delete(id);
  }

  /** Backend ids of the nodes in a tree (a page-world object) with a click listener of that world. */
  private async listenerNodes(fs: FrameSession, objectId: string, timeoutMs: number): Promise<number[]> {
    const { listeners } = await this.s.send(fs, 'DOMDebugger.getEventListeners', { objectId, depth: -1 }, timeoutMs);
    const out = new Set<number>();
    for (const l of listeners) if (l.backendNodeId !== undefined && CLICK_EVENTS.has(l.type)) out.add(l.backendNodeId);
    return [...out];
  }

  /** Backend ids of the closed shadow roots of the candidate hosts (an array object in our world). */
  private async closedRoots(fs: FrameSession, hostsId: string | undefined, timeoutMs: number): Promise<number[]> {
    if (!hostsId) return [];
    const { result } = await this.s.send(fs, 'Runtime.getProperties', { objectId: hostsId, ownProperties: true }, timeoutMs);
    const hosts = result.filter((p) => /^\d+$/.test(p.name) && p.value?.objectId).map((p) => p.value!.objectId!);
    const described = await Promise.all(
      hosts.map((objectId) => this.s.send(fs, 'DOM.describeNode', { objectId, depth: 0, pierce: true }, timeoutMs).catch(() => null)),
    );
    return described.flatMap((d) => (d?.node.shadowRoots ?? []).filter((r) => r.shadowRootType === 'closed').map((r) => r.backendNodeId));
  }
}

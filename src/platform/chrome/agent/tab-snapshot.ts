// The snapshots of one agent tab and the element numbers they hand out: every world's collector
// result, placed in the top-level viewport (frames spliced in where their <iframe> sits), numbered
// once per element and document (a number is never reused, so a stale one cannot hit a new
// element), and rendered as the <browsing_context> text the executor model reads (render.ts). Also the facts the safety rules ask about an element.

import type { ElementFacts, PageSnapshot } from '../../../engine/agent-ports';
import { CdpTimeoutError } from '../cdp-connection';
import { frameOffset, type OffsetMemo } from './frame-geometry';
import type { ElementRef, FrameSession, World } from './frames';
import { HiddenClickables } from './hidden-clickables';
import { E, F, type CollectResult } from './page-script';
import { renderSnapshot, type SnapElement } from './render';
import { WorldGone, type TabSession } from './tab-session';

/** Interactive elements further than this many screens from the viewport are counted, not listed. */
const FAR_SCREENS = 2;

/** Where an element number lives: its world and its slot there. */
export interface Located {
  fs: FrameSession;
  w: World;
  ref: ElementRef;
}

export type TimedSnapshot = PageSnapshot & { collectMs: number; pageMs: number };

export class TabSnapshots {
  private readonly numbers = new Map<string, number>();
  private readonly refs = new Map<number, ElementRef>();
  private nextNumber = 1;
  private previous: { doc: string; listed: Set<number> } | null = null;
  private readonly hidden: HiddenClickables;

  constructor(private readonly s: TabSession) {
    this.hidden = new HiddenClickables(s);
  }

  async take(opts: { maxChars: number; maskPii: boolean }): Promise<TimedSnapshot> {
    const s = this.s;
    s.assertAlive();
    const t0 = performance.now();
    if (!s.topWorld()) await s.waitForTopWorld(Math.min(3000, s.timings.loadTimeoutMs));
    // First what only DevTools sees (click listeners, closed shadow roots), in each session's document.
    const worlds = s.worlds();
    this.hidden.keepOnly(new Set(worlds.map(({ w }) => w.uniqueId)));
    await Promise.all(worlds.filter(({ fs, w }) => w.frameId === fs.rootFrameId).map(({ fs, w }) => this.hidden.reveal(fs, w)));
    const collected = await Promise.all(
      worlds.map(async ({ fs, w }) => {
        try {
          const r = await s.call<CollectResult>(fs, w, 'collect', { root: w.frameId === fs.rootFrameId, farScreens: FAR_SCREENS });
          return { fs, w, r };
        } catch (e) {
          if (e instanceof WorldGone) return null;
          if (e instanceof CdpTimeoutError) return { fs, w, r: null, timedOut: true };
          throw e;
        }
      }),
    );
    s.assertAlive();
    const memo: OffsetMemo = new Map();
    const roots = collected.filter((c): c is NonNullable<typeof c> => c !== null && !c.r?.skip);
    const offsets = await Promise.all(roots.map((c) => frameOffset(s, c.fs, c.w.frameId, memo)));
    const collectMs = performance.now() - t0;

    const topRoot = roots.find((c) => c.fs === s.top && c.w.frameId === s.top.rootFrameId);
    const topResult = topRoot?.r ?? null;
    const viewport = topResult ? { w: topResult.vw, h: topResult.vh } : { w: 1280, h: 800 };
    if (topResult) {
      s.url = topResult.url;
      s.title = topResult.title;
    }
    // Frames are spliced into the top document's list where their <iframe> sits (by position).
    const blocks: Array<{ y: number; els: SnapElement[] }> = [];
    let topEls: SnapElement[] = [];
    let pageMs = 0;
    let farAbove = 0;
    let farBelow = 0;
    roots.forEach((c, i) => {
      const off = offsets[i];
      if (!c.r || !off) return;
      pageMs += c.r.ms;
      farAbove += c.r.farAbove;
      farBelow += c.r.farBelow;
      const els: SnapElement[] = [];
      for (const t of c.r.els) {
        const inFrame = off.w === Infinity || (t[E.x] < off.w && t[E.y] < off.h && t[E.x] + t[E.w] > 0 && t[E.y] + t[E.h] > 0);
        els.push({
          n: this.numberFor(c.fs, c.w, t[E.id]),
          tag: t[E.tag],
          role: t[E.role],
          label: t[E.label],
          text: t[E.text],
          value: t[E.value],
          placeholder: t[E.placeholder],
          href: t[E.href],
          type: t[E.type],
          flags: t[E.flags],
          options: t[E.options],
          autocomplete: t[E.autocomplete],
          x: t[E.x] + off.x,
          y: t[E.y] + off.y,
          w: t[E.w],
          h: t[E.h],
          inView: (t[E.flags] & F.inView) !== 0 && inFrame,
        });
      }
      if (c === topRoot) topEls = els;
      else blocks.push({ y: off.y, els });
    });
    blocks.sort((a, b) => a.y - b.y);
    const elements: SnapElement[] = [];
    let bi = 0;
    for (const e of topEls) {
      while (bi < blocks.length && blocks[bi]!.y <= e.y) elements.push(...blocks[bi++]!.els);
      elements.push(e);
    }
    while (bi < blocks.length) elements.push(...blocks[bi++]!.els);

    const doc = topRoot?.w.uniqueId ?? '';
    const previous = this.previous && this.previous.doc === doc ? this.previous.listed : null;
    const notices = s.takeSnapshotNotices();
    if (!topResult) notices.push(collected.some((c) => c?.timedOut) ? 'The page is not responding.' : 'The page is still loading.');
    const out = renderSnapshot({
      url: s.url,
      title: s.title,
      viewport,
      elements,
      previous,
      api: s.api.take(),
      notices,
      maxChars: opts.maxChars,
      maskPii: opts.maskPii,
      secrets: s.secrets,
      farScreens: FAR_SCREENS,
      farAbove,
      farBelow,
    });
    this.previous = { doc, listed: new Set(out.listed) };
    return {
      targetId: s.targetId,
      url: s.url,
      title: s.title,
      text: out.text,
      elementCount: out.listed.length,
      newIds: out.newIds,
      truncated: out.truncated,
      collectMs,
      pageMs,
    };
  }

  private numberFor(fs: FrameSession, w: World, local: number): number {
    const key = `${w.uniqueId}:${local}`;
    let n = this.numbers.get(key);
    if (n === undefined) {
      n = this.nextNumber++;
      this.numbers.set(key, n);
      this.refs.set(n, { sessionId: fs.sessionId, frameId: w.frameId, uniqueId: w.uniqueId, local });
    }
    return n;
  }

  /** The world an element number lives in, if that document is still there. */
  locate(id: number): Located | null {
    const ref = this.refs.get(id);
    if (!ref) return null;
    const fs = this.s.sessions.get(ref.sessionId);
    const w = fs?.worlds.get(ref.frameId);
    if (!fs || !w || w.uniqueId !== ref.uniqueId) {
      // The document is gone: forget its numbers.
      this.refs.delete(id);
      this.numbers.delete(`${ref.uniqueId}:${ref.local}`);
      return null;
    }
    return { fs, w, ref };
  }

  /** What the safety rules need to know about an element; null when the number is not on the page any more. */
  async facts(id: number): Promise<ElementFacts | null> {
    this.s.assertAlive();
    const r = this.locate(id);
    if (!r) return null;
    try {
      const f = await this.s.call<Omit<ElementFacts, 'id'> | null>(r.fs, r.w, 'facts', r.ref.local);
      return f ? { id, ...f } : null;
    } catch (e) {
      if (e instanceof WorldGone) return null;
      throw e;
    }
  }
}

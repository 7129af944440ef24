import { errorMessage, WindowGoneError } from './errors';
import type { RawWindow, Rect4, WindowBackend } from './ports';
import type { UndoCollector } from './undo-collector';

// What ends up in front after a batch. Windows that were placed come to the front (moving a
// window behind a maximised browser would look like nothing happened), in the order they were
// placed, and the batch ends with one focus: on what the person named to focus (focus_app,
// switch_tab) when a window was placed after it, else on the last window placed. A placement
// asked to stay behind (raise: false) takes no part. No placed window ends wholly covered by
// another placed one: a window that would lie inside a later one's frame is raised after it
// ("swap xterm and chrome" once left the small xterm hidden under the large browser).

export interface FrontTarget {
  /** What to call it in a warning. */
  label: string;
  /** Brings it to the front and gives it the focus (a window's focus, a tab's activation). */
  refocus: () => Promise<void>;
}

interface PlacedWindow {
  backend: WindowBackend;
  id: string;
  app: string;
  /** Where it was placed (its outer frame). */
  frame: readonly number[];
}

/** [l, t, r, b] of `outer` holds all of `inner`, and they differ. */
const covers = (outer: readonly number[], inner: readonly number[]) =>
  outer[0]! <= inner[0]! && outer[1]! <= inner[1]! && outer[2]! >= inner[2]! && outer[3]! >= inner[3]! && outer.some((v, i) => v !== inner[i]);

/**
 * The order to raise in: the order placed, except that a window whose frame lies inside a later
 * one's moves after it, so it stays in sight. Containment of distinct frames has no cycles.
 */
export function raiseOrder<T extends { frame: readonly number[] }>(placed: readonly T[]): T[] {
  const order = [...placed];
  for (let moved = true, guard = 0; moved && guard < order.length * order.length; guard++) {
    moved = false;
    for (let i = 0; i < order.length && !moved; i++) {
      const j = order.findIndex((o, k) => k > i && covers(o.frame, order[i]!.frame));
      if (j > i) {
        order.splice(j, 0, order.splice(i, 1)[0]!);
        moved = true;
      }
    }
  }
  return order;
}

export class BatchFront {
  private placedWindows: PlacedWindow[] = [];
  private named: FrontTarget | null = null;
  private placedAfterNamed = false;

  /** A window was placed (moved, sized, restored, made full screen). `all`: the window list before, for undo's focus. */
  placed(backend: WindowBackend, w: Pick<RawWindow, 'id' | 'bounds'>, app: string, all: readonly RawWindow[], undo: UndoCollector, frame: Rect4 = w.bounds): void {
    undo.noteFocus(all);
    this.placedWindows = [...this.placedWindows.filter((p) => p.id !== w.id), { backend, id: w.id, app, frame }];
    if (this.named) this.placedAfterNamed = true;
  }

  /** The person named what to focus. */
  focused(target: FrontTarget): void {
    this.named = target;
    this.placedAfterNamed = false;
  }

  /** Raises what was placed and gives the one focus; a warning when that could not be done. */
  async finish(): Promise<string | null> {
    const last = this.placedWindows.at(-1);
    if (!last || (this.named && !this.placedAfterNamed)) return null;
    const final: FrontTarget = this.named ?? { label: last.app, refocus: () => last.backend.focus(last.id) };
    try {
      // The focus moves first: a window manager may keep the focused window in a higher layer
      // (openbox does, for an undecorated window the size of its monitor), above any raise.
      await final.refocus();
      for (const p of raiseOrder(this.placedWindows)) {
        // A window closed later in the batch is simply not raised.
        await p.backend.raise(p.id).catch((e: unknown) => {
          if (!(e instanceof WindowGoneError)) throw e;
        });
      }
      if (this.named) await this.named.refocus();
      return null;
    } catch (e) {
      return `${final.label} could not be brought to the front: ${errorMessage(e)}`;
    }
  }
}

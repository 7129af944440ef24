import { errorMessage, WindowGoneError } from './errors';
import type { RawWindow, WindowBackend } from './ports';
import type { UndoCollector } from './undo-collector';

// What ends up in front after a batch. Windows that were placed come to the front (moving a
// window behind a maximised browser would look like nothing happened), in the order they were
// placed, and the batch ends with one focus: on what the person named to focus (focus_app,
// switch_tab) when a window was placed after it, else on the last window placed. A placement
// asked to stay behind (raise: false) takes no part.

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
}

export class BatchFront {
  private placedWindows: PlacedWindow[] = [];
  private named: FrontTarget | null = null;
  private placedAfterNamed = false;

  /** A window was placed (moved, sized, restored, made full screen). `all`: the window list before, for undo's focus. */
  placed(backend: WindowBackend, w: Pick<RawWindow, 'id'>, app: string, all: readonly RawWindow[], undo: UndoCollector): void {
    undo.noteFocus(all);
    this.placedWindows = [...this.placedWindows.filter((p) => p.id !== w.id), { backend, id: w.id, app }];
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
      for (const p of this.placedWindows) {
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

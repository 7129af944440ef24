import type { CatalogApp, RawMonitor, RawWindow } from './ports';

// Issue 28: one place_app through exec() read the window and monitor lists twice — once for
// the snapshot prepare resolved against, and again when the placement started — and on a
// Wayland compositor each list is a round trip to it (sway's tree, GNOME's and KWin's scripts).
//
// The desk the snapshot read may stand in for the first command's own read, and only then:
// - only in exec(), where prepare and run follow each other with nothing awaited on a person
//   (no confirmation) and nothing in between acts on the desk; a batch prepared, confirmed and
//   run later (or arriving over a socket) reads the desk again when it runs, so a window closed
//   meanwhile is still refused (and an X id reused by another app's window is not taken for it);
// - only for the batch's first command, and only once: every later command, and a second read
//   inside the first, starts from a fresh list, because the batch itself has changed the desk;
// - only a read the snapshot itself made in this exec, never a caller's older snapshot.
// Between that read and the move, the user may still close the window; that was true between
// readDesk and the move before as well, and the backend refuses an id that no longer exists.

/** The raw lists one snapshot read from the window backend and the app catalog. */
export interface DeskRead {
  windows: RawWindow[];
  monitors: RawMonitor[];
  catalog: CatalogApp[];
}

/** Holds the snapshot's read until it is taken once, or dropped. */
export class OneDeskRead {
  private read: DeskRead | null = null;

  keep(read: DeskRead): void {
    this.read = read;
  }

  /** The read, the first time only; null after that, after drop(), or when none was kept. */
  take(): DeskRead | null {
    const read = this.read;
    this.read = null;
    return read;
  }

  drop(): void {
    this.read = null;
  }
}

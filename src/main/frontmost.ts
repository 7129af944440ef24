import type { ContextSnapshot } from '../protocol/context';

// The app window the user was in when the launcher (or popover) opened, for follow-ups such
// as "put it on the right". Read through the engine's own window backend (a snapshot without
// summaries) just before DeskPilot's window shows; DeskPilot's own windows never count.

export interface Frontmost {
  app: string;
  title: string;
}

/** The focused window's app and title, skipping the process that asks (our own windows). */
export function focusedWindow(snapshot: Pick<ContextSnapshot, 'running_apps'>, ownPid: number): Frontmost | null {
  for (const app of snapshot.running_apps) {
    if (app.pid === ownPid) continue;
    const w = app.windows.find((win) => win.focused);
    if (w) return { app: app.name, title: w.title };
  }
  return null;
}

export class FrontmostTracker {
  private value: Frontmost | null = null;
  private seq = 0;

  constructor(
    private readonly snapshot: () => Promise<Pick<ContextSnapshot, 'running_apps'>>,
    private readonly ownPid: number,
    /** Showing must stay instant: wait at most this long before showing anyway. */
    private readonly waitMs = 150,
  ) {}

  current(): Frontmost | null {
    return this.value;
  }

  /**
   * Starts reading the focused window and resolves when it is known or after waitMs,
   * whichever is first. A late answer still counts unless a newer capture began; a failed
   * read forgets the old value rather than report a stale window.
   */
  capture(): Promise<void> {
    const mine = ++this.seq;
    const read = this.snapshot().then(
      (s) => {
        if (mine === this.seq) this.value = focusedWindow(s, this.ownPid);
      },
      () => {
        if (mine === this.seq) this.value = null;
      },
    );
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.waitMs);
      timer.unref?.();
    });
    return Promise.race([read, timeout]).finally(() => clearTimeout(timer));
  }
}

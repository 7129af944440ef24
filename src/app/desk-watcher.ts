import type { ContextSnapshot } from '../protocol/context';
import type { Desk } from './desk';

// Notices that tabs or windows changed, by comparing a cheap signature of the desk every
// second, and only while someone listens. A stopgap until the live desk model is driven by
// Chrome's target events and the window manager's: same callback, better source.

export type DeskChange = 'tabs' | 'windows';

export const WATCH_INTERVAL_MS = 1000;

/** What a subscriber cares about, as two strings: equal strings, nothing worth telling. */
export function deskSignature(snap: ContextSnapshot): Record<DeskChange, string> {
  return {
    tabs: JSON.stringify(snap.sources.chrome.ok ? snap.tabs.map((t) => [t.target_id, t.title, t.url, t.is_active, t.window_index]) : null),
    windows: JSON.stringify(
      snap.sources.windows.ok ? snap.running_apps.map((a) => [a.name, a.windows.map((w) => [w.id, w.title, w.bounds, w.focused, w.minimized])]) : null,
    ),
  };
}

/** Calls `onChange` with what changed, until the returned function is called. Never throws. */
export function watchDesk(desk: Pick<Desk, 'snapshot'>, onChange: (what: DeskChange[]) => void, intervalMs = WATCH_INTERVAL_MS): () => void {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let last: Record<DeskChange, string> | null = null;
  const tick = async () => {
    try {
      const now = deskSignature(await desk.snapshot({ summaries: false }));
      const what = last ? (['tabs', 'windows'] as const).filter((k) => now[k] !== last![k]) : [];
      last = now;
      if (what.length && !stopped) onChange([...what]);
    } catch {
      // The desk is closing or a backend hiccuped: try again on the next tick.
    }
    // One tick at a time: a slow snapshot delays the next instead of piling up.
    if (!stopped) timer = setTimeout(() => void tick(), intervalMs).unref();
  };
  void tick();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

import type { ContextSnapshot } from '../protocol/context';
import type { Desk } from './desk';

// Notices that tabs or windows changed, only while someone listens. Tabs: where the engine
// keeps them from Chrome's events (the warm service), a change is looked at as soon as Chrome
// reports it; windows are still found by comparing a cheap signature every second, since the
// window backend reports no events. Without a tab source (an engine in this process) the same
// once-a-second look covers the tabs too.

export type DeskChange = 'tabs' | 'windows';

export const WATCH_INTERVAL_MS = 1000;
/** Chrome reports one change as several events (a page's title, then its address): looked at once. */
const TAB_EVENT_SETTLE_MS = 30;

/** What a subscriber cares about, as two strings: equal strings, nothing worth telling. */
export function deskSignature(snap: ContextSnapshot): Record<DeskChange, string> {
  return {
    tabs: JSON.stringify(snap.sources.chrome.ok ? snap.tabs.map((t) => [t.target_id, t.title, t.url, t.is_active, t.window_index]) : null),
    windows: JSON.stringify(
      snap.sources.windows.ok ? snap.running_apps.map((a) => [a.name, a.windows.map((w) => [w.id, w.title, w.bounds, w.focused, w.minimized])]) : null,
    ),
  };
}

/** Subscribes to "the tabs changed" (the engine's live tab list); returns the function that unsubscribes. */
export type TabChangeSource = (fn: () => void) => () => void;

/**
 * Stops a watch; `ready` settles once the first look has set what later looks compare with —
 * from then on every change is told (a change before it is part of the starting point).
 */
export type Watch = (() => void) & { ready: Promise<void> };

/** Calls `onChange` with what changed, until the returned function is called. Never throws. */
export function watchDesk(
  desk: Pick<Desk, 'snapshot'>,
  onChange: (what: DeskChange[]) => void,
  opts: { intervalMs?: number; tabChanges?: TabChangeSource } = {},
): Watch {
  const intervalMs = opts.intervalMs ?? WATCH_INTERVAL_MS;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let soon: NodeJS.Timeout | undefined;
  let last: Record<DeskChange, string> | null = null;
  let looking: Promise<void> | null = null;
  /** A tab event came while a look was under way: look again after it. */
  let again = false;
  const look = async () => {
    try {
      const now = deskSignature(await desk.snapshot({ summaries: false }));
      const what = last ? (['tabs', 'windows'] as const).filter((k) => now[k] !== last![k]) : [];
      last = now;
      if (what.length && !stopped) onChange([...what]);
    } catch {
      // The desk is closing or a backend hiccuped: try again on the next look.
    }
  };
  // One look at a time: a slow snapshot delays the next instead of piling up.
  const lookNow = (): Promise<void> =>
    (looking ??= look().finally(() => {
      looking = null;
      if (again && !stopped) {
        again = false;
        void lookNow();
      }
    }));
  const tick = async () => {
    await lookNow();
    if (!stopped) timer = setTimeout(() => void tick(), intervalMs).unref();
  };
  const onTabEvent = () => {
    if (stopped || soon) return;
    soon = setTimeout(() => {
      soon = undefined;
      if (looking) again = true;
      else void lookNow();
    }, TAB_EVENT_SETTLE_MS).unref();
  };
  const unsubscribe = opts.tabChanges?.(onTabEvent);
  const ready = tick();
  const stop = () => {
    stopped = true;
    clearTimeout(timer);
    clearTimeout(soon);
    unsubscribe?.();
  };
  return Object.assign(stop, { ready });
}

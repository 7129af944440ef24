import type { AppCatalog, RecentPlaces } from '../../engine/ports';

// A list read from many files (the installed apps, the recent files and projects), kept for a
// moment and answered again from memory. A long-lived process (the service, the app) takes a
// snapshot for every command, preview and launcher refresh, and these lists were half of a
// warm snapshot's time (~0.9 of 1.9 ms with 100 tabs: a stat or read per file, every time),
// though they change only when the user installs an app or opens a file elsewhere. A process
// that takes one snapshot, like a CLI call on its own, reads them as before.

/** How long a list is answered from memory after it was read. */
export const LIST_REUSE_MS = 2_000;

/**
 * `read`, answering the same arguments from the last read for `ms` after it began (a read in
 * flight is shared). A failed read is not kept.
 */
export function reusedFor<A extends unknown[], T>(ms: number, read: (...args: A) => Promise<T>, now: () => number = Date.now): (...args: A) => Promise<T> {
  const kept = new Map<string, { at: number; value: Promise<T> }>();
  return (...args: A) => {
    const key = JSON.stringify(args);
    const hit = kept.get(key);
    if (hit && now() - hit.at < ms) return hit.value;
    const value = read(...args);
    const entry = { at: now(), value };
    kept.set(key, entry);
    value.catch(() => {
      if (kept.get(key) === entry) kept.delete(key);
    });
    return value;
  };
}

/** The catalog with its list reused for `ms`; launching is untouched. */
export function catalogReusedFor(ms: number, catalog: AppCatalog, now?: () => number): AppCatalog {
  return { list: reusedFor(ms, () => catalog.list(), now), launch: (app) => catalog.launch(app) };
}

/** The recent places with their list reused for `ms`; opening is untouched. */
export function recentReusedFor(ms: number, recent: RecentPlaces, now?: () => number): RecentPlaces {
  return {
    list: reusedFor(ms, (limit: number) => recent.list(limit), now),
    open: (path, app) => recent.open(path, app),
    openRefusal: (path, app) => recent.openRefusal(path, app),
  };
}

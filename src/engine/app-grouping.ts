import type { MonitorInfo, RunningApp } from '../protocol/context';
import { monitorOf } from './monitor-roles';
import type { CatalogApp, RawWindow } from './ports';

// Windows become apps: a window whose app keys (WM_CLASS, bundle id, exe name) the catalog
// knows gets the catalog's display name ("xterm" → "XTerm"), any other its own fallback name.

export type NameResolver = (w: RawWindow) => string;

/**
 * A window key without what packagers add to a program's name: a profile in parentheses
 * (Chromium's instance "chromium-browser (/tmp/p)"), "-browser", "-stable", "-bin". Chromium's
 * window class is "Chromium-browser" while its .desktop file says StartupWMClass=chromium.
 */
export const baseKey = (key: string) =>
  key
    .toLowerCase()
    .replace(/\s*\(.*\)\s*$/, '')
    .replace(/-(?:browser|stable|bin)$/, '');

export function nameResolver(catalog: readonly CatalogApp[]): NameResolver {
  const byKey = new Map<string, string>();
  const byBase = new Map<string, string>();
  for (const app of catalog) {
    for (const key of app.windowKeys) {
      if (!byKey.has(key)) byKey.set(key, app.name);
      if (!byBase.has(baseKey(key))) byBase.set(baseKey(key), app.name);
    }
  }
  return (w) => {
    // Exact keys first: "google-chrome-beta" is its own app, not Google Chrome.
    for (const key of w.appKeys) {
      const name = byKey.get(key.toLowerCase());
      if (name) return name;
    }
    for (const key of w.appKeys) {
      const name = byBase.get(baseKey(key));
      if (name) return name;
    }
    return w.fallbackName;
  };
}

/** Apps in the order of their most recently used window; each app's windows most recent first. */
export function groupWindows(windows: readonly RawWindow[], nameOf: NameResolver, monitors: readonly MonitorInfo[]): RunningApp[] {
  const apps = new Map<string, RunningApp>();
  // The backends list windows topmost first: the position is the stacking order.
  for (const [stacking, w] of windows.entries()) {
    const name = nameOf(w);
    let app = apps.get(name.toLowerCase());
    if (!app) apps.set(name.toLowerCase(), (app = { name, pid: w.pid, windows: [] }));
    app.windows.push({
      id: w.id,
      title: w.title,
      bounds: [...w.bounds],
      monitor: monitorOf(w.bounds, monitors)?.name ?? null,
      focused: w.focused,
      minimized: w.minimized,
      state: shownState(w),
      stacking,
      pid: w.pid,
    });
  }
  return [...apps.values()];
}

const shownState = (w: RawWindow) => (w.minimized ? 'minimized' : w.fullscreen ? 'fullscreen' : w.maximized ? 'maximized' : 'normal');

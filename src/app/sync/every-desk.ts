import type { ContextSnapshot, TabInfo } from '../../protocol/context';
import type { DeviceView } from '../../protocol/sync';
import { windowRows, type WindowRow } from '../../engine/window-listing';
import { plural } from '../../engine/words';

// Reads across every device at once (seed 003's read tools, issue 29.4): this desk as it is
// now, beside every other paired device's published desk, read from the synced document in
// one go — no device is asked anything, so an offline one answers too. Each item says its
// device; a device that is offline says since when its desk is known (it may have changed
// since). Used by the MCP read tools with `device: "all"` and by the CLI's `--device all`.

/** One device's desk as read for a listing across devices. */
export interface DeskReading {
  /** The device's name, as this desk paired it. */
  device: string;
  device_id: string | null;
  this_device: boolean;
  online: boolean;
  /**
   * Epoch ms up to which the desk is known to be as listed: now for this desk and for an online
   * device (its worker publishes each change within seconds), an offline device's last sign of life.
   */
  as_of: number;
  /** Offline: what is listed is its desk as it was at `as_of`. */
  stale: boolean;
  snapshot: ContextSnapshot | null;
  /** Why nothing can be read of it (nothing published yet, another version's desk). */
  problem: string | null;
}

/**
 * This desk (read live by the caller) and the other devices this desk trusts, as they
 * published (removed devices left out). `views` null: no sync is configured, this desk alone.
 */
export function readEveryDesk(here: ContextSnapshot, views: readonly DeviceView[] | null, now: number): DeskReading[] {
  const self = views?.find((v) => v.this_device);
  const mine: DeskReading = { device: self?.device.name ?? 'this computer', device_id: self?.device.id ?? null, this_device: true, online: true, as_of: now, stale: false, snapshot: here, problem: null };
  const others = (views ?? [])
    .filter((v) => !v.this_device && v.device.removed_at === undefined)
    .map<DeskReading>((v) => ({
      device: v.device.name,
      device_id: v.device.id,
      this_device: false,
      online: v.online,
      as_of: v.online ? now : v.device.last_seen,
      stale: !v.online,
      snapshot: v.snapshot,
      problem: v.snapshot ? null : v.problem ?? 'it has published nothing yet',
    }));
  return [mine, ...others];
}

const ago = (ms: number) => (ms < 90_000 ? `${Math.max(0, Math.round(ms / 1000))} s` : ms < 90 * 60_000 ? `${Math.round(ms / 60_000)} min` : ms < 48 * 3_600_000 ? `${Math.round(ms / 3_600_000)} h` : `${Math.round(ms / 86_400_000)} days`);

/** Why this reading has nothing of `what` (tabs: Chrome; windows), or null when it can be listed. */
export function unreadable(r: DeskReading, what: 'chrome' | 'windows'): string | null {
  if (!r.snapshot) return r.problem;
  const source = r.snapshot.sources[what];
  return source.ok ? null : `${what === 'chrome' ? 'Chrome' : 'windows'} unavailable: ${source.message}`;
}

/** `"home desktop": 4 tabs, offline — as it was 3 h ago, it may have changed since` — one line per device. */
export function readingLine(r: DeskReading, now: number, what: 'chrome' | 'windows'): string {
  const where = r.this_device ? `"${r.device}" (this computer)` : `"${r.device}"`;
  const missing = unreadable(r, what);
  if (missing) return `${where}: nothing to list — ${missing}`;
  const snap = r.snapshot!;
  const count = what === 'chrome' ? plural(snap.tabs.length, 'tab') : plural(snap.running_apps.reduce((n, a) => n + a.windows.length, 0), 'window');
  const when = r.stale ? `offline — as it was ${ago(now - r.as_of)} ago, it may have changed since` : r.this_device ? 'now' : 'online';
  return `${where}: ${count}, ${when}`;
}

export interface TabOnDevice {
  device: string;
  tab: TabInfo;
}

/** Every tab of every readable desk, device by device, in each desk's own order. */
export const tabsOnEveryDesk = (readings: readonly DeskReading[]): TabOnDevice[] =>
  readings.flatMap((r) => (unreadable(r, 'chrome') ? [] : r.snapshot!.tabs.map((tab) => ({ device: r.device, tab }))));

/** The tabs whose title, address or site holds every word of `query` (as the engine's search_tabs matches), any case. */
export function searchEveryDesk(readings: readonly DeskReading[], query: string): TabOnDevice[] {
  const want = query.toLowerCase().split(/\s+/).filter(Boolean);
  return tabsOnEveryDesk(readings).filter(({ tab }) => {
    const hay = `${tab.title} ${tab.url} ${tab.domain}`.toLowerCase();
    return want.every((w) => hay.includes(w));
  });
}

export interface SiteAcrossDevices {
  site: string;
  n: number;
  /** Tabs of this site per device name. */
  devices: Record<string, number>;
}

/** Tabs per site over every desk, most first (a site on two devices is one row, split by device). */
export function sitesOnEveryDesk(readings: readonly DeskReading[]): SiteAcrossDevices[] {
  const sites = new Map<string, SiteAcrossDevices>();
  for (const { device, tab } of tabsOnEveryDesk(readings)) {
    const site = tab.domain || tab.url;
    const row = sites.get(site) ?? { site, n: 0, devices: {} };
    row.n++;
    row.devices[device] = (row.devices[device] ?? 0) + 1;
    sites.set(site, row);
  }
  return [...sites.values()].sort((a, b) => b.n - a.n || a.site.localeCompare(b.site));
}

export interface WindowOnDevice extends WindowRow {
  device: string;
}

/** Every window of every readable desk, device by device, topmost first within each. */
export const windowsOnEveryDesk = (readings: readonly DeskReading[]): WindowOnDevice[] =>
  readings.flatMap((r) => (unreadable(r, 'windows') ? [] : windowRows(r.snapshot!).map((w) => ({ device: r.device, ...w }))));

/** "12 tabs on 3 devices" */
export const acrossDevices = (n: number, word: string, readings: readonly DeskReading[]) => `${plural(n, word)} on ${plural(readings.length, 'device')}`;

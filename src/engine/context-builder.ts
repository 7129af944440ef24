import { MAX_RECENT, type ContextSnapshot, type InstalledApp, type MonitorInfo, type RunningApp, type SourceStatus, type TabInfo } from '../protocol/context';
import { groupWindows, nameResolver } from './app-grouping';
import { linkBrowserWindows } from './browser-windows';
import { assignRoles } from './monitor-roles';
import { errorMessage } from './errors';
import type { AppCatalog, CatalogApp, ChromeBackend, PresetStore, RecentPlaces, TabCollectionStore, WindowBackend } from './ports';
import { tabUsageOf, toTabInfos } from './tab-listing';
import type { DeskRead } from './desk-read';

export interface ContextSources {
  chrome: () => Promise<ChromeBackend>;
  /** null: no window backend for this platform yet; the reason is shown instead. */
  windows: (() => Promise<WindowBackend>) | null;
  windowsUnavailableReason?: string;
  apps: AppCatalog;
  presets: PresetStore;
  /** Saved sets of tabs; absent: the snapshot lists none. */
  tabCollections?: TabCollectionStore;
  /** Recent files and projects; absent: the snapshot lists none. */
  recent?: RecentPlaces;
  now?: () => Date;
}

export interface SnapshotOptions {
  /** Fetch content summaries (cached per tab; a slow tab yields null after the timeout). */
  summaries?: boolean;
  summaryTimeoutMs?: number;
  /** Told the raw window and monitor lists this snapshot read (exec() hands them to its first command: desk-read.ts). */
  onDeskRead?: (read: DeskRead) => void;
}

export const NO_WINDOW_BACKEND = 'no window backend on this platform yet: app and window commands are unavailable';

/** Everything is gathered in parallel; a failing source is reported in `sources`, never thrown. */
export async function buildContext(src: ContextSources, opts: SnapshotOptions = {}): Promise<ContextSnapshot> {
  const now = src.now ?? (() => new Date());
  const catalog = src.apps.list().catch((): CatalogApp[] => []);
  const [chrome, windows, installed, presets, collections, recent] = await Promise.all([
    chromePart(src, opts),
    windowsPart(src, catalog, opts.onDeskRead),
    catalog.then(installedApps),
    presetsPart(src),
    src.tabCollections?.list().then((l) => l.map((c) => c.name)).catch(() => undefined),
    // Recent items help; a reader that fails must not cost the snapshot.
    src.recent?.list(MAX_RECENT).catch(() => undefined),
  ]);
  return {
    taken_at: now().toISOString(),
    monitors: windows.monitors,
    running_apps: linkBrowserWindows(windows.apps, chrome.tabs),
    installed_apps: installed,
    tabs: chrome.tabs,
    presets: presets.names,
    ...(collections ? { tab_collections: collections } : {}),
    ...(recent ? { recent_files: recent.files.slice(0, MAX_RECENT), recent_projects: recent.projects.slice(0, MAX_RECENT) } : {}),
    ...(chrome.usage ? { tab_usage: chrome.usage } : {}),
    sources: { windows: windows.status, chrome: chrome.status, presets: presets.status, ...(chrome.companion ? { companion: chrome.companion } : {}) },
  };
}

async function chromePart(
  src: ContextSources,
  opts: SnapshotOptions,
): Promise<{ tabs: TabInfo[]; status: SourceStatus; companion?: SourceStatus; usage?: ContextSnapshot['tab_usage'] }> {
  try {
    const chrome = await src.chrome();
    const [listing, description] = await Promise.all([chrome.listTabsInDetail(), chrome.describe()]);
    const raw = listing.tabs;
    const summaries = opts.summaries
      ? await chrome.summarize(
          raw.map((t) => t.targetId),
          opts.summaryTimeoutMs ?? 300,
        )
      : new Map<string, string | null>();
    return { tabs: toTabInfos(raw, summaries), status: { ok: true, message: description }, companion: listing.companion, usage: tabUsageOf(listing) };
  } catch (e) {
    return { tabs: [], status: { ok: false, message: errorMessage(e) } };
  }
}

async function presetsPart(src: ContextSources): Promise<{ names: string[]; status: SourceStatus }> {
  try {
    const list = await src.presets.list();
    return { names: list.map((p) => p.name), status: { ok: true, message: `${list.length} preset${list.length === 1 ? '' : 's'}` } };
  } catch (e) {
    return { names: [], status: { ok: false, message: errorMessage(e) } };
  }
}

/** Enough words to be recognised by; some entries list dozens (translations, synonyms). */
const MAX_KEYWORDS = 8;

/** Each display name once; the catalog decides which entry a duplicate name means. */
function installedApps(catalog: CatalogApp[]): InstalledApp[] {
  const seen = new Set<string>();
  return catalog
    .filter((a) => !seen.has(a.name.toLowerCase()) && seen.add(a.name.toLowerCase()))
    .map((a) => ({
      name: a.name,
      ...(a.genericName ? { generic_name: a.genericName } : {}),
      ...(a.keywords?.length ? { keywords: a.keywords.slice(0, MAX_KEYWORDS) } : {}),
      ...(a.defaultFor?.length ? { default_for: [...a.defaultFor] } : {}),
    }));
}

async function windowsPart(
  src: ContextSources,
  catalog: Promise<CatalogApp[]>,
  onDeskRead?: (read: DeskRead) => void,
): Promise<{ monitors: MonitorInfo[]; apps: RunningApp[]; status: SourceStatus }> {
  if (!src.windows) {
    return { monitors: [], apps: [], status: { ok: false, message: src.windowsUnavailableReason ?? NO_WINDOW_BACKEND } };
  }
  try {
    const backend = await src.windows();
    const [raw, windows, description, apps] = await Promise.all([
      backend.listMonitors(),
      backend.listWindows(),
      backend.describe(),
      catalog,
    ]);
    onDeskRead?.({ windows, monitors: raw, catalog: apps });
    const monitors = assignRoles(raw);
    return { monitors, apps: groupWindows(windows, nameResolver(apps), monitors), status: { ok: true, message: description } };
  } catch (e) {
    return { monitors: [], apps: [], status: { ok: false, message: errorMessage(e) } };
  }
}

import type { InstalledApp, MonitorInfo, RunningApp } from '../protocol/context';

// The ports the engine needs. Implementations live in src/platform; the engine never
// imports them, so it runs the same under Electron, the CLI and tests.

/** One Chrome tab as the backend sees it, already in display order. */
export interface ChromeTab {
  targetId: string;
  title: string;
  url: string;
  active: boolean;
  /** 1-based position of the window among the browser's windows (stable order). */
  windowIndex: number;
  /** 1-based position of the tab in its window's tab strip. */
  localIndex: number;
}

export interface CloseTabsResult {
  closed: string[];
  /** Target ids that no longer existed when closing. */
  missing: string[];
}

export interface ChromeBackend {
  /** Human-readable description of where it is connected, e.g. "Chromium 156 at 127.0.0.1:9222". */
  describe(): Promise<string>;
  /** Tabs ordered by window (stable order), then tab-strip position. */
  listTabs(): Promise<ChromeTab[]>;
  /**
   * Cheap one-line summaries (meta description or first visible words). A slow or frozen tab
   * yields null after `timeoutMs`; results are cached per target and URL.
   */
  summarize(targetIds: string[], timeoutMs: number): Promise<Map<string, string | null>>;
  /** Select the tab and raise its window. Throws TabGoneError when the target no longer exists. */
  activateTab(targetId: string): Promise<void>;
  /** Always a new tab, in the most recently used window. Resolves with the new target id. */
  openUrl(url: string): Promise<{ targetId: string }>;
  /** Close exactly these targets; resolves when they are gone. */
  closeTabs(targetIds: string[]): Promise<CloseTabsResult>;
  /** Detach; never closes the user's browser. */
  dispose(): Promise<void>;
}

/** Filled by the windows issue; until then the engine reports the gap. */
export interface WindowBackend {
  describe(): Promise<string>;
  listMonitors(): Promise<MonitorInfo[]>;
  listRunningApps(): Promise<RunningApp[]>;
  dispose(): Promise<void>;
}

export interface AppCatalog {
  list(): Promise<InstalledApp[]>;
}

export interface PresetStore {
  names(): Promise<string[]>;
}

/** Where execution records go (see record.ts). */
export interface HistoryStore {
  append(records: ReadonlyArray<import('../protocol/record').ExecutionRecord>): Promise<void>;
  recent(limit: number): Promise<import('../protocol/record').ExecutionRecord[]>;
}

/** Ports whose acquisition can fail say why in one actionable sentence. */
export type PortProvider<T> = () => Promise<T>;

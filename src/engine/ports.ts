
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
  /** The browser's own id of that window (CDP windowId), where the backend knows it. */
  browserWindowId?: number;
  /** 1-based position of the tab in its window's tab strip. */
  localIndex: number;
  /** Pinned in its strip (Chrome reports it on tab targets, the companion extension too). */
  pinned?: boolean;
  /** Known only with the companion extension. */
  muted?: boolean;
  audible?: boolean;
  /** Its tab group, null for none; known only with the companion extension. */
  group?: { title: string; color: string } | null;
  /** When it was last used (selected), ms since the epoch; null: not known. */
  lastUsed?: number | null;
}

/** Whether the companion extension answers, with the sentence a person acts on when it does not. */
export interface CompanionStatus {
  ok: boolean;
  message: string;
}

/** Tabs with everything the tab manager knows about them: state, tab ages, and where they came from. */
export interface TabListing {
  tabs: ChromeTab[];
  companion: CompanionStatus;
  /** null: no tab's last use is known. */
  usage: { source: 'companion' | 'service'; watchedSince: number | null } | null;
}

/** A tab group as it was, to put a tab back into it. */
export interface TabGroupRef {
  groupId: number;
  windowId: number;
  title: string;
  color: string;
}

/** Where a tab was in the tab strips: the browser's window id and its 0-based strip index. */
export interface TabPlace {
  windowId: number;
  index: number;
}

/** What a tab-changing call did: each tab's state before, and the ids that no longer existed. */
export interface TabChanges<T> {
  changed: Array<{ targetId: string; before: T }>;
  missing: string[];
  /** Tabs the browser refused to change, with its reason. */
  failed?: Array<{ targetId: string; error: string }>;
}

/** A tab to open (again): its address, and where it was when there is a place to go back to. */
export interface TabToOpen {
  url: string;
  place?: TabPlace | null;
  pinned?: boolean;
}

/** Where open_url puts its tab: a new browser window, or the open window of that browser id (CDP windowId). */
export type BrowserWindowTarget = { newWindow: true } | { windowId: number };

/**
 * Where moved tabs go: the window holding any of `windowOf`, the window `windowId` (that very
 * one: closed means nothing moves), or a new window; `index` is the 0-based strip position the
 * first moved tab takes (default: the end).
 */
export type MoveDestination = { windowOf: string[]; index?: number } | { windowId: number; index?: number } | { newWindow: true };

export interface OpenTabsWhere {
  newWindow?: boolean;
  windowOf?: string[];
  windowId?: number;
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
  /**
   * Why this URL must not be opened, as one sentence — it is (or reaches) a browser's DevTools
   * endpoint, which would let a page control the browser — or null when it may be.
   */
  navigationRefusal(url: string): Promise<string | null>;
  /**
   * Always a new tab: in the most recently used window, a new window, or the window `where`
   * names (a window that is not open is an error and nothing opens). Resolves with the new
   * target id. Refuses (throws) what navigationRefusal refuses, also when a redirect leads there.
   */
  openUrl(url: string, where?: BrowserWindowTarget): Promise<{ targetId: string }>;
  /** Close exactly these targets; resolves when they are gone. */
  closeTabs(targetIds: string[]): Promise<CloseTabsResult>;

  // The tab manager. Calls marked "companion" need the companion browser extension and throw
  // a DeskPilotError with code 'unavailable' (saying how to add it) when it does not answer.

  /** listTabs plus pinned/muted/group/last use where known, and whether the companion answers. */
  listTabsInDetail(): Promise<TabListing>;
  /** Whether the companion extension answers now (looked up afresh). */
  companion(): Promise<CompanionStatus>;
  /** Where each tab is (window id, strip index); absent for tabs that are gone. */
  placesOf(targetIds: string[]): Promise<Map<string, TabPlace>>;
  /** Reload; `done`: the tabs reloaded. */
  reloadTabs(targetIds: string[], ignoreCache: boolean): Promise<{ done: string[]; missing: string[] }>;
  /** Companion: pin or unpin; each tab's pinned state before. */
  setPinned(targetIds: string[], pinned: boolean): Promise<TabChanges<boolean>>;
  /** Companion: mute or unmute; each tab's muted state before. */
  setMuted(targetIds: string[], muted: boolean): Promise<TabChanges<boolean>>;
  /** Companion: into one group titled `title` in the first tab's window (reusing one of that title there); each tab's group before. */
  groupTabs(targetIds: string[], title: string, color?: string): Promise<TabChanges<TabGroupRef | null> & { group: TabGroupRef }>;
  /** Companion: out of their groups; each tab's group before. */
  ungroupTabs(targetIds: string[]): Promise<TabChanges<TabGroupRef | null>>;
  /** Companion: back into these groups (a group that is gone is made again with its title and colour), or out of any (null). */
  regroupTabs(entries: Array<{ targetId: string; group: TabGroupRef | null }>): Promise<{ done: string[]; missing: string[] }>;
  /** Companion: move to the destination (MoveDestination); each tab's place before. */
  moveTabs(targetIds: string[], to: MoveDestination): Promise<TabChanges<TabPlace> & { windowId: number }>;
  /** Companion: each tab back to this place (its window, if still open, at that index). */
  placeTabs(entries: Array<{ targetId: string; place: TabPlace }>): Promise<{ done: string[]; missing: string[] }>;
  /**
   * Opens these addresses as background tabs, in order: at their place when given and the
   * companion answers (and that window is still open), else in a new window (`newWindow`), the
   * window of `windowOf` or `windowId` (throws, opening nothing, when that window is gone) or
   * the most recently used one. One outcome per tab, in order: its new target id, or why it
   * was not opened (an address that is not a web page, file or browser page, or the DevTools endpoint).
   */
  openTabs(tabs: TabToOpen[], opts: OpenTabsWhere): Promise<Array<{ targetId: string } | { error: string }>>;
  /**
   * The tabs whose page text holds every word of `query` (case-insensitive), with a short
   * excerpt around the first word. Page text is indexed once per tab and address, bounded.
   */
  searchPageText(targetIds: string[], query: string): Promise<Map<string, string>>;
  /** Detach; never closes the user's browser. */
  dispose(): Promise<void>;
}

/** [left, top, right, bottom], absolute screen pixels. */
export type Rect4 = [number, number, number, number];

/** A monitor as the backend reports it; the engine assigns the main/left/right roles. */
export interface RawMonitor {
  id: string;
  name: string;
  bounds: Rect4;
  workArea: Rect4;
  primary: boolean;
  scale: number;
}

/** A top-level application window as the backend reports it. */
export interface RawWindow {
  id: string;
  pid: number | null;
  /**
   * What identifies the window's app, most specific first: X11 WM_CLASS instance and
   * class ("xterm", "XTerm"), a macOS bundle id or app name, a Windows exe base name.
   * The engine matches these (case-insensitively) against the catalog's windowKeys.
   */
  appKeys: string[];
  /** The name to show when the catalog does not know the app (e.g. the WM_CLASS class). */
  fallbackName: string;
  title: string;
  /** Outer frame (decorations included), absolute screen pixels. */
  bounds: Rect4;
  focused: boolean;
  minimized: boolean;
  /** In the window manager's full-screen state (absent: not known, or not). */
  fullscreen?: boolean;
  /** Maximised both ways (absent: not known, or not). */
  maximized?: boolean;
  /**
   * In a tiling compositor's layout (sway, i3), where the layout sets its frame: placing it makes
   * it floating first, and undo tiles it again (absent: not a tiling compositor, or floating).
   */
  tiled?: boolean;
}

export interface WindowBackend {
  /** e.g. "X11 (openbox) on :5". */
  describe(): Promise<string>;
  listMonitors(): Promise<RawMonitor[]>;
  /** Normal top-level windows, most recently used (top of the stacking order) first. */
  listWindows(): Promise<RawWindow[]>;
  /**
   * The window that has input focus, or null (the desktop, or none) — without listing every
   * window where the platform allows it (the launcher asks on every show).
   */
  focused(): Promise<RawWindow | null>;
  /** Raise and give input focus. Throws WindowGoneError for an id that no longer exists. */
  focus(id: string): Promise<void>;
  /**
   * Bring to the top of the stacking order without taking input focus where the platform can
   * (X11: _NET_RESTACK_WINDOW); elsewhere it raises the way focus does.
   */
  raise(id: string): Promise<void>;
  /** Un-minimise and un-maximise, so that bounds can apply. */
  restore(id: string): Promise<void>;
  /** Minimise (iconify); resolves once the window is hidden. */
  minimize(id: string): Promise<void>;
  /**
   * Enter or leave the window's true full screen (no decorations, the whole monitor). Throws a
   * DeskPilotError (code 'unavailable') where the platform backend cannot.
   */
  setFullscreen(id: string, on: boolean): Promise<void>;
  /**
   * Ask for this outer frame; resolves with the frame the window actually got once the
   * window manager has applied it (a window may refuse sizes, e.g. xterm's character cells).
   */
  setFrameBounds(id: string, bounds: Rect4): Promise<Rect4>;
  /**
   * Tiling compositors only: put a window placed out of the tiling layout back into it (undo of
   * a placement of a tiled window); resolves with the frame it got there.
   */
  retile?(id: string): Promise<Rect4>;
  /**
   * True where an app cannot bring its own window forward (Wayland compositors give the focus
   * only for an activation token, which a DevTools call does not carry): switch_tab then focuses
   * the browser's window through this backend. Absent (X11, macOS, Windows): the browser raises
   * itself when a tab is activated.
   */
  readonly appsCannotTakeFocus?: boolean;
  /** Ask the window to close, the way its close button does; never kills. */
  close(id: string): Promise<void>;
  /** Whether a process still exists (for close_app's report). */
  processAlive(pid: number): Promise<boolean>;
  dispose(): Promise<void>;
}

/** An installed application the catalog can launch. */
export interface CatalogApp {
  /** Display name, e.g. "XTerm", "Google Chrome". */
  name: string;
  /** Stable id: the .desktop file id, the .app bundle path, the shortcut path. */
  id: string;
  /** Lower-cased keys a running window of this app carries (StartupWMClass, desktop id, exec base name, bundle id). */
  windowKeys: string[];
  /** What kind of app it is, e.g. "Terminal", "Web Browser" (a .desktop GenericName, or its category's). */
  genericName?: string;
  /** Other words people use for it: a .desktop file's Keywords, its full Name when the display name is shorter. */
  keywords?: string[];
  /** What it is the system's default for. */
  defaultFor?: Array<'terminal' | 'browser'>;
}

export interface AppCatalog {
  list(): Promise<CatalogApp[]>;
  /** Start the app detached from DeskPilot; resolves once the process is spawned. */
  launch(app: CatalogApp): Promise<{ pid: number | null }>;
}

/** Recently used files and projects (the desktop's recent list, code editors' recent workspaces), and opening one again. */
export interface RecentPlaces {
  /** Newest first, at most `limit` of each; `app` is a catalog app's name when the recording app is one. */
  list(limit: number): Promise<{ files: import('../protocol/context').RecentItem[]; projects: import('../protocol/context').RecentItem[] }>;
  /** Opens `path` in the catalog app named `app`, or with the system's default handler (null); resolves once started. */
  open(path: string, app: string | null): Promise<{ pid: number | null }>;
  /**
   * Why `path` must not be opened in `app` (null: the default handler): the app would run the
   * file instead of showing it (a terminal, an interpreter, an entry that takes no files), or
   * the default handler might (an executable, a .desktop launcher). Null when it may open.
   * Rejects when `app` is not an installed app.
   */
  openRefusal(path: string, app: string | null): Promise<string | null>;
}

export interface PresetStore {
  list(): Promise<import('../protocol/preset').Preset[]>;
  /** Replaces a preset of the same name (case-insensitive). */
  save(preset: import('../protocol/preset').Preset): Promise<void>;
  /** Resolves false when there was no such preset. */
  delete(name: string): Promise<boolean>;
}

/** Saved sets of tabs (save_tabs / restore_tabs), kept in the config dir. */
export interface TabCollectionStore {
  list(): Promise<import('../protocol/tab-collection').TabCollection[]>;
  /** Replaces a set of the same name (case-insensitive). */
  save(collection: import('../protocol/tab-collection').TabCollection): Promise<void>;
  /** Resolves false when there was no such set. */
  delete(name: string): Promise<boolean>;
}

/** The undo stack, newest last; kept across restarts. */
export interface UndoStore {
  push(entry: import('../protocol/undo').UndoEntry): Promise<void>;
  /** Removes and returns up to n newest entries, newest first. */
  pop(n: number): Promise<import('../protocol/undo').UndoEntry[]>;
}

export interface PlanRequest {
  text: string;
  context: import('../protocol/context').ContextSnapshot;
  /** Recent turns, oldest first, for follow-ups ("now put it on the right"). */
  turns: readonly import('../protocol/planning').Turn[];
  /** On the repair round: the previous answer and exactly why it was refused. */
  repair?: { previous: string; errors: string[] };
  signal?: AbortSignal;
}

export interface TokenUsage {
  prompt_tokens: number;
  completion_tokens: number;
}

export interface PlannerAnswer {
  /** The envelope as the planner produced it; the engine validates it, never trusts it. */
  envelope: unknown;
  /** 0..1. The offline matcher answers 1 only when nothing was ambiguous. */
  confidence: number;
  /** The model's raw text (repair round, --explain). */
  raw?: string;
  usage?: TokenUsage;
  /**
   * With a clarification: the choices the planner considered, each a complete envelope, so a
   * UI can offer them as buttons (e.g. the two GitHub tabs). Validated like any answer.
   */
  candidates?: Array<{ label: string; envelope: unknown }>;
  /**
   * With a clarification: it asks nothing a person could answer — a backend the request needs
   * (Chrome, the window backend) is down. Callers report it as unavailable (exit 1), not a question.
   */
  backendDown?: boolean;
}

export interface Planner {
  readonly kind: 'local' | 'llm';
  /** "offline matcher", "gpt-4o-mini at https://api.openai.com/v1". */
  describe(): string;
  plan(req: PlanRequest): Promise<PlannerAnswer>;
}

/** Answers open questions about the desktop (the LLM); countable ones are answered locally. */
export interface QuestionAnswerer {
  answer(req: {
    question: string;
    context: import('../protocol/context').ContextSnapshot;
    turns: readonly import('../protocol/planning').Turn[];
    signal?: AbortSignal;
  }): Promise<{ answer: string; usage?: TokenUsage }>;
}

/** Recent turns, kept briefly (minutes) so follow-ups work across CLI invocations. */
export interface TurnStore {
  recent(limit: number): Promise<import('../protocol/planning').Turn[]>;
  append(turn: import('../protocol/planning').Turn): Promise<void>;
}

/** Where execution records go (see record.ts). */
export interface HistoryStore {
  append(records: ReadonlyArray<import('../protocol/record').ExecutionRecord>): Promise<void>;
  recent(limit: number): Promise<import('../protocol/record').ExecutionRecord[]>;
}

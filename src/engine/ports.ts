
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
  /**
   * Why this URL must not be opened, as one sentence — it is (or reaches) a browser's DevTools
   * endpoint, which would let a page control the browser — or null when it may be.
   */
  navigationRefusal(url: string): Promise<string | null>;
  /**
   * Always a new tab, in the most recently used window. Resolves with the new target id.
   * Refuses (throws) what navigationRefusal refuses, also when a redirect leads there.
   */
  openUrl(url: string): Promise<{ targetId: string }>;
  /** Close exactly these targets; resolves when they are gone. */
  closeTabs(targetIds: string[]): Promise<CloseTabsResult>;
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
  /**
   * Ask for this outer frame; resolves with the frame the window actually got once the
   * window manager has applied it (a window may refuse sizes, e.g. xterm's character cells).
   */
  setFrameBounds(id: string, bounds: Rect4): Promise<Rect4>;
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

export interface PresetStore {
  list(): Promise<import('../protocol/preset').Preset[]>;
  /** Replaces a preset of the same name (case-insensitive). */
  save(preset: import('../protocol/preset').Preset): Promise<void>;
  /** Resolves false when there was no such preset. */
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

/** Ports whose acquisition can fail say why in one actionable sentence. */
export type PortProvider<T> = () => Promise<T>;

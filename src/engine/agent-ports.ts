import type { AgentPlan, PageCommand } from '../protocol/agent';
import type { ErrorCode } from '../protocol/codes';
import type { TokenUsage } from './ports';

// The ports agent mode needs: a browser that snapshots and acts inside tabs, and the models
// that plan and execute. Implementations: src/platform/chrome/agent (CDP), src/platform/llm.

/** One target tab's state as the executor model sees it. */
export interface PageSnapshot {
  targetId: string;
  url: string;
  title: string;
  /**
   * The format the executor model is taught: `<browsing_context>` with a URL line and numbered interactive elements
   * (`<button id="2" label="Search">Search</button>`, new ones marked), "N more below", and an
   * `<api_activity>` block for XHR/fetch calls since the previous snapshot.
   */
  text: string;
  elementCount: number;
  /** Element numbers that were not in the previous snapshot of this page. */
  newIds: number[];
  /** True when the size budget cut elements (the most relevant were kept). */
  truncated: boolean;
}

/** What safety checks need to know about an element before acting on it. */
export interface ElementFacts {
  id: number;
  tag: string;
  type: string | null;
  isPassword: boolean;
  /** Inside a form that looks like payment (card number/cvc/expiry fields, autocomplete cc-*). */
  inPaymentForm: boolean;
  /** Would submitting (Enter, or clicking it) submit a form? */
  submitsForm: boolean;
}

/** What came of one in-tab command: it worked, or it failed with a code the loop decides by. */
export type ActionOutcome = ActionDone | ActionFailed;

interface OutcomeWords {
  /** What happened, in plain words ("Clicked element 3.", "Element ID 12 not found."). */
  message: string;
  /** Whether the DOM changed (or a navigation happened) after the action, within the wait. */
  changed: boolean;
  /** read_page text, select's chosen option, etc. */
  output?: string;
}

export interface ActionDone extends OutcomeWords {
  ok: true;
}

/** A recoverable failure: the model hears about it and may try another way. */
export interface ActionFailed extends OutcomeWords {
  ok: false;
  /** element_not_found (the numbers changed: a fresh snapshot helps), element_unusable, url_refused, timed_out … */
  code: ErrorCode;
}

export type InTabCommand = Exclude<PageCommand, { action: 'open_tab' | 'open_tool' | 'switch_tab' | 'close_tab' | 'list_tabs' | 'done' }>;

/** A page's picture for a vision model: downscaled, compressed. Bytes, never text: no text redaction can reach into it. */
export interface PageImage {
  mimeType: 'image/jpeg' | 'image/png';
  data: Uint8Array;
  width: number;
  height: number;
}

/** A browser tab the person has open (not one the agent opened). */
export interface BrowserTab {
  targetId: string;
  url: string;
  title: string;
}

export interface AgentBrowser {
  /**
   * The tab the person is looking at: the selected tab of the focused Chrome window (or of the
   * only window showing one). Null when no tab can be told apart as that one; `why` says why.
   */
  currentTab(): Promise<{ tab: BrowserTab } | { tab: null; why: string }>;
  /** The visible part of the tab, downscaled to at most `maxWidth` CSS pixels wide, as a JPEG. */
  screenshot(targetId: string, opts: { maxWidth: number; quality: number }): Promise<PageImage>;
  /** A new background tab (does not steal focus); resolves once it has loaded (bounded). */
  openTab(url: string): Promise<{ targetId: string }>;
  closeTab(targetId: string): Promise<void>;
  /** Every page tab open in the browser (the agent's and the user's); titles and URLs PII-masked when asked. */
  listTabs(opts: { maskPii: boolean }): Promise<BrowserTab[]>;
  snapshot(targetId: string, opts: { maxChars: number; maskPii: boolean }): Promise<PageSnapshot>;
  /** Null when the number is not on the page any more. */
  element(targetId: string, id: number): Promise<ElementFacts | null>;
  /**
   * Performs one in-tab command and waits for the page to settle. `noChangeMs` (15 s by default)
   * bounds the wait for a DOM change; no change is reported, not an error.
   */
  perform(targetId: string, cmd: InTabCommand, opts: { noChangeMs: number; maskPii: boolean }): Promise<ActionOutcome>;
  dispose(): Promise<void>;
}

export interface AgentModelRequest {
  goal: string;
  signal?: AbortSignal;
}

export interface ExecutorRequest extends AgentModelRequest {
  /** The plan step to carry out now (or the user's mid-run correction). */
  step: string;
  stepIndex: number;
  plan: AgentPlan;
  /** Latest snapshots of the target tabs, current tab first. */
  snapshots: PageSnapshot[];
  /** Earlier steps: what was asked, the command given, and its output. */
  history: Array<{ step: string; command: PageCommand; output: string }>;
  /** System messages since the last turn ("Tab limit (3) reached. Released tab: …"). */
  notices: string[];
  tools: Array<{ name: string; url: string }>;
}

/** The page the run starts on, as the planner sees it. */
export interface PlannerPage {
  /** Its snapshot, redacted and framed as page data (the executor's form). */
  text: string;
  /** A screenshot, for vision models (config agent.screenshots). */
  image?: PageImage;
}

export interface PlannerRequest extends AgentModelRequest {
  context: string;
  /** Absent when the run starts with no tab. */
  page?: PlannerPage;
}

export interface AgentModels {
  /** The planner model: plain-English steps and a one-line message, or (needs_steps false) a direct answer. */
  plan(req: PlannerRequest): Promise<{ plan: unknown; raw: string; usage?: TokenUsage }>;
  /** The executor model: exactly one page command (structured, <tool_code>, or legacy fenced JSON). */
  next(req: ExecutorRequest): Promise<{ raw: string; usage?: TokenUsage }>;
}

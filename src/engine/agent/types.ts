import type { AgentPlan, AgentTool, PageCommand } from '../../protocol/agent';
import type { Audience, ErrorCode, NoticeCode } from '../../protocol/codes';
import type { AgentBrowser, AgentModels } from '../agent-ports';
import type { TokenUsage } from '../ports';

// The agent loop's public shapes: what runAgent takes, what it reports while it runs, and
// what it returns. The loop itself is run-agent.ts.

export interface AgentOptions {
  /** Commands executed in total (every command the executor returned and the loop ran). Default 25. */
  maxSteps?: number;
  /** Target tabs at once; opening past it releases the oldest. Default 3. */
  tabLimit?: number;
  /** Consecutive failed turns (invalid answers, failed commands) before the run fails. Default 3. */
  maxFailures?: number;
  /** How long an action may go without a DOM change before that is reported. Default 15000. */
  noChangeMs?: number;
  /** Size budget of the current tab's snapshot in characters; other target tabs get a quarter. Default 12000. */
  snapshotChars?: number;
  /** Mask emails, card and phone numbers in snapshot values. Default true. */
  maskPii?: boolean;
  /** When set, only these domains (and their subdomains) may be opened or navigated to. */
  allowDomains?: string[];
  /** These domains (and their subdomains) are never opened; landing on one stops the run. */
  denyDomains?: string[];
  /**
   * Named secrets. The model sees only the names and writes `{{SECRET:NAME}}` in a `type`
   * value; the value is put in only when typing, and redacted from everything the model sees.
   */
  secrets?: Record<string, string>;
  /**
   * Send the planner a downscaled screenshot of the tab the run starts on, for vision models.
   * Default false. Never sent when the page's text shows a secret (a picture cannot be redacted).
   */
  screenshots?: boolean;
}

/**
 * The tab a run starts on: the one the person is looking at, the one whose title or address
 * holds `named`, or a given one. Absent: fresh background tabs.
 */
export type StartTab = 'current' | { named: string } | { targetId: string };

export type AgentStatus = 'done' | 'stopped' | 'budget' | 'failed' | 'cancelled' | 'refused';

/** What the current executor turn is about. */
export type InstructionKind = 'plan' | 'correction' | 'wrap-up';

/** Something the loop says besides a command's output, with what it is about and whom it is for. */
export interface AgentNotice {
  code: NoticeCode;
  audience: Audience;
  /** Plain words (redacted); the model reads them as "System: …" or "System Error: …". */
  text: string;
}

/** What came of one executor turn. */
export interface TurnOutput {
  turn: number;
  /** Null when the executor's answer held no usable command. */
  command: PageCommand | null;
  ok: boolean;
  /** Why it failed; null when it worked. */
  code: ErrorCode | null;
  /** What happened, in plain words (redacted): "Opened tab 1: …", "Element ID 9 not found.". */
  message: string;
  /** Page text the command read (read_page, select's option), redacted. */
  data?: string;
  /** Exactly what the model was told ("System Error: …", page text framed as data). */
  output: string;
  /** The command typed into a password field: its value is never shown. */
  intoPassword: boolean;
}

export type AgentEvent =
  | { type: 'plan'; plan: AgentPlan; edited: boolean; repaired: boolean }
  /** `instruction` is what the executor is told; `step` the plan step's or the person's correction's own words. */
  | { type: 'step-start'; turn: number; kind: InstructionKind; stepIndex: number | null; instruction: string; step: string; attempt: number }
  | { type: 'command'; turn: number; command: PageCommand }
  | ({ type: 'output' } & TurnOutput)
  | ({ type: 'notice' } & AgentNotice)
  | { type: 'done'; answer: string }
  /** The run ended without an answer: stopped, budget, refused or cancelled. */
  | { type: 'stopped'; status: Exclude<AgentStatus, 'done' | 'failed'>; reason: string }
  | { type: 'error'; message: string };

/** One executor turn: the command it gave (null when its answer was unusable) and what came of it. */
export interface StepRecord {
  /** 1-based, counting every executor turn. */
  turn: number;
  kind: InstructionKind;
  /** 0-based plan step for kind 'plan'; null for corrections and wrap-up turns. */
  stepIndex: number | null;
  instruction: string;
  /** As the executor wrote it: secrets stay placeholders. */
  command: PageCommand | null;
  ok: boolean;
  /** Why it failed; null when it worked. */
  code: ErrorCode | null;
  /** What the model was told (redacted). */
  output: string;
  /** The target tab number the command acted on, when it acted inside a tab. */
  tab: number | null;
}

export interface AgentResult {
  status: AgentStatus;
  /** The executor's answer (status 'done'). */
  answer: string | null;
  steps: StepRecord[];
  /** The plan that ran (after edits); null when planning failed. */
  plan: AgentPlan | null;
  /** Why the run ended when it did not end with done. */
  reason: string | null;
  /** Commands executed. */
  commands: number;
  usage: TokenUsage;
}

export interface RunAgentInput {
  goal: string;
  browser: AgentBrowser;
  models: AgentModels;
  tools?: AgentTool[];
  options?: AgentOptions;
  /**
   * Start on the person's tab instead of fresh background tabs: it becomes target tab 1, the
   * planner sees its snapshot (and screenshot, when on), and the executor acts on it — with the
   * same safety questions, and one more before closing it.
   */
  startTab?: StartTab;
  /** The user's decision on the plan; `plan` replaces it (edited). */
  approve(plan: AgentPlan): Promise<{ approved: boolean; plan?: AgentPlan }>;
  /** Safety prompts (password fields, payment forms). False: not done. */
  confirm(question: string): Promise<boolean>;
  onEvent?(e: AgentEvent): void;
  /** Stop: aborts the model request in flight and ends the run with 'stopped'. */
  signal?: AbortSignal;
  /** Polled before every executor turn; a correction becomes the next instruction. */
  corrections?: () => string | null;
}

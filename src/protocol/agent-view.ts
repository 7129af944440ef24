// What the app shows of one agent run: pushed to the windows ('agent:update') and answered
// by agent:status. Below the IPC contract and its channel list.

export type AgentRunStatus =
  | 'planning'
  | 'awaiting_approval'
  | 'running'
  | 'stopping'
  | 'done'
  | 'stopped'
  | 'cancelled'
  | 'failed'
  | 'budget'
  | 'refused';

const ENDED: ReadonlySet<AgentRunStatus> = new Set(['done', 'stopped', 'cancelled', 'failed', 'budget', 'refused']);

/** A run in this status is over: nothing about it changes any more. */
export const isEnded = (status: AgentRunStatus): boolean => ENDED.has(status);

export type AgentStepState = 'pending' | 'running' | 'done' | 'failed';

export interface AgentStepView {
  /** Position in `steps` (0-based); plan steps come first, in plan order. */
  index: number;
  /** The plan step's words, or the person's correction. */
  step: string;
  /** A plan step, a correction sent mid-run, or the turns after the last step that finish with the answer. */
  kind: 'plan' | 'correction' | 'finish';
  state: AgentStepState;
  /** The command the agent gave for it, in words ('Typed "rain" into element 1, then pressed Enter'). */
  command?: string;
  /** What came of it, short and on one line. */
  output?: string;
  /** Set from the second try on (a failed command is tried again). */
  attempt?: number;
}

/** The whole state of one agent run: agent:status answers it, 'agent:update' pushes it. */
export interface AgentRunView {
  runId: string;
  /** Grows with every change: a view with a lower version than one already seen is stale. */
  version: number;
  goal: string;
  status: AgentRunStatus;
  /** The planner's one-line message about the plan. */
  message?: string;
  steps: AgentStepView[];
  /** The agent's answer (status done). */
  answer?: string;
  /** Why the run ended when it did not end with done. */
  reason?: string;
  /** Things the person should know (a secret that is not set, no page change after an action …). */
  notices: string[];
  /** A safety question waiting for agent:confirm (typing a password, submitting a payment form). */
  confirm?: { question: string };
  /** Commands carried out so far. */
  commands: number;
}

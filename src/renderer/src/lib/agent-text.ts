import type { AgentRunStatus, AgentStepView } from '../../../protocol/ipc';

// Agent mode's words: which typed text is a web task for the agent, and how a run's state reads.

const PREFIX = /^agent\s*:\s*([\s\S]*)$/i;

/**
 * The goal when `text` is a task for the agent: anything after a leading "agent:", or all of
 * it while the Agent toggle is on. Null when it is an ordinary command; '' when "agent:" has
 * nothing after it.
 */
export function agentGoal(text: string, agentMode: boolean): string | null {
  const t = text.trim();
  const m = PREFIX.exec(t);
  if (m) return m[1]!.trim();
  return agentMode ? t : null;
}

/** True when the field's text will go to the agent (for the field's look while typing). */
export const isAgentText = (text: string): boolean => PREFIX.test(text.trim());

export { isEnded } from '../../../protocol/agent-view';

export const STATUS_LABEL: Record<AgentRunStatus, string> = {
  planning: 'Planning…',
  awaiting_approval: 'Waiting for your approval',
  running: 'Running',
  stopping: 'Stopping…',
  done: 'Done',
  stopped: 'Stopped',
  cancelled: 'Cancelled',
  failed: 'Failed',
  budget: 'Out of steps',
  refused: 'Stopped by a domain rule',
};

/** "Step 2 of 4" while a plan step runs; null otherwise. */
export function progressLabel(steps: AgentStepView[]): string | null {
  const plan = steps.filter((s) => s.kind === 'plan');
  const running = steps.find((s) => s.state === 'running');
  if (!running) return null;
  if (running.kind === 'plan') return `Step ${running.index + 1} of ${plan.length}`;
  return running.kind === 'correction' ? 'Following your correction' : 'Finishing';
}

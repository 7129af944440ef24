import { describeCommand, outcomeLine, type AgentEvent, type InstructionKind } from '../engine/agent';
import { isEnded } from '../protocol/agent-view';
import type { AgentRunStatus, AgentRunView, AgentStepView } from '../protocol/ipc';

// What the app shows of one agent run, as a pure function of what happened: the loop's events
// and the run's own moments (approval, a correction queued, a safety question, the end) fold into
// an AgentRunView. The service keeps the state and pushes each new view; this file decides what
// the view says. Nothing here parses a message: notices carry their audience, outputs their code.

export interface RunViewState {
  view: AgentRunView;
  /** The entry in view.steps the agent is working on. */
  current: number | null;
}

export type RunViewEvent =
  | AgentEvent
  | { type: 'awaiting-approval' }
  | { type: 'approved' }
  /** Stop was pressed: a waiting question goes away; a running task is stopping. */
  | { type: 'stopping' }
  /** A correction the person sent: shown at once, waiting; it becomes the agent's next instruction. */
  | { type: 'correction'; text: string }
  | { type: 'question'; question: string }
  | { type: 'question-answered' }
  | { type: 'ended'; status: AgentRunStatus; reason: string | null; commands?: number; answer?: string | null };

/** How many notices a view keeps (the newest). */
export const MAX_NOTICES = 12;
/** How long a step's output may be, on one line. */
export const OUTPUT_CHARS = 240;

export function initialRunView(runId: string, goal: string): RunViewState {
  return { view: { runId, version: 0, goal, status: 'planning', steps: [], notices: [], commands: 0 }, current: null };
}

/** The state after `e`; the same object when `e` changes nothing shown. */
export function reduceRunView(state: RunViewState, e: RunViewEvent): RunViewState {
  if (e.type === 'stopped' || e.type === 'error') return state; // the 'ended' the service sends says how it ended
  if (e.type === 'notice' && (e.audience === 'model' || state.view.notices.at(-1) === e.text)) return state;
  if (isEnded(state.view.status)) return state; // an ended run changes no more

  const s: RunViewState = { view: structuredClone(state.view), current: state.current };
  apply(s, e);
  return s;
}

function apply(s: RunViewState, e: Exclude<RunViewEvent, { type: 'stopped' | 'error' }>): void {
  const v = s.view;
  switch (e.type) {
    case 'plan':
      v.message = e.plan.message;
      v.steps = [
        ...e.plan.steps.map((step, index): AgentStepView => ({ index, step, kind: 'plan', state: 'pending' })),
        // Corrections sent before an edited plan arrived stay listed.
        ...v.steps.filter((x) => x.kind === 'correction'),
      ].map((x, index) => ({ ...x, index }));
      s.current = null;
      return;
    case 'step-start': {
      const entry = entryFor(s, e.kind, e.stepIndex, e.step);
      entry.state = 'running';
      delete entry.command;
      delete entry.output;
      if (e.attempt > 1) entry.attempt = e.attempt;
      else delete entry.attempt;
      s.current = entry.index;
      return;
    }
    case 'command': {
      // What is typed shows once the loop has said what kind of field took it (below): a
      // password is never shown, not even while its safety question waits.
      const entry = currentEntry(s);
      if (entry) entry.command = e.command.action === 'type' ? `Typing into element ${e.command.id}…` : describeCommand(e.command);
      return;
    }
    case 'output': {
      const entry = currentEntry(s);
      if (entry) {
        entry.command = e.command ? describeCommand(e.command, { hideValue: e.intoPassword }) : 'No usable command';
        // "Done." after the answer says nothing the answer does not.
        if (e.command?.action === 'done') delete entry.output;
        else entry.output = outcomeLine(e, OUTPUT_CHARS);
        entry.state = e.ok ? 'done' : 'failed';
      }
      if (e.command && e.command.action !== 'done') v.commands++;
      return;
    }
    case 'notice':
      v.notices.push(e.text);
      if (v.notices.length > MAX_NOTICES) v.notices.splice(0, v.notices.length - MAX_NOTICES);
      return;
    case 'done':
      v.answer = e.answer;
      return;
    case 'awaiting-approval':
      v.status = 'awaiting_approval';
      return;
    case 'approved':
      v.status = 'running';
      return;
    case 'stopping':
      delete v.confirm;
      if (v.status === 'running') v.status = 'stopping';
      return;
    case 'correction':
      v.steps.push({ index: v.steps.length, step: e.text, kind: 'correction', state: 'pending' });
      return;
    case 'question':
      v.confirm = { question: e.question };
      return;
    case 'question-answered':
      delete v.confirm;
      return;
    case 'ended':
      end(s, e);
      return;
  }
}

/** The end: its status, why, the step in progress marked. */
function end(s: RunViewState, e: Extract<RunViewEvent, { type: 'ended' }>): void {
  const v = s.view;
  if (e.commands !== undefined) v.commands = e.commands;
  if (e.answer != null) v.answer = e.answer;
  v.status = e.status;
  if (e.reason && e.status !== 'done') v.reason = sentence(e.reason);
  for (const x of v.steps) {
    if (x.state !== 'running') continue;
    // A step cut short by Stop is simply not done; one the run failed on is failed.
    x.state = e.status === 'done' ? 'done' : e.status === 'stopped' || e.status === 'cancelled' ? 'pending' : 'failed';
  }
  delete v.confirm;
  s.current = null;
}

/** The view entry an executor turn is about; corrections and finishing turns get one of their own. */
function entryFor(s: RunViewState, kind: InstructionKind, stepIndex: number | null, text: string): AgentStepView {
  const steps = s.view.steps;
  if (kind === 'plan' && stepIndex !== null) {
    const found = steps.find((x) => x.kind === 'plan' && x.index === stepIndex);
    if (found) return found;
  }
  if (kind === 'correction') {
    const current = s.current !== null ? steps[s.current] : undefined;
    if (current?.kind === 'correction' && current.step === text && current.state !== 'done') return current;
    const waiting = steps.find((x) => x.kind === 'correction' && x.state === 'pending' && x.step === text);
    if (waiting) return waiting;
    return append(s, { step: text, kind: 'correction' });
  }
  const finishing = steps.find((x) => x.kind === 'finish');
  return finishing ?? append(s, { step: 'Finish and answer', kind: 'finish' });
}

function append(s: RunViewState, x: Pick<AgentStepView, 'step' | 'kind'>): AgentStepView {
  const entry: AgentStepView = { index: s.view.steps.length, ...x, state: 'pending' };
  s.view.steps.push(entry);
  return entry;
}

const currentEntry = (s: RunViewState): AgentStepView | undefined => (s.current === null ? undefined : s.view.steps[s.current]);

/** The loop's reasons are clauses ("the plan's steps ran, but …"); the person reads a sentence. */
export function sentence(reason: string): string {
  const t = reason.trim();
  const capital = t.charAt(0).toUpperCase() + t.slice(1);
  return /[.!?…]$/.test(capital) ? capital : `${capital}.`;
}

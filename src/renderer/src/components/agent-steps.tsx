import type { AgentStepView } from '../../../protocol/ipc';
import { presentPlanText, presentStep } from '../lib/agent-present';
import { Spinner } from './spinner';

// The run, step by step: a spinner on the step in progress, ✓ or ✗ when it is through, the
// command the agent gave in words and a short line of what came of it. Steps the run never
// reached show a dash once it has ended.

function StepMark({ state, ended }: { state: AgentStepView['state']; ended: boolean }) {
  if (state === 'running') {
    return (
      <span className="mark agent-mark">
        <Spinner />
        <span className="sr-only">Running:</span>
      </span>
    );
  }
  const [glyph, words, kind] =
    state === 'done' ? ['✓', 'Done:', 'ok'] : state === 'failed' ? ['✗', 'Failed:', 'fail'] : ended ? ['–', 'Not done:', 'cancel'] : ['○', 'Waiting:', 'wait'];
  return (
    <span className={`mark mark-${kind} agent-mark`}>
      <span aria-hidden="true">{glyph}</span>
      <span className="sr-only">{words}</span>
    </span>
  );
}

function label(s: AgentStepView): string {
  if (s.kind === 'plan') return `${s.index + 1}. ${presentPlanText(s.step)}`;
  if (s.kind === 'correction') return `Your correction: ${presentPlanText(s.step)}`;
  return presentPlanText(s.step);
}

export function AgentSteps({ steps, ended }: { steps: AgentStepView[]; ended: boolean }) {
  return (
    <ol className="agent-steps" aria-label="Steps">
      {steps.map((s) => {
        const { command, output } = presentStep(s);
        return (
          <li key={`${s.kind}-${s.index}`} className={`agent-step is-${s.state} kind-${s.kind}`} data-state={s.state}>
            <StepMark state={s.state} ended={ended} />
            <div className="agent-step-body">
              <span className="agent-step-text">
                {label(s)}
                {s.attempt && s.attempt > 1 && s.state === 'running' && <span className="agent-step-attempt"> (try {s.attempt})</span>}
              </span>
              {command && <span className="agent-step-command">{command}</span>}
              {output && (
                <span className="agent-step-output" title={output}>
                  {output}
                </span>
              )}
            </div>
          </li>
        );
      })}
    </ol>
  );
}

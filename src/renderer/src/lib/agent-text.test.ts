import { describe, expect, it } from 'vitest';
import type { AgentStepView } from '../../../protocol/agent-view';
import { agentGoal, isAgentText, progressLabel } from './agent-text';

const step = (index: number, kind: AgentStepView['kind'], state: AgentStepView['state']): AgentStepView => ({ index, step: `step ${index}`, kind, state });

describe('agentGoal', () => {
  it('takes what follows a leading "agent:" whatever the toggle says', () => {
    expect(agentGoal('Agent:  find the weather in Oslo ', false)).toBe('find the weather in Oslo');
    expect(agentGoal('agent : buy milk', true)).toBe('buy milk');
  });

  it('takes the whole text while the Agent toggle is on, and nothing (null) while it is off', () => {
    expect(agentGoal(' find cats ', true)).toBe('find cats');
    expect(agentGoal('close reddit', false)).toBeNull();
  });

  it('is empty (not null) for "agent:" with nothing after it, so the person is asked for a task', () => {
    expect(agentGoal('agent:', false)).toBe('');
  });

  it('does not take "agent" inside other words as the prefix', () => {
    expect(agentGoal('switch to the agent docs: intro', false)).toBeNull();
    expect(isAgentText('agents: list')).toBe(false);
    expect(isAgentText('  agent: list')).toBe(true);
  });
});

describe('progressLabel', () => {
  it('counts plan steps while one runs', () => {
    expect(progressLabel([step(0, 'plan', 'done'), step(1, 'plan', 'running'), step(2, 'plan', 'pending')])).toBe('Step 2 of 3');
  });

  it('says a correction or the finish is under way, and nothing when no step runs', () => {
    expect(progressLabel([step(0, 'plan', 'done'), step(1, 'correction', 'running')])).toBe('Following your correction');
    expect(progressLabel([step(0, 'plan', 'done'), step(1, 'finish', 'running')])).toBe('Finishing');
    expect(progressLabel([step(0, 'plan', 'done')])).toBeNull();
  });
});

import { agentGoal } from '../lib/agent-text';
import { useAgentStore } from './agent-store';
import { useAnnouncer } from './announcer-store';
import { useCommandStore } from './command-store';
import { useRecallStore } from './recall-store';

/**
 * Words from the field, on Enter or Run: an agent task (the Agent toggle, or "agent:" in
 * front), else a command the planners turn into actions.
 */
export function runText(text: string): void {
  const t = text.trim();
  if (!t) return;
  const agent = useAgentStore.getState();
  const goal = agentGoal(t, agent.mode);
  if (goal !== null) {
    if (!goal) {
      useAnnouncer.getState().say('Say what the agent should do after “agent:”.');
      return;
    }
    // Recalled later, it goes to the agent again, toggle or not.
    useRecallStore.getState().remember(`agent: ${goal}`);
    useCommandStore.getState().reset();
    void agent.start(goal, text);
    return;
  }
  useRecallStore.getState().remember(t);
  // A new command takes the place of a finished agent task's panel.
  agent.dismiss();
  void useCommandStore.getState().run({ kind: 'text', text: t });
}

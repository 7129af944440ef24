import { useEffect, useRef } from 'react';
import { agentGoal, isAgentText } from '../lib/agent-text';
import { useAgentStore } from '../state/agent-store';
import { useAnnouncer } from '../state/announcer-store';
import { useCommandStore } from '../state/command-store';
import { useInputStore } from '../state/input-store';
import { useRecallStore } from '../state/recall-store';

// The one text field. Enter runs, ↑/↓ walk through earlier commands (the text being
// typed comes back after the newest). Esc is handled for the whole window (use-escape).
// With the Agent toggle on, or text starting with "agent:", Enter plans a web task instead.

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

const PLACEHOLDER = 'What should DeskPilot do?';
const AGENT_PLACEHOLDER = 'Describe a web task; you approve the plan before it runs';

export function CommandInput({ describedBy }: { describedBy?: string }) {
  const text = useInputStore((s) => s.text);
  const setText = useInputStore((s) => s.setText);
  const focusSeq = useInputStore((s) => s.focusSeq);
  const agentMode = useAgentStore((s) => s.mode);
  const ref = useRef<HTMLInputElement>(null);
  const cursor = useRef<number | null>(null);
  const stash = useRef('');

  useEffect(() => {
    const el = ref.current;
    if (!el || document.querySelector('[role="alertdialog"]')) return;
    el.focus();
    el.select();
  }, [focusSeq]);

  const recallAt = (i: number | null): void => {
    const items = useRecallStore.getState().items;
    cursor.current = i;
    setText(i === null ? stash.current : (items[i] ?? ''));
    requestAnimationFrame(() => {
      const el = ref.current;
      if (el) el.setSelectionRange(el.value.length, el.value.length);
    });
  };

  return (
    <input
      ref={ref}
      id="command-input"
      className="command-input"
      type="text"
      aria-label="Command"
      aria-describedby={describedBy}
      placeholder={agentMode ? AGENT_PLACEHOLDER : PLACEHOLDER}
      data-agent={agentMode || isAgentText(text) ? 'true' : undefined}
      autoComplete="off"
      autoCorrect="off"
      autoCapitalize="off"
      spellCheck={false}
      autoFocus
      value={text}
      onChange={(e) => {
        cursor.current = null;
        setText(e.target.value);
      }}
      onKeyDown={(e) => {
        if (e.nativeEvent.isComposing) return;
        const items = useRecallStore.getState().items;
        if (e.key === 'Enter') {
          e.preventDefault();
          cursor.current = null;
          runText(text);
        } else if (e.key === 'ArrowUp' && items.length > 0) {
          e.preventDefault();
          if (cursor.current === null) stash.current = text;
          recallAt(Math.max(0, (cursor.current ?? items.length) - 1));
        } else if (e.key === 'ArrowDown' && cursor.current !== null) {
          e.preventDefault();
          const next = cursor.current + 1;
          recallAt(next >= items.length ? null : next);
        }
      }}
    />
  );
}

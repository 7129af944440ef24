import { useEffect, useRef } from 'react';
import { isAgentText } from '../lib/agent-text';
import { useAgentStore } from '../state/agent-store';
import { useInputStore } from '../state/input-store';
import { useRecallStore } from '../state/recall-store';
import { useLiveStore } from '../state/live-store';
import { runText } from '../state/run-text';
import { useLiveComboboxProps } from './live-results';

// The one text field. Enter runs, ↑/↓ walk through earlier commands (the text being
// typed comes back after the newest). Esc is handled for the whole window (use-escape).
// With the Agent toggle on, or text starting with "agent:", Enter plans a web task instead.

const PLACEHOLDER = 'What should DeskPilot do?';
const AGENT_PLACEHOLDER = 'Describe a web task; you approve the plan before it runs';
/** The popover's field is narrow: the same, said shorter (clear of the Agent button). */
const SHORT_PLACEHOLDER = 'Say what to do';
const SHORT_AGENT_PLACEHOLDER = 'Describe a web task';

/** `live`: the launcher lists what the words would act on while they are typed (live-store.ts). */
export function CommandInput({ describedBy, live = false }: { describedBy?: string; live?: boolean }) {
  const text = useInputStore((s) => s.text);
  const setText = useInputStore((s) => s.setText);
  const focusSeq = useInputStore((s) => s.focusSeq);
  const agentMode = useAgentStore((s) => s.mode);
  const ref = useRef<HTMLInputElement>(null);
  const cursor = useRef<number | null>(null);
  const stash = useRef('');
  const combobox = useLiveComboboxProps();

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
      placeholder={live ? (agentMode ? AGENT_PLACEHOLDER : PLACEHOLDER) : agentMode ? SHORT_AGENT_PLACEHOLDER : SHORT_PLACEHOLDER}
      data-agent={agentMode || isAgentText(text) ? 'true' : undefined}
      {...(live ? combobox : {})}
      autoComplete="off"
      autoCorrect="off"
      autoCapitalize="off"
      spellCheck={false}
      autoFocus
      value={text}
      onChange={(e) => {
        cursor.current = null;
        // The list first: when the field's text then changes, the list is already for it, so
        // the input store's watcher (live-store.ts) does not hide it in between (which rendered
        // the launcher's view again on every key).
        if (live) useLiveStore.getState().typed(e.target.value);
        setText(e.target.value);
      }}
      onKeyDown={(e) => {
        if (e.nativeEvent.isComposing) return;
        // A held Enter submits once: its repeats must not send the words again.
        if (e.key === 'Enter' && e.repeat) {
          e.preventDefault();
          return;
        }
        // The list's keys first (↑/↓, Enter, Tab/→, ⌘1…9), unless ↑/↓ are walking through earlier commands.
        if (live && cursor.current === null) {
          const el = e.currentTarget;
          const caretAtEnd = el.selectionStart === el.value.length && el.selectionEnd === el.value.length;
          if (useLiveStore.getState().key({ key: e.key, ctrl: e.ctrlKey, meta: e.metaKey, alt: e.altKey, shift: e.shiftKey, caretAtEnd })) {
            e.preventDefault();
            return;
          }
        }
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

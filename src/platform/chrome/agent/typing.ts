// Typing text the way a keyboard does, so pages hear it: every character is a key press
// (keyDown with its text, then keyUp — Chrome fires keydown, keypress, beforeinput, input and
// keyup for it), which autocomplete boxes, search-as-you-type and key-driven widgets listen to.
// Input.insertText, by contrast, only fires input events.
//
// The fast path: text longer than FAST_PATH_CHARS is inserted with Input.insertText except for its
// last character, which is still a real key press, so a widget that reacts to keys sees the full
// text once. It is decided by length only (whether a field has key listeners cannot be read
// cheaply from the isolated world), and a long text is rarely something a widget completes.

import { keyEvents, parseKeyCombo } from './keys';

export const FAST_PATH_CHARS = 64;

/** One step of typing: a key press (its Input.dispatchKeyEvent calls) or text inserted without keys. */
export type Keystroke = { kind: 'keys'; events: Array<Record<string, unknown>> } | { kind: 'insert'; text: string };

/**
 * The key press that types `ch`, or null when it is inserted as text: line breaks and tabs (an
 * Enter key would submit a form, which only `submit` may do, after its safety check; Tab would move
 * the focus) and astral characters such as emoji, which no single key event carries.
 */
function pressFor(ch: string): Array<Record<string, unknown>> | null {
  if (ch.length !== 1 || ch < ' ') return null;
  return keyEvents(parseKeyCombo(ch === ' ' ? 'Space' : ch));
}

/** The steps that type `text`, in order. */
export function keystrokes(text: string): Keystroke[] {
  const chars = [...text];
  const out: Keystroke[] = [];
  const insert = (t: string) => {
    const last = out[out.length - 1];
    if (last?.kind === 'insert') last.text += t;
    else out.push({ kind: 'insert', text: t });
  };
  const keyed = chars.length > FAST_PATH_CHARS ? chars.slice(-1) : chars;
  if (keyed.length < chars.length) insert(chars.slice(0, -1).join(''));
  for (const ch of keyed) {
    const events = pressFor(ch);
    if (events) out.push({ kind: 'keys', events });
    else insert(ch);
  }
  return out;
}

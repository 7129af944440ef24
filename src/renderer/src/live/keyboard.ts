// The launcher list's keys, as a pure function of the list's shape and one key press:
// ↑/↓ choose a row, Enter runs it, Tab or → (at the end of the text) opens the row's
// actions, ← or Esc closes them, ⌘/Ctrl+1…9 runs a row directly. The component applies the
// new state and the effect; a key that is not the list's is left to the field.

export interface ListKeysState {
  highlight: number;
  /** The actions of one row, open, with their own highlight. */
  menu: { row: number; highlight: number } | null;
}

export interface ListShape {
  rows: number;
  /** How many actions each row has (0: none to show, e.g. the plan row). */
  actions: (row: number) => number;
}

export interface KeyPress {
  key: string;
  ctrl?: boolean;
  meta?: boolean;
  alt?: boolean;
  shift?: boolean;
  /** The caret is at the end of the field's text with nothing selected (→ then opens actions). */
  caretAtEnd?: boolean;
}

export type ListEffect = { kind: 'run'; row: number; action: number } | null;

export interface KeyResult {
  state: ListKeysState;
  effect: ListEffect;
  /** The list used the key: the field must not (preventDefault). */
  handled: boolean;
}

export const INITIAL_KEYS: ListKeysState = { highlight: 0, menu: null };

const clamp = (n: number, max: number) => Math.max(0, Math.min(max, n));

export function listKey(state: ListKeysState, shape: ListShape, press: KeyPress): KeyResult {
  const none: KeyResult = { state, effect: null, handled: false };
  if (shape.rows === 0) return none;
  const highlight = clamp(state.highlight, shape.rows - 1);
  const s: ListKeysState = { ...state, highlight };
  const same = (next: ListKeysState, effect: ListEffect = null): KeyResult => ({ state: next, effect, handled: true });

  // ⌘1…⌘9 (Ctrl elsewhere): the row with that number, its own action.
  if ((press.ctrl || press.meta) && !press.alt && /^[1-9]$/.test(press.key)) {
    const row = Number(press.key) - 1;
    return row < shape.rows ? same({ highlight: row, menu: null }, { kind: 'run', row, action: 0 }) : same(s);
  }
  if (press.ctrl || press.meta || press.alt) return none;

  if (s.menu) {
    const count = shape.actions(s.menu.row);
    switch (press.key) {
      case 'ArrowDown':
        return same({ ...s, menu: { ...s.menu, highlight: clamp(s.menu.highlight + 1, count - 1) } });
      case 'ArrowUp':
        return same({ ...s, menu: { ...s.menu, highlight: clamp(s.menu.highlight - 1, count - 1) } });
      case 'Enter':
        return same({ ...s, menu: null }, { kind: 'run', row: s.menu.row, action: s.menu.highlight });
      case 'ArrowLeft':
      case 'Escape':
        return same({ ...s, menu: null });
      case 'Tab':
        return same(s);
      default:
        // Typing goes on in the field; the menu belonged to the old words.
        return { state: { ...s, menu: null }, effect: null, handled: false };
    }
  }

  switch (press.key) {
    case 'ArrowDown':
      return same({ ...s, highlight: clamp(highlight + 1, shape.rows - 1) });
    case 'ArrowUp':
      return same({ ...s, highlight: clamp(highlight - 1, shape.rows - 1) });
    case 'Enter':
      return same(s, { kind: 'run', row: highlight, action: 0 });
    case 'Tab':
      if (press.shift || shape.actions(highlight) === 0) return none;
      return same({ ...s, menu: { row: highlight, highlight: 0 } });
    case 'ArrowRight':
      if (!press.caretAtEnd || shape.actions(highlight) === 0) return none;
      return same({ ...s, menu: { row: highlight, highlight: 0 } });
    default:
      return none;
  }
}

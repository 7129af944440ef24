import { describe, expect, it } from 'vitest';
import { INITIAL_KEYS, listKey, type ListKeysState, type ListShape } from './keyboard';

// Row 0 is the plan row (no actions); rows 1 and 2 are items with 3 and 1 actions.
const shape: ListShape = { rows: 3, actions: (i) => [0, 3, 1][i] ?? 0 };
const press = (state: ListKeysState, key: string, extra = {}) => listKey(state, shape, { key, caretAtEnd: true, ...extra });

describe('the live list keys', () => {
  it('↑/↓ move the highlight within the list; Enter runs the highlighted row', () => {
    let r = press(INITIAL_KEYS, 'ArrowDown');
    expect(r).toMatchObject({ state: { highlight: 1 }, handled: true, effect: null });
    r = press(r.state, 'ArrowDown');
    r = press(r.state, 'ArrowDown');
    expect(r.state.highlight).toBe(2);
    r = press(r.state, 'ArrowUp');
    expect(r.state.highlight).toBe(1);
    expect(press(r.state, 'Enter').effect).toEqual({ kind: 'run', row: 1, action: 0 });
    expect(press(INITIAL_KEYS, 'ArrowUp')).toMatchObject({ state: { highlight: 0 }, handled: true });
  });

  it('Tab or → at the end of the text opens the row’s actions; ↑/↓ choose one, Enter runs it, ← or Esc closes', () => {
    const on1 = { highlight: 1, menu: null };
    let r = press(on1, 'Tab');
    expect(r.state.menu).toEqual({ row: 1, highlight: 0 });
    r = press(r.state, 'ArrowDown');
    r = press(r.state, 'ArrowDown');
    r = press(r.state, 'ArrowDown');
    expect(r.state.menu).toEqual({ row: 1, highlight: 2 });
    expect(press(r.state, 'Enter')).toMatchObject({ effect: { kind: 'run', row: 1, action: 2 }, state: { menu: null } });
    expect(press(r.state, 'ArrowLeft')).toMatchObject({ state: { menu: null }, handled: true });
    expect(press(r.state, 'Escape')).toMatchObject({ state: { menu: null }, handled: true });
    expect(press(on1, 'ArrowRight').state.menu).toEqual({ row: 1, highlight: 0 });
  });

  it('leaves keys to the field when the list has no use for them', () => {
    // → in the middle of the text moves the caret; Tab on a row without actions moves focus.
    expect(press({ highlight: 1, menu: null }, 'ArrowRight', { caretAtEnd: false }).handled).toBe(false);
    expect(press(INITIAL_KEYS, 'Tab').handled).toBe(false);
    expect(press({ highlight: 1, menu: null }, 'Tab', { shift: true }).handled).toBe(false);
    expect(press(INITIAL_KEYS, 'a').handled).toBe(false);
    expect(press(INITIAL_KEYS, 'Escape').handled).toBe(false);
    expect(listKey(INITIAL_KEYS, { rows: 0, actions: () => 0 }, { key: 'ArrowDown' }).handled).toBe(false);
  });

  it('typing with the actions open closes them and goes on in the field', () => {
    expect(press({ highlight: 1, menu: { row: 1, highlight: 1 } }, 'x')).toEqual({ state: { highlight: 1, menu: null }, effect: null, handled: false });
  });

  it('⌘/Ctrl+number runs that row’s own action; a number past the list does nothing', () => {
    expect(press(INITIAL_KEYS, '2', { ctrl: true })).toMatchObject({ effect: { kind: 'run', row: 1, action: 0 }, state: { highlight: 1 }, handled: true });
    expect(press(INITIAL_KEYS, '3', { meta: true }).effect).toEqual({ kind: 'run', row: 2, action: 0 });
    expect(press(INITIAL_KEYS, '9', { ctrl: true })).toMatchObject({ effect: null, handled: true });
    expect(press(INITIAL_KEYS, '2', { ctrl: true, alt: true }).handled).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { keyEvents, KeyParseError, parseKeyCombo } from './keys';

describe('parseKeyCombo', () => {
  it('parses named keys and their aliases', () => {
    expect(parseKeyCombo('Enter')).toMatchObject({ modifiers: [], bits: 0, key: 'Enter', text: '\r', main: { code: 'Enter', keyCode: 13 } });
    expect(parseKeyCombo('esc')).toMatchObject({ key: 'Escape', text: undefined, main: { keyCode: 27 } });
    expect(parseKeyCombo('Down')).toMatchObject({ key: 'ArrowDown', main: { code: 'ArrowDown', keyCode: 40 } });
    expect(parseKeyCombo('pgdn')).toMatchObject({ key: 'PageDown', main: { keyCode: 34 } });
    expect(parseKeyCombo('F5')).toMatchObject({ key: 'F5', main: { keyCode: 116 } });
    expect(parseKeyCombo('Space')).toMatchObject({ key: ' ', text: ' ', main: { code: 'Space' } });
  });

  it('parses combinations: command modifiers type nothing and ignore the letter case', () => {
    expect(parseKeyCombo('Control+A')).toMatchObject({ modifiers: ['Control'], bits: 2, key: 'a', text: undefined, main: { code: 'KeyA', keyCode: 65 } });
    expect(parseKeyCombo('ctrl+shift+t')).toMatchObject({ modifiers: ['Control', 'Shift'], bits: 10, key: 'T', main: { code: 'KeyT' } });
    expect(parseKeyCombo('Meta+Alt+I')).toMatchObject({ bits: 5, key: 'i' });
    expect(parseKeyCombo('Shift+Tab')).toMatchObject({ modifiers: ['Shift'], bits: 8, key: 'Tab' });
  });

  it('types shifted characters with Shift held', () => {
    expect(parseKeyCombo('A')).toMatchObject({ modifiers: ['Shift'], key: 'A', text: 'A', main: { code: 'KeyA' } });
    expect(parseKeyCombo('a')).toMatchObject({ modifiers: [], key: 'a', text: 'a' });
    expect(parseKeyCombo('!')).toMatchObject({ modifiers: ['Shift'], key: '!', text: '!', main: { code: 'Digit1', keyCode: 49 } });
    expect(parseKeyCombo('?')).toMatchObject({ modifiers: ['Shift'], key: '?', text: '?', main: { code: 'Slash', keyCode: 191 } });
    expect(parseKeyCombo('+')).toMatchObject({ modifiers: ['Shift'], key: '+', main: { code: 'Equal' } });
    expect(parseKeyCombo('Control++')).toMatchObject({ modifiers: ['Control'], key: '=', text: undefined, main: { code: 'Equal' } });
    expect(parseKeyCombo('é')).toMatchObject({ key: 'é', text: 'é', main: { keyCode: 0 } });
  });

  it('accepts modifiers alone', () => {
    expect(parseKeyCombo('Shift')).toMatchObject({ modifiers: ['Shift'], main: null, key: 'Shift' });
  });

  it('rejects unknown keys and non-modifiers in front, with a message for the model', () => {
    expect(() => parseKeyCombo('Hyper+Q')).toThrow(KeyParseError);
    expect(() => parseKeyCombo('Hyper+Q')).toThrow('"Hyper" is not a modifier');
    expect(() => parseKeyCombo('Launch')).toThrow('Unknown key "Launch"');
    expect(() => parseKeyCombo('  ')).toThrow('Empty key.');
  });
});

describe('keyEvents', () => {
  it('presses modifiers around the key and releases them in reverse order', () => {
    const ev = keyEvents(parseKeyCombo('Control+Shift+K'));
    expect(ev.map((e) => [e.type, e.key, e.modifiers])).toEqual([
      ['rawKeyDown', 'Control', 2],
      ['rawKeyDown', 'Shift', 10],
      ['rawKeyDown', 'K', 10],
      ['keyUp', 'K', 10],
      ['keyUp', 'Shift', 2],
      ['keyUp', 'Control', 0],
    ]);
  });

  it('sends text with keyDown for typing keys (Enter submits forms through it)', () => {
    const ev = keyEvents(parseKeyCombo('Enter'));
    expect(ev).toEqual([
      { type: 'keyDown', key: 'Enter', code: 'Enter', windowsVirtualKeyCode: 13, nativeVirtualKeyCode: 13, modifiers: 0, text: '\r', unmodifiedText: '\r' },
      { type: 'keyUp', key: 'Enter', code: 'Enter', windowsVirtualKeyCode: 13, nativeVirtualKeyCode: 13, modifiers: 0 },
    ]);
  });

  it('presses a lone modifier as the key', () => {
    expect(keyEvents(parseKeyCombo('Shift')).map((e) => [e.type, e.key])).toEqual([
      ['rawKeyDown', 'Shift'],
      ['keyUp', 'Shift'],
    ]);
  });
});

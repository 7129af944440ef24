import { describe, expect, it } from 'vitest';
import { formatFieldError, parseInput, type ParsedInput } from './validation';

// Browser windows as destinations (issue 27): open_url, move_tabs and restore_tabs name a
// browser window by browser_window_id or ask for a new one, never both.

const errorsOf = (r: ParsedInput) => (r.ok ? [] : r.errors.map(formatFieldError));

describe('browser window fields', () => {
  const refused: Array<[string, unknown, string[]]> = [
    ['open in a new window and a given one', { type: 'open_url', url: 'gmail.com', new_window: true, browser_window_id: 3 }, [
      'commands[0].browser_window_id: open_url takes "new_window" or "browser_window_id", not both',
    ]],
    ['a window id that is not a number', { type: 'open_url', url: 'gmail.com', browser_window_id: '0x1' }, [
      'commands[0].browser_window_id: must be a browser window id (an integer) from the context',
    ]],
    ['a window id of 0', { type: 'open_url', url: 'gmail.com', browser_window_id: 0 }, ['commands[0].browser_window_id: must be a browser window id (a positive integer) from the context']],
    ['new_window false on open_url', { type: 'open_url', url: 'gmail.com', new_window: false }, ['commands[0].new_window: must be true (leave it out otherwise)']],
    ['move to a window index and a window id', { type: 'move_tabs', tab_indices: [1], window_index: 2, browser_window_id: 7 }, [
      'commands[0]: move_tabs needs exactly one of "window_index", "browser_window_id" or "new_window"',
    ]],
    ['a position in a new window', { type: 'move_tabs', tab_indices: [1], new_window: true, position: 1 }, ['commands[0].position: a new window holds only the moved tabs: leave "position" out']],
    ['position 0', { type: 'move_tabs', tab_indices: [1], browser_window_id: 7, position: 0 }, ['commands[0].position: must be a positive integer (1 = first)']],
    ['restore into a new window and a given one', { type: 'restore_tabs', name: 'work', new_window: true, browser_window_id: 7 }, [
      'commands[0].browser_window_id: restore_tabs takes "new_window" or "browser_window_id", not both',
    ]],
  ];
  it.each(refused)('refuses %s', (_, command, expected) => {
    expect(errorsOf(parseInput(command))).toEqual(expected);
  });

  it('accepts each destination alone', () => {
    for (const command of [
      { type: 'open_url', url: 'gmail.com', new_window: true },
      { type: 'open_url', url: 'gmail.com', browser_window_id: 1234567 },
      { type: 'move_tabs', tab_indices: [1], browser_window_id: 7, position: 1 },
      { type: 'move_tabs', tab_indices: [1], window_index: 2, position: 3 },
      { type: 'restore_tabs', name: 'work', browser_window_id: 7 },
      { type: 'restore_tabs', name: 'work', new_window: false, browser_window_id: 7 },
    ]) {
      expect(errorsOf(parseInput(command))).toEqual([]);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { formatFieldError, parseInput, type ParsedInput } from './validation';

// The tab manager's operations: which fields go together, and what a wrong one is told.

const errorsOf = (r: ParsedInput) => (r.ok ? [] : r.errors.map(formatFieldError));

describe('tab manager commands: field rules', () => {
  const refused: Array<[string, unknown, string[]]> = [
    ['close_tab naming no tab', { type: 'close_tab' }, ['commands[0]: needs "tab_indices", or a tab age ("unused_for_hours", "unused_today" or "oldest")']],
    ['close_tab with unused_today false', { type: 'close_tab', unused_today: false }, ['commands[0].unused_today: must be true (leave it out otherwise)']],
    ['a zero age', { type: 'close_tab', unused_for_hours: 0 }, ['commands[0].unused_for_hours: must be a positive integer']],
    ['search with nothing to look for', { type: 'search_tabs' }, ['commands[0]: needs "query", "tab_indices" or a tab age ("unused_for_hours", "unused_today" or "oldest")']],
    ['page text without words', { type: 'search_tabs', oldest: 3, page_text: true }, ['commands[0].page_text: page_text needs a "query" to look for']],
    ['move to two places', { type: 'move_tabs', tab_indices: [1], window_index: 2, new_window: true }, ['commands[0]: move_tabs needs exactly one of "window_index", "browser_window_id" or "new_window"']],
    ['move to nowhere', { type: 'move_tabs', tab_indices: [1] }, ['commands[0]: move_tabs needs exactly one of "window_index", "browser_window_id" or "new_window"']],
    ['pin without saying which way', { type: 'pin_tabs', tab_indices: [1] }, ['commands[0].pinned: is required']],
    ['mute by name', { type: 'mute_tabs', tab_indices: [1], muted: 'yes' }, ['commands[0].muted: must be true or false']],
    ['group colour Chrome lacks', { type: 'group_tabs', tab_indices: [1], title: 'Work', color: 'black' }, [
      'commands[0].color: must be one of "grey", "blue", "red", "yellow", "green", "pink", "purple", "cyan", "orange"',
    ]],
    ['group without a title', { type: 'group_tabs', tab_indices: [1], title: ' ' }, ['commands[0].title: must be a non-empty string']],
    ['a repeated index', { type: 'reload_tabs', tab_indices: [2, 2] }, ['commands[0].tab_indices[1]: duplicate tab index 2']],
    ['save without a name', { type: 'save_tabs', tab_indices: [1] }, ['commands[0].name: is required']],
    ['a filter the protocol lacks', { type: 'mute_tabs', tab_indices: [1], muted: true, domain: 'youtube.com' }, ['commands[0].domain: unknown field']],
  ];
  it.each(refused)('%s', (_, command, expected) => {
    expect(errorsOf(parseInput(command))).toEqual(expected);
  });

  it('accepts an age pick alone, with indices, and with both kinds of age', () => {
    for (const command of [
      { type: 'close_tab', unused_for_hours: 168 },
      { type: 'close_tab', tab_indices: [2, 3], unused_today: true },
      { type: 'search_tabs', oldest: 5 },
      { type: 'save_tabs', name: 'old', unused_for_hours: 24, oldest: 10, close: true },
    ]) {
      expect(errorsOf(parseInput(command))).toEqual([]);
    }
  });
});

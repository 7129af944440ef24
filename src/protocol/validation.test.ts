import { describe, expect, it } from 'vitest';
import { COMMAND_TYPES } from './commands';
import { formatFieldError, parseInput, type ParsedInput } from './validation';

const env = (commands: unknown[]) => ({ commands, needs_clarification: false, clarification_reason: null });
const errorsOf = (r: ParsedInput) => (r.ok ? [] : r.errors.map(formatFieldError));

describe('parseInput: every operation', () => {
  const valid: unknown[] = [
    { type: 'list_apps' },
    { type: 'focus_app', app_name: 'Google Chrome' },
    { type: 'place_app', app_name: 'Google Chrome', monitor: 'left' },
    { type: 'place_app', app_name: 'Google Chrome', monitor: 'right', bounds: [1920, 0, 2880, 1080] },
    { type: 'place_app', app_name: 'Terminal', bounds: [360, 140, 1560, 940] },
    { type: 'close_app', app_name: 'Google Chrome' },
    { type: 'list_tabs' },
    { type: 'switch_tab', tab_index: 3 },
    { type: 'open_url', url: 'chatgpt' },
    { type: 'close_tab', tab_indices: [2, 5, 8] },
    { type: 'activate_preset', preset_name: 'code space' },
    { type: 'query', question: 'What are my oldest tabs right now?' },
    { type: 'undo' },
    { type: 'undo', steps: 2 },
    // the tab manager's operations (see tab-commands.test.ts for their field rules)
    { type: 'search_tabs', query: 'pull request' },
    { type: 'count_tabs_by_domain' },
    { type: 'reload_tabs', tab_indices: [1] },
    { type: 'move_tabs', tab_indices: [1, 2], new_window: true },
    { type: 'close_duplicate_tabs' },
    { type: 'save_tabs', name: 'research', tab_indices: [2, 3], close: true },
    { type: 'restore_tabs', name: 'research' },
    { type: 'pin_tabs', tab_indices: [1], pinned: true },
    { type: 'mute_tabs', tab_indices: [4], muted: false },
    { type: 'group_tabs', tab_indices: [2, 3], title: 'Work', color: 'blue' },
    { type: 'ungroup_tabs', tab_indices: [2] },
    // window layouts
    { type: 'place_app', app_name: 'XTerm', layout: 'first_third', monitor: 'next' },
    { type: 'place_app', app_name: 'XTerm', monitor: '2', raise: false },
    { type: 'swap_apps', app_names: ['Google Chrome', 'XTerm'] },
    { type: 'tile_apps', app_names: ['Google Chrome', 'XTerm', 'Cursor'], monitor: 'top' },
    { type: 'set_app_state', app_name: 'XTerm', state: 'fullscreen' },
    // recent files and projects
    { type: 'open_recent', path: '/home/u/src/deskpilot', app_name: 'Visual Studio Code' },
  ];

  it('accepts an example of every command type: the core operations, undo, the tab manager, the window layouts and recent files', () => {
    const r = parseInput(env(valid));
    expect(errorsOf(r)).toEqual([]);
    expect(r.ok && r.envelope?.commands.length).toBe(valid.length);
    expect(new Set(valid.map((c) => (c as { type: string }).type))).toEqual(new Set(COMMAND_TYPES));
    expect(COMMAND_TYPES).toEqual([
      'list_apps', 'focus_app', 'place_app', 'close_app', 'list_tabs', 'switch_tab', 'open_url', 'close_tab', 'activate_preset', 'query', 'undo',
      'search_tabs', 'count_tabs_by_domain', 'reload_tabs', 'move_tabs', 'close_duplicate_tabs', 'save_tabs', 'restore_tabs',
      'pin_tabs', 'mute_tabs', 'group_tabs', 'ungroup_tabs',
      'swap_apps', 'tile_apps', 'set_app_state', 'open_recent',
    ]);
  });

  it('accepts one bare command and an array of commands as envelopes', () => {
    const one = parseInput({ type: 'switch_tab', tab_index: 1 });
    expect(one.ok && one.envelope?.commands).toEqual([{ type: 'switch_tab', tab_index: 1 }]);
    const many = parseInput([{ type: 'list_tabs' }, { type: 'list_apps' }]);
    expect(many.ok && many.envelope?.commands.map((c) => c.type)).toEqual(['list_tabs', 'list_apps']);
  });

  it('trims names so " Chrome " and "Chrome" are the same request', () => {
    const r = parseInput({ type: 'focus_app', app_name: '  Chrome ' });
    expect(r.ok && r.envelope?.commands[0]).toEqual({ type: 'focus_app', app_name: 'Chrome' });
  });
});

describe('parseInput: field errors name the path and the reason', () => {
  const cases: Array<[string, unknown, string[]]> = [
    ['negative index', env([{ type: 'close_tab', tab_indices: [2, -5] }]), ['commands[0].tab_indices[1]: must be a positive integer (tab indices start at 1)']],
    ['zero index', env([{ type: 'switch_tab', tab_index: 0 }]), ['commands[0].tab_index: must be a positive integer (tab indices start at 1)']],
    ['fractional index', env([{ type: 'switch_tab', tab_index: 1.5 }]), ['commands[0].tab_index: must be a positive integer']],
    ['string index', env([{ type: 'switch_tab', tab_index: '3' }]), ['commands[0].tab_index: must be a positive integer']],
    ['duplicate indices', env([{ type: 'close_tab', tab_indices: [4, 4] }]), ['commands[0].tab_indices[1]: duplicate tab index 4']],
    ['empty index list', env([{ type: 'close_tab', tab_indices: [] }]), ['commands[0].tab_indices: must list at least one tab index']],
    ['missing field', env([{ type: 'switch_tab' }]), ['commands[0].tab_index: is required']],
    ['unknown type', env([{ type: 'rm_rf' }]), [expect.stringMatching(/^commands\[0\]\.type: must be one of list_apps, .*query, undo, search_tabs, .*ungroup_tabs, swap_apps, tile_apps, set_app_state, open_recent$/) as unknown as string]],
    ['extra field', env([{ type: 'list_tabs', filter: 'reddit' }]), ['commands[0].filter: unknown field']],
    ['extra envelope field', { ...env([]), sudo: true }, ['sudo: unknown field']],
    ['empty name', env([{ type: 'focus_app', app_name: '   ' }]), ['commands[0].app_name: must be a non-empty string']],
    ['bad monitor', env([{ type: 'place_app', app_name: 'X', monitor: 'middle' }]), ['commands[0].monitor: must be one of "main", "left", "right", "top", "bottom", "next", "previous", "1", "2", "3", "4", "5", "6", "7", "8"']],
    ['neither monitor nor bounds', env([{ type: 'place_app', app_name: 'X' }]), ['commands[0]: place_app needs "monitor", "bounds" or "layout"']],
    ['bounds and layout', env([{ type: 'place_app', app_name: 'X', bounds: [0, 0, 10, 10], layout: 'left_half' }]), ['commands[0].layout: place_app takes "bounds" or "layout", not both']],
    ['bad layout', env([{ type: 'place_app', app_name: 'X', layout: 'left_quarter' }]), [expect.stringMatching(/^commands\[0\]\.layout: must be one of "left_half", .*"smaller"$/)]],
    ['one app to swap', env([{ type: 'swap_apps', app_names: ['X'] }]), ['commands[0].app_names: must name at least 2 apps']],
    ['an app tiled twice', env([{ type: 'tile_apps', app_names: ['X', 'x'] }]), ['commands[0].app_names[1]: "x" is named twice']],
    ['bad window state', env([{ type: 'set_app_state', app_name: 'X', state: 'hidden' }]), ['commands[0].state: must be one of "minimized", "normal", "fullscreen"']],
    ['3 bounds', env([{ type: 'place_app', app_name: 'X', bounds: [0, 0, 10] }]), ['commands[0].bounds: must be an array of 4 integers [left, top, right, bottom]']],
    ['left >= right', env([{ type: 'place_app', app_name: 'X', bounds: [10, 0, 10, 5] }]), ['commands[0].bounds: left must be less than right']],
    ['top >= bottom', env([{ type: 'place_app', app_name: 'X', bounds: [0, 9, 10, 5] }]), ['commands[0].bounds: top must be less than bottom']],
    ['non-integer bound', env([{ type: 'place_app', app_name: 'X', bounds: [0, 0.5, 10, 5] }]), ['commands[0].bounds[1]: must be an integer']],
    ['needs_clarification wrong type', { commands: [], needs_clarification: 'no' }, ['needs_clarification: must be true or false']],
    ['not an object', 'close everything', ['must be a JSON object (an envelope or a command) or an array of commands']],
    ['null', null, ['must be a JSON object (an envelope or a command) or an array of commands']],
  ];
  it.each(cases)('%s', (_, input, expected) => {
    expect(errorsOf(parseInput(input))).toEqual(expected);
  });

  it('reports every bad field of a batch at once, not just the first', () => {
    const r = parseInput(env([{ type: 'switch_tab', tab_index: -1 }, { type: 'list_tabs' }, { type: 'open_url', url: '' }]));
    expect(errorsOf(r)).toEqual([
      'commands[0].tab_index: must be a positive integer (tab indices start at 1)',
      'commands[2].url: must be a non-empty string',
    ]);
  });

  it('refuses a 5 MB string by length, quoting none of it back', () => {
    const r = parseInput(env([{ type: 'open_url', url: 'a'.repeat(5_000_000) }]));
    const errors = errorsOf(r);
    expect(errors).toEqual(['commands[0].url: must be at most 8192 characters']);
  });

  it('quotes a 1 MB unknown field name back as 80 characters, an ellipsis and its length', () => {
    const key = 'k'.repeat(1_048_576);
    const shown = `${'k'.repeat(80)}… (1048576 characters)`;
    expect(errorsOf(parseInput({ type: 'list_tabs', [key]: 1 }))).toEqual([`commands[0].${shown}: unknown field`]);
    expect(errorsOf(parseInput({ ...env([]), [key]: 1 }))).toEqual([`${shown}: unknown field`]);
    expect(errorsOf(parseInput({ commands: [], needs_clarification: true, clarification_reason: 'which?', [key]: 1 }))).toEqual([`${shown}: unknown field`]);
  });

  it('caps the number of commands in one batch', () => {
    const r = parseInput(env(Array.from({ length: 51 }, () => ({ type: 'list_tabs' }))));
    expect(errorsOf(r)).toEqual(['commands: must hold at most 50 commands']);
  });
});

describe('parseInput: clarification', () => {
  it('accepts a clarification with an incomplete draft and never yields commands to run', () => {
    const r = parseInput({
      commands: [{ type: 'switch_tab' }],
      needs_clarification: true,
      clarification_reason: "Could not find a tab matching 'xyz'. Did you mean one of these tabs?",
    });
    expect(r).toEqual({
      ok: true,
      envelope: null,
      clarification: { reason: "Could not find a tab matching 'xyz'. Did you mean one of these tabs?", draft_types: ['switch_tab'] },
    });
  });

  it('caps the reason like every other free text (at 4000 characters)', () => {
    const r = parseInput({ commands: [], needs_clarification: true, clarification_reason: 'why? '.repeat(1_000_000) });
    expect(errorsOf(r)).toEqual(['clarification_reason: must be at most 4000 characters']);
    const ok = parseInput({ commands: [], needs_clarification: true, clarification_reason: 'w'.repeat(4000) });
    expect(ok.ok).toBe(true);
  });

  it('requires a reason, and known types in the drafts', () => {
    const r = parseInput({ commands: [{ type: 'nope' }], needs_clarification: true, clarification_reason: null });
    expect(errorsOf(r)).toEqual([
      'clarification_reason: must explain what needs clarifying when needs_clarification is true',
      expect.stringMatching(/^commands\[0\]\.type: must be one of/) as unknown as string,
    ]);
  });
});

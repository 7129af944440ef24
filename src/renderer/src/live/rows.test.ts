import { describe, expect, it } from 'vitest';
import type { PlanPreview } from '../../../protocol/launcher';
import { briefQuestion, describePlan } from './describe-plan';
import { prepareIndex } from './match';
import { buildRows, type LiveRow } from './rows';
import { testIndex } from './test-index';

const index = testIndex();
const prepared = prepareIndex(index);
const preview = (text: string, p: Partial<PlanPreview>): PlanPreview => ({ text, index: index.id, kind: 'act', commands: [], question: null, choices: [], newer: null, ...p });
const keys = (rows: LiveRow[]) => rows.map((r) => r.key);

describe('the plan row', () => {
  it('says what Enter does, naming what it acts on', () => {
    expect(describePlan('go to typescript', preview('go to typescript', { commands: [{ type: 'switch_tab', tab_index: 3 }] }), index)).toEqual({
      title: 'Switch to tab 3',
      detail: 'r/typescript',
      note: null,
    });
    expect(describePlan('close youtube', preview('close youtube', { commands: [{ type: 'close_tab', tab_indices: [4, 6] }] }), index)).toEqual({
      title: 'Close 2 YouTube tabs',
      detail: null,
      note: 'asks first',
    });
    const noAsk = testIndex({ confirm: { close_tab: false, close_app: true } });
    expect(describePlan('x', { ...preview('x', { commands: [{ type: 'close_tab', tab_indices: [1, 2] }] }) }, noAsk)).toEqual({ title: 'Close 2 tabs', detail: null, note: null });
    expect(describePlan('code', preview('code', { commands: [{ type: 'focus_app', app_name: 'Visual Studio Code' }] }), index).title).toBe('Open Visual Studio Code');
    expect(
      describePlan('x', preview('x', { commands: [{ type: 'place_app', app_name: 'Chromium', monitor: 'left' }, { type: 'place_app', app_name: 'XTerm', monitor: 'right' }] }), index).title,
    ).toBe('Move Chromium to the left monitor, then move XTerm to the right monitor');
  });

  it('a question is short (the rows below name the choices); words it does not know say who plans them', () => {
    expect(briefQuestion('Switch to which tab: 1 "Reddit" (reddit.com) or 3 "r/typescript" (reddit.com)?')).toBe('Switch to which tab?');
    expect(describePlan('reddit', preview('reddit', { kind: 'ask', question: 'Switch to which tab: 1 "a" or 3 "b"?', choices: ['a', 'b'] }), index)).toEqual({
      title: 'Asks: Switch to which tab?',
      detail: null,
      note: '2 choices',
    });
    expect(describePlan('typescr', preview('typescr', { kind: 'unknown' }), index)).toEqual({ title: 'Run “typescr”', detail: null, note: 'not a sentence the offline matcher knows' });
    expect(describePlan('typescr', preview('typescr', { kind: 'unknown' }), testIndex({ planner: 'llm' })).note).toBe('the language model plans it');
  });

  it('until the preview for these words arrives, it says it will run them', () => {
    expect(describePlan('reddit', preview('reddi', { commands: [{ type: 'switch_tab', tab_index: 1 }] }), index)).toEqual({ title: 'Run “reddit”', detail: null, note: null });
    expect(describePlan('reddit', { ...preview('reddit', {}), index: 'older' }, index).title).toBe('Run “reddit”');
    // The service reads words trimmed: a trailing space is the same words.
    const plan = buildRows('reddit ', index, prepared, preview('reddit', { kind: 'ask', question: 'Which?', choices: [] })).rows[0];
    expect(plan?.kind === 'plan' && plan.settled).toBe(true);
  });
});

describe('the rows', () => {
  it('the plan row first, then the matches; nothing for an empty field', () => {
    expect(buildRows('', index, prepared, null).rows).toEqual([]);
    const { rows } = buildRows('reddit', index, prepared, preview('reddit', { kind: 'ask', question: 'Which?', choices: ['a', 'b'] }));
    expect(keys(rows)).toEqual(['plan', 'tab:1', 'tab:3']);
  });

  it('a name the matcher does not know puts its matches first (Enter switches to the tab); a sentence does not', () => {
    expect(keys(buildRows('typescr', index, prepared, preview('typescr', { kind: 'unknown' })).rows)).toEqual(['tab:3', 'plan']);
    // Not yet known: the plan row stays where it is.
    expect(keys(buildRows('typescr', index, prepared, null).rows)).toEqual(['plan', 'tab:3']);
    // A sentence goes to the planners on Enter, even when the offline matcher does not know it.
    expect(keys(buildRows('show me typescript', index, prepared, preview('show me typescript', { kind: 'unknown' })).rows)).toEqual(['plan', 'tab:3']);
  });

  it('while a name is typed on, the list keeps the shape the last preview gave it (no plan row jumping on every key)', () => {
    const unknownLast = preview('typesc', { kind: 'unknown' });
    const next = buildRows('typescr', index, prepared, unknownLast);
    // Not settled yet (Enter still waits for this preview), but drawn as it will most likely be.
    expect(keys(next.rows)).toEqual(['tab:3', 'plan']);
    const plan = next.rows[1];
    expect(plan?.kind === 'plan' && plan.settled).toBe(false);
    expect(plan?.kind === 'plan' && plan.line).toEqual({ title: 'Run “typescr”', detail: null, note: 'not a sentence the offline matcher knows' });
    // When the preview comes and agrees, the rows are the same.
    expect(buildRows('typescr', index, prepared, preview('typescr', { kind: 'unknown' })).rows.map((r) => (r.kind === 'plan' ? r.line : r.key))).toEqual(next.rows.map((r) => (r.kind === 'plan' ? r.line : r.key)));
    // A command word makes it a sentence: the plan row goes first at once.
    expect(keys(buildRows('close typescr', index, prepared, unknownLast).rows)).toEqual(['plan', 'tab:3']);
    // Words the matcher knew, or a preview for another index, give no such guess.
    expect(keys(buildRows('typescr', index, prepared, preview('typesc', { kind: 'ask', question: 'Which?', choices: [] })).rows)).toEqual(['plan', 'tab:3']);
    expect(keys(buildRows('typescr', index, prepared, { ...unknownLast, index: 'older' }).rows)).toEqual(['plan', 'tab:3']);
    // And when the preview says otherwise, it wins.
    expect(keys(buildRows('typescr', index, prepared, preview('typescr', { kind: 'ask', question: 'Which?', choices: [] })).rows)).toEqual(['plan', 'tab:3']);
  });

  it('each item says what it is and what it can do', () => {
    const rows = buildRows('xterm code', index, prepared, null).rows;
    expect(rows).toHaveLength(1);
    const all = buildRows('xterm', index, prepared, null).rows;
    const xterm = all.find((r) => r.key === 'app:XTerm');
    expect(xterm).toMatchObject({ title: 'XTerm', subtitle: 'user@host: ~', accessory: 'App · left monitor' });
    expect(xterm?.kind === 'item' && xterm.actions.map((a) => a.action)).toEqual(['open', 'move_left', 'move_right', 'close']);
    const code = buildRows('visual', index, prepared, null).rows.find((r) => r.key === 'app:Visual Studio Code');
    expect(code?.kind === 'item' && code.actions.map((a) => a.label)).toEqual(['Open Visual Studio Code']);
    const tabRow = buildRows('rust', index, prepared, null).rows[1];
    expect(tabRow).toMatchObject({ title: 'Rust Docs', subtitle: 'doc.rust-lang.org', accessory: 'Tab', ref: { kind: 'tab', index: 5 } });
    expect(tabRow?.kind === 'item' && tabRow.actions.map((a) => a.action)).toEqual(['open', 'close']);
  });

  it('offers Pin only when the protocol has a pin command', () => {
    const withPin = testIndex({ actions: { pin: true } });
    const row = buildRows('rust', withPin, prepareIndex(withPin), null).rows[1];
    expect(row?.kind === 'item' && row.actions.map((a) => a.label)).toEqual(['Switch to tab', 'Close tab', 'Pin tab']);
  });

  it('no moves between monitors with one monitor', () => {
    const one = testIndex({ monitors: [{ name: 'M', roles: ['main', 'left', 'right'] }] });
    const row = buildRows('xterm', one, prepareIndex(one), null).rows.find((r) => r.key === 'app:XTerm');
    expect(row?.kind === 'item' && row.actions.map((a) => a.action)).toEqual(['open', 'close']);
  });
});

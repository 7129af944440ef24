import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ContextSnapshot } from '../../protocol/context';
import { planLocally } from './local-planner';

// The offline matcher on the tab manager's sentences, against the eval's tab-manager desk
// (14 tabs in two windows, the companion extension answering, tab ages known) and a plain one
// (no extension, no ages).

const desk = (name: string) =>
  ContextSnapshot.parse(JSON.parse(readFileSync(path.join(__dirname, '..', '..', '..', 'eval', 'contexts', `${name}.json`), 'utf8')));
const TABS = desk('t-tab-manager');
const PLAIN = desk('u-tabs-plain');

const plan = (text: string, context = TABS) => planLocally({ text, context, turns: [] });
const commands = (text: string, context = TABS) => {
  const a = plan(text, context);
  const env = a.envelope as { commands: unknown[]; needs_clarification: boolean; clarification_reason: string | null };
  if (env.needs_clarification) throw new Error(`asked: ${env.clarification_reason}`);
  return env.commands;
};
const question = (text: string, context = TABS) => {
  const env = plan(text, context).envelope as { needs_clarification: boolean; clarification_reason: string | null };
  expect(env.needs_clarification).toBe(true);
  return env.clarification_reason!;
};

describe('the offline matcher: the tab manager', () => {
  it.each([
    ['pin the reddit tab', [{ type: 'pin_tabs', tab_indices: [11], pinned: true }]],
    ['unpin this tab', [{ type: 'pin_tabs', tab_indices: [8], pinned: false }]],
    // Of several tabs, only those not already so (tab 10 is muted already).
    ['mute all youtube tabs', [{ type: 'mute_tabs', tab_indices: [2], muted: true }]],
    ['unmute everything', [{ type: 'mute_tabs', tab_indices: [10], muted: false }]],
    ['group the github tabs', [{ type: 'group_tabs', tab_indices: [3, 4, 14], title: 'github' }]],
    ['group tabs 5 and 6 as Docs in purple', [{ type: 'group_tabs', tab_indices: [5, 6], title: 'Docs', color: 'purple' }]],
    ['ungroup the work tabs', [{ type: 'ungroup_tabs', tab_indices: [3, 4] }]],
    ['hard refresh the github tabs', [{ type: 'reload_tabs', tab_indices: [3, 4, 14], ignore_cache: true }]],
    ['refresh', [{ type: 'reload_tabs', tab_indices: [8] }]],
    ['close duplicates', [{ type: 'close_duplicate_tabs' }]],
    ['close the last three tabs', [{ type: 'close_tab', tab_indices: [12, 13, 14] }]],
    ['move this tab to the other window', [{ type: 'move_tabs', tab_indices: [8], window_index: 2 }]],
    ['send reddit to a new window', [{ type: 'move_tabs', tab_indices: [11], new_window: true }]],
    ['how many tabs do I have per site?', [{ type: 'count_tabs_by_domain' }]],
    ['what are my 3 oldest tabs?', [{ type: 'search_tabs', oldest: 3 }]],
    ["which tabs haven't I touched today?", [{ type: 'search_tabs', unused_today: true }]],
    ["close tabs i haven't used in a week", [{ type: 'close_tab', unused_for_hours: 168 }]],
    ['close my 2 oldest tabs', [{ type: 'close_tab', oldest: 2 }]],
    ['stash the reddit tab', [{ type: 'save_tabs', name: 'reddit', tab_indices: [11], close: true }]],
    ['save this window as research', [{ type: 'save_tabs', name: 'research', tab_indices: [1, 2, 3, 4, 5, 6, 7, 8, 9] }]],
    ['bring back my reading list tabs', [{ type: 'restore_tabs', name: 'Reading list' }]],
    ['which pages mention hash tables', [{ type: 'search_tabs', query: 'hash tables', page_text: true }]],
    ['mute youtube and pin reddit', [{ type: 'mute_tabs', tab_indices: [2], muted: true }, { type: 'pin_tabs', tab_indices: [11], pinned: true }]],
  ])('%s', (text, expected) => {
    expect(commands(text)).toEqual(expected);
  });

  it('asks rather than guesses: one tab of two, how many oldest, an age no tab has, a set that is not saved', () => {
    expect(question('pin the github tab')).toMatch(/^Which tab:/);
    expect(question('close my oldest tabs')).toBe('Close how many of your oldest tabs? Say e.g. "close my 5 oldest tabs".');
    expect(question('close tabs older than a year')).toBe('No open tab is unused for 1 year.');
    expect(question('restore travel')).toBe('No saved set of tabs is called "travel". Saved sets: "research" and "Reading list".');
  });

  it('without the companion extension it says what is missing and how to add it; ages too', () => {
    expect(question('mute youtube', PLAIN)).toMatch(/^Muting needs the DeskPilot companion extension\. The DeskPilot companion extension is not installed in this Chrome\. .*Load unpacked/);
    expect(question('close tabs older than a week', PLAIN)).toMatch(/^I can't tell: tab ages are not known: they come from the DeskPilot companion extension/);
    // What works over DevTools alone still does.
    expect(commands('move tab 2 to a new window', PLAIN)).toEqual([{ type: 'move_tabs', tab_indices: [2], new_window: true }]);
    expect(question('remove duplicate tabs', PLAIN)).toBe('No two open tabs show the same address.');
  });

  it('leaves other sentences to the other rules: placing apps, presets, opening sites', () => {
    expect(commands('move slack to the left monitor')[0]).toMatchObject({ type: 'place_app', app_name: 'Slack' });
    // "open research": the open "Research notes" tab or the saved set — two readings, so a question (issue 26);
    // "open my research tabs" says the set.
    expect(question('open research')).toMatch(/saved set "research"/);
    expect(question('open research')).toMatch(/tab 12 "Research notes/);
    expect(commands('open my research tabs')[0]).toEqual({ type: 'restore_tabs', name: 'research' });
  });
});

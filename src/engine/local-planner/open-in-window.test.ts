import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ContextSnapshot } from '../../protocol/context';
import { planLocally } from './local-planner';

// Browser windows as where a tab goes (issue 27), against the eval's two-window desk whose tabs
// carry their browser_window_id (1771 focused, 1802 behind it), and the same desk without the
// ids (a browser that does not say), where "the other window" cannot be told.

const WINDOWS = ContextSnapshot.parse(JSON.parse(readFileSync(path.join(__dirname, '..', '..', '..', 'eval', 'contexts', 'x-browser-windows.json'), 'utf8')));
const NO_IDS: ContextSnapshot = { ...WINDOWS, tabs: WINDOWS.tabs.map(({ browser_window_id: _id, ...t }) => t) };

const envelope = (text: string, context = WINDOWS) =>
  planLocally({ text, context, turns: [] }).envelope as { commands: unknown[]; needs_clarification: boolean; clarification_reason: string | null };

describe('the offline matcher: open in a browser window', () => {
  it.each([
    ['open gmail in a new window', { type: 'open_url', url: 'gmail', new_window: true }],
    ['open github.com in the other window', { type: 'open_url', url: 'github.com', browser_window_id: 1802 }],
    ['open example.com in this window', { type: 'open_url', url: 'example.com', browser_window_id: 1771 }],
    ['load reddit in window 2', { type: 'open_url', url: 'reddit', browser_window_id: 1802 }],
    ['open a new chrome window', { type: 'open_url', url: 'about:blank', new_window: true }],
    ['restore work in a new window', { type: 'restore_tabs', name: 'work', new_window: true }],
    ['open research in a new window', { type: 'restore_tabs', name: 'research', new_window: true }],
  ])('%s', (text, command) => {
    const env = envelope(text);
    expect(env.clarification_reason).toBeNull();
    expect(env.commands).toEqual([command]);
  });

  it.each([
    ['open example.com in the third window', 'Which window: 1771 (w1, 9 tabs, showing "Hacker News") or 1802 (w2, 5 tabs, showing "Research notes - Google Docs")?'],
    ['open the issues page in the other window', 'Which site is "issues"? Say its address, e.g. "open example.com in a new window".'],
    ['open a new window', 'A new window of which app? DeskPilot opens new Chrome windows: say "open a new chrome window", or "open gmail in a new window".'],
  ])('asks: %s', (text, reason) => {
    const env = envelope(text);
    expect(env.needs_clarification).toBe(true);
    expect(env.clarification_reason).toBe(reason);
  });

  it('asks rather than guesses a window whose id the browser did not give', () => {
    const env = envelope('open github.com in the other window', NO_IDS);
    expect(env.needs_clarification).toBe(true);
    expect(env.clarification_reason).toMatch(/^Chrome did not say which window is which here/);
    // A new window needs no id.
    expect(envelope('open github.com in a new window', NO_IDS).commands).toEqual([{ type: 'open_url', url: 'github.com', new_window: true }]);
  });
});

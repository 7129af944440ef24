import { describe, expect, it } from 'vitest';
import type { ContextSnapshot } from '../../protocol/context';
import { fixtureTab } from '../test-snapshot';
import { compactContext } from './compact-context';

// What the LLM planner reads about the tab manager's facts: per tab pinned/muted/sound/group and
// how long ago it was used (so "my oldest tabs" and "unmute the music" can be matched), and the
// saved sets restore_tabs can name.

const snap = (): ContextSnapshot => ({
  taken_at: '2026-11-26T15:00:00.000Z',
  monitors: [],
  running_apps: [],
  installed_apps: [],
  tabs: [
    { ...fixtureTab(1, 'mail.google.com'), pinned: true, muted: false, group: null, last_used_at: '2026-11-26T14:50:00.000Z' },
    { ...fixtureTab(2, 'youtube.com'), muted: true, audible: true, group: { title: 'Work', color: 'blue' }, last_used_at: '2026-11-23T15:00:00.000Z' },
    fixtureTab(3, 'github.com'),
  ],
  presets: [],
  tab_collections: ['research'],
  sources: { windows: { ok: true, message: '' }, chrome: { ok: true, message: '' }, presets: { ok: true, message: '' } },
});

describe('compactContext: the tab manager', () => {
  it('flags each tab with what is known, and lists the saved sets', () => {
    const text = compactContext(snap());
    expect(text).toContain('1* w1 mail.google.com "Tab 1" {pinned used 10 min ago}');
    expect(text).toContain('2 w1 youtube.com "Tab 2" {muted playing sound group "Work" used 3 d ago}');
    expect(text).toContain('3 w1 github.com "Tab 3"\n');
    expect(text).toContain('Saved sets of tabs (restore_tabs): "research"');
  });
});

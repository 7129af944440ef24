import { describe, expect, it } from 'vitest';
import type { Envelope } from '../../protocol/commands';
import type { ContextSnapshot } from '../../protocol/context';
import { resolveBatch } from '../resolve';
import { planLocally } from './local-planner';
import { app, laptop } from './test-fixtures';

// Apps as people say them, through the whole offline planner: kinds ("the terminal", "the
// clock"), Chrome's relatives, and a bare word that is neither an app nor a site.

/** The real test desktop: Chromium, XTerm and XClock running; Debian's .desktop entries installed. */
const desk = (over: Partial<ContextSnapshot> = {}): ContextSnapshot =>
  laptop({
    running_apps: [
      app('Chromium', [10, 10, 1900, 1060], 'eDP-1', true),
      app('XTerm', [195, 52, 681, 393], 'eDP-1'),
      app('XClock', [877, 445, 1043, 634], 'eDP-1'),
    ],
    installed_apps: [
      { name: 'Chromium', generic_name: 'Web Browser', keywords: ['Chromium Web Browser', 'browser'], default_for: ['browser'] },
      { name: 'UXTerm', generic_name: 'Terminal' },
      { name: 'XTerm', generic_name: 'Terminal', default_for: ['terminal'] },
    ],
    ...over,
  });

function answer(text: string, snap: ContextSnapshot): Envelope {
  const env = planLocally({ text, context: snap, turns: [] }).envelope as Envelope;
  if (!env.needs_clarification) expect(resolveBatch(env.commands, snap).ok).toBe(true);
  return env;
}

describe('apps as people say them (offline planner)', () => {
  it.each([
    ['put the clock on the left monitor', [{ type: 'place_app', app_name: 'XClock', monitor: 'left' }]],
    ['chrome left', [{ type: 'place_app', app_name: 'Chromium', bounds: [0, 32, 960, 1080] }]],
    ['maximise the browser', [{ type: 'place_app', app_name: 'Chromium', bounds: [0, 32, 1920, 1080] }]],
    ['switch to the terminal', [{ type: 'focus_app', app_name: 'XTerm' }]],
  ])('%s', (text, commands) => {
    expect(answer(text, desk()).commands).toEqual(commands);
  });

  it('"open the terminal" with none running launches the default one; "open xclock" launches XClock when it is installed', () => {
    const idle = desk({ running_apps: [], installed_apps: [...desk().installed_apps, { name: 'XClock' }] });
    expect(answer('open the terminal', idle).commands).toEqual([{ type: 'focus_app', app_name: 'XTerm' }]);
    expect(answer('open xclock', idle).commands).toEqual([{ type: 'focus_app', app_name: 'XClock' }]);
    expect(answer('open the clock', idle).commands).toEqual([{ type: 'focus_app', app_name: 'XClock' }]);
  });

  it('a bare word that is neither an app nor a site it knows is asked about, never opened as <word>.com', () => {
    const idle = desk({ running_apps: [] });
    for (const text of ['open xclock', 'open blorptastic']) {
      const env = answer(text, idle);
      expect(env.needs_clarification).toBe(true);
      expect(env.clarification_reason).toMatch(/^No app or site I know is called "\w+"\. Say its address, e\.g\. "open \w+\.com"/);
    }
    // Known sites, addresses and an explicit new tab still open.
    expect(answer('open figma', idle).commands).toEqual([{ type: 'open_url', url: 'figma' }]);
    expect(answer('open xclock.org', idle).commands).toEqual([{ type: 'open_url', url: 'xclock.org' }]);
    expect(answer('open xclock in a new tab', idle).commands).toEqual([{ type: 'open_url', url: 'xclock' }]);
  });
});

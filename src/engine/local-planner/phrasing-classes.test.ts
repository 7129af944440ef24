import { describe, expect, it } from 'vitest';
import type { Envelope } from '../../protocol/commands';
import type { ContextSnapshot } from '../../protocol/context';
import { planLocally } from './local-planner';
import { laptop, tab, turn, twoMonitors } from './test-fixtures';
import { stripReason } from './text';

// The classes of phrasing that used to miss: a trailing reason, an ordinal among matching
// tabs, a verb shared by two clauses where the second has its own place, "make X take the
// <region>", a move and a region said apart, "a new X tab", "restore <app>", and a follow-on
// that borrows the previous request's verb.

const plan = (text: string, snap: ContextSnapshot = laptop(), turns = [] as ReturnType<typeof turn>[]) => {
  const e = planLocally({ text, context: snap, turns }).envelope as Envelope;
  return e.needs_clarification ? e.clarification_reason : e.commands;
};

const videos = () =>
  laptop({
    tabs: [
      tab(1, 'https://mail.google.com/mail/u/0/#inbox', 'Inbox - Gmail'),
      tab(2, 'https://www.youtube.com/watch?v=a', 'Sorting Algorithms Explained - YouTube'),
      tab(3, 'https://www.youtube.com/watch?v=b', 'Sorting Algorithms in 6 Minutes - YouTube'),
      tab(4, 'https://www.twitch.tv/', 'Twitch', { active: true }),
    ],
  });

describe('a trailing reason is not part of the request', () => {
  it('drops what follows a comma or "because" when it says why', () => {
    expect(stripReason('close netflix, i need to focus')).toBe('close netflix');
    expect(stripReason('hide slack, it keeps pinging me')).toBe('hide slack');
    expect(stripReason('close the music tab because it is too loud')).toBe('close the music tab');
    expect(stripReason('close tabs 2, 4 and 6')).toBe('close tabs 2, 4 and 6');
  });

  it('and the request is then understood', () => {
    expect(plan('close the gmail tab, i want some quiet')).toEqual([{ type: 'close_tab', tab_indices: [1] }]);
    expect(plan('could you minimise slack for me, it is distracting')).toEqual([{ type: 'set_app_state', app_name: 'Slack', state: 'minimized' }]);
  });
});

describe('an ordinal picks among the tabs the words match, in tab order', () => {
  it('first, second, last', () => {
    expect(plan('close the second sorting algorithms video', videos())).toEqual([{ type: 'close_tab', tab_indices: [3] }]);
    expect(plan('switch to the first sorting algorithms video', videos())).toEqual([{ type: 'switch_tab', tab_index: 2 }]);
    expect(plan('go to the last sorting algorithms video', videos())).toEqual([{ type: 'switch_tab', tab_index: 3 }]);
  });

  it('an ordinal past the matches, or without several matches, still asks', () => {
    expect(plan('close the third sorting algorithms video', videos())).toEqual(expect.stringContaining('No tab matches'));
    expect(plan('switch to the second tab', videos())).toEqual([{ type: 'switch_tab', tab_index: 2 }]);
  });
});

describe('places and apps said in other orders', () => {
  it('"maximize slack and terminal right": the second clause keeps its own place', () => {
    expect(plan('maximize slack and terminal right', twoMonitors())).toEqual([
      { type: 'place_app', app_name: 'Slack', bounds: [0, 32, 1920, 1080] },
      { type: 'place_app', app_name: 'Terminal', monitor: 'right' },
    ]);
  });

  it('"make X take / fill the <region>"', () => {
    expect(plan('make slack take the left two thirds')).toEqual([{ type: 'place_app', app_name: 'Slack', layout: 'first_two_thirds' }]);
    expect(plan('have spotify fill the right third')).toEqual([{ type: 'place_app', app_name: 'Spotify', layout: 'last_third' }]);
    // …which leaves a size to the centring rule.
    expect(plan('make slack 1000 by 700 in the middle')).toEqual([{ type: 'place_app', app_name: 'Slack', bounds: [460, 206, 1460, 906] }]);
  });

  it('a move to a monitor and then a region: the region on that monitor, one command', () => {
    expect(plan('move slack to the right screen and make it the left third', twoMonitors())).toEqual([
      { type: 'place_app', app_name: 'Slack', layout: 'first_third', monitor: 'right' },
    ]);
  });
});

describe('tabs and apps named the other way round', () => {
  it('"open a new X tab" opens X, on the site an open tab of it is on', () => {
    // The planner's site name; DeskPilot normalises it to https://chatgpt.com when it runs.
    expect(plan('open a new chatgpt tab')).toEqual([{ type: 'open_url', url: 'chatgpt' }]);
    expect(plan('open a new twitch tab', videos())).toEqual([{ type: 'open_url', url: 'https://twitch.tv' }]);
  });

  it('"restore X" for a running app with no saved set of tabs called X restores its window', () => {
    expect(plan('restore spotify')).toEqual([{ type: 'set_app_state', app_name: 'Spotify', state: 'normal' }]);
    expect(plan('restore spotify', laptop({ tab_collections: ['spotify'] }))).toEqual([{ type: 'restore_tabs', name: 'spotify' }]);
  });

  it('"and X too" takes the previous request\'s verb', () => {
    const closed = turn('close the gmail tab', [{ type: 'close_tab', tab_indices: [1] }]);
    expect(plan('and the twitch tab too', videos(), [closed])).toEqual([{ type: 'close_tab', tab_indices: [4] }]);
    const hid = turn('minimize slack', [{ type: 'set_app_state', app_name: 'Slack', state: 'minimized' }]);
    expect(plan('and spotify as well', laptop(), [hid])).toEqual([{ type: 'set_app_state', app_name: 'Spotify', state: 'minimized' }]);
    expect(plan('and spotify as well')).toEqual(expect.any(String));
  });
});

// Reasons said as "they're …" / "i keep …", corrections opened with "actually" / "oops", and
// "open the second one" after a listing of recent files.

const desk = () =>
  laptop({
    tabs: [
      tab(1, 'https://www.netflix.com/browse', 'Netflix'),
      tab(2, 'https://www.twitch.tv/', 'Twitch'),
      tab(3, 'https://github.com/acme/web', 'GitHub - acme/web', { active: true }),
    ],
    recent_files: [
      { path: '/home/kim/notes/standup.md', app: 'gedit', used_at: '2026-11-20T09:00:00.000Z' },
      { path: '/home/kim/Downloads/lease-2027.pdf', app: 'Document Viewer', used_at: '2026-11-19T09:00:00.000Z' },
    ],
    recent_projects: [{ path: '/home/kim/src/web', app: 'Code', used_at: '2026-11-18T09:00:00.000Z' }],
  });

describe('a trailing reason in other words', () => {
  it('"they\'re …" and "i keep …" after a comma', () => {
    expect(plan('close netflix and twitch, they\'re eating my evening', desk())).toEqual([
      { type: 'close_tab', tab_indices: [1] },
      { type: 'close_tab', tab_indices: [2] },
    ]);
    expect(plan('close twitch, i keep wasting time there', desk())).toEqual([{ type: 'close_tab', tab_indices: [2] }]);
  });
});

describe('a correction after the previous turn', () => {
  const moved = turn('slack left half', [{ type: 'place_app', app_name: 'Slack', layout: 'left_half' }]);

  it('"actually the right half" moves the same app', () => {
    expect(plan('actually the right half', desk(), [moved])).toEqual([{ type: 'place_app', app_name: 'Slack', bounds: [960, 32, 1920, 1080] }]);
  });

  it('"oops put it back" is undo', () => {
    const closed = turn('close the twitch tab', [{ type: 'close_tab', tab_indices: [2] }]);
    expect(plan('oops put it back', desk(), [closed])).toEqual([{ type: 'undo' }]);
  });
});

describe('"open the second one" after a listing', () => {
  const listed = (outcome: string) => ({ ...turn('what did i open recently', [{ type: 'query', question: 'what did i open recently' }]), outcome });

  it('opens the item at that place in the list just shown', () => {
    const t = listed('1. standup.md in gedit (1 hour ago) 2. lease-2027.pdf in Document Viewer (yesterday) 3. web in Code (2 days ago)');
    expect(plan('open the second one', desk(), [t])).toEqual([{ type: 'open_recent', path: '/home/kim/Downloads/lease-2027.pdf' }]);
    expect(plan('open the third one', desk(), [t])).toEqual([{ type: 'open_recent', path: '/home/kim/src/web' }]);
  });

  it('a place past the list, or a list of something else, is not guessed', () => {
    const t = listed('1. standup.md in gedit (1 hour ago) 2. lease-2027.pdf in Document Viewer (yesterday)');
    expect(plan('open the fifth one', desk(), [t])).toEqual(expect.any(String));
    expect(plan('open the second one', desk(), [listed('1. alpha.txt 2. beta.txt')])).toEqual(expect.any(String));
  });
});

import { describe, expect, it } from 'vitest';
import type { Command, Envelope } from '../../protocol/commands';
import type { ContextSnapshot } from '../../protocol/context';
import type { Turn } from '../../protocol/planning';
import { checkAnswer, planText } from '../plan-text';
import { createLocalPlanner, planLocally } from './local-planner';
import { chromeDown, laptop, tab, threeMonitors, turn, twoMonitors, windowsDown } from './test-fixtures';

// With a clarification that is a choice between things the matcher found, the answer carries
// each of them as a complete envelope (PlannerAnswer.candidates), so a UI can offer buttons.
// Every candidate must be an envelope the engine accepts as it is: valid, resolvable against
// the snapshot, and not itself a question.

type Expected = Array<[label: string, commands: Command[]]>;
type Row = [text: string, snap: () => ContextSnapshot, candidates: Expected];

const envelope = (commands: Command[]): Envelope => ({ commands, needs_clarification: false, clarification_reason: null });

/** twoMonitors with Chrome's one window on LEFT: these choices are between apps, not windows (window-refs.test.ts has those). */
const oneChromeWindow = (): ContextSnapshot => {
  const snap = twoMonitors();
  return { ...snap, running_apps: snap.running_apps.map((a) => (a.name === 'Google Chrome' ? { ...a, windows: a.windows.slice(0, 1) } : a)) };
};

function planned(text: string, snap: ContextSnapshot, turns: Turn[] = []) {
  const answer = planLocally({ text, context: snap, turns });
  const env = answer.envelope as Envelope;
  expect(env.needs_clarification, `"${text}" should ask`).toBe(true);
  expect(env.commands).toEqual([]);
  expect(answer.confidence).toBeLessThan(1);
  return { answer, reason: env.clarification_reason! };
}

/** The candidates, after checking each one passes checkAnswer against `snap` unchanged. */
function candidates(text: string, snap: ContextSnapshot, turns: Turn[] = []) {
  const { answer } = planned(text, snap, turns);
  const out = answer.candidates ?? [];
  for (const c of out) {
    const checked = checkAnswer(c.envelope, snap);
    expect(checked.errors, `${text} → ${c.label}`).toEqual([]);
    expect(checked.envelope).toEqual(c.envelope);
    expect(checked.envelope!.needs_clarification).toBe(false);
  }
  expect(new Set(out.map((c) => c.label)).size, 'labels are distinct').toBe(out.length);
  return out;
}

const table = (rows: Row[]) =>
  it.each(rows)('%s', (text, snap, expected) => {
    expect(candidates(text, snap())).toEqual(expected.map(([label, commands]) => ({ label, envelope: envelope(commands) })));
  });

/** Two GitHub tabs at 2 and 3, as in the example of the contract. */
const twoGithub = () =>
  laptop({
    tabs: [
      tab(1, 'https://mail.google.com/mail/u/0/#inbox', 'Inbox - Gmail'),
      tab(2, 'https://github.com/a', 'GitHub - a'),
      tab(3, 'https://github.com/b', 'GitHub - b'),
      tab(4, 'https://news.ycombinator.com/', 'Hacker News', { active: true }),
    ],
  });

/** laptop() plus a Slack tab (10), so "close slack" is the app or the tab. */
const slackTab = (n = 1) => {
  const snap = laptop();
  const titles = ['general | Slack', 'random | Slack'];
  for (let i = 0; i < n; i++) snap.tabs.push(tab(10 + i, `https://app.slack.com/client/T${i}`, titles[i]!));
  return snap;
};

/** laptop() plus tabs of the apps Spotify and Zoom, for slips that could be either. */
const appSiteTabs = () => {
  const snap = laptop();
  snap.tabs.push(tab(10, 'https://open.spotify.com/playlist/x', 'Focus mix - Spotify'));
  return snap;
};

/** Eleven GitHub tabs: more than a question lists. */
const manyGithub = () =>
  laptop({ tabs: Array.from({ length: 11 }, (_, i) => tab(i + 1, `https://github.com/r${i + 1}`, `GitHub - r${i + 1}`)) });

/** laptop() without the app Code, so "code" is only a word of two presets. */
const noCodeApp = () => {
  const snap = laptop();
  snap.running_apps = snap.running_apps.filter((a) => a.name !== 'Code');
  snap.installed_apps = snap.installed_apps.filter((a) => a.name !== 'Code');
  return snap;
};

/** Two Chrome windows and Chrome not focused: "this tab" is one of two active tabs. */
const chromeUnfocused = () => {
  const snap = twoMonitors();
  for (const w of snap.running_apps[0]!.windows) w.focused = false;
  return snap;
};

const github2 = 'tab 2 "GitHub - a" (github.com)';
const github3 = 'tab 3 "GitHub - b" (github.com)';
const reddit2 = 'tab 2 "Moving from Jest to Vitest : r/typescript" (reddit.com)';
const reddit3 = 'tab 3 "Best budget grinder? : r/espresso" (reddit.com)';

describe('candidates: ambiguous tabs', () => {
  describe('switching: one candidate per tab', () => {
    table([
      ['switch to github', twoGithub, [[github2, [{ type: 'switch_tab', tab_index: 2 }]], [github3, [{ type: 'switch_tab', tab_index: 3 }]]]],
      ['github', twoGithub, [[github2, [{ type: 'switch_tab', tab_index: 2 }]], [github3, [{ type: 'switch_tab', tab_index: 3 }]]]],
      ['open github', twoGithub, [[github2, [{ type: 'switch_tab', tab_index: 2 }]], [github3, [{ type: 'switch_tab', tab_index: 3 }]]]],
      ['switch to reddit', laptop, [[reddit2, [{ type: 'switch_tab', tab_index: 2 }]], [reddit3, [{ type: 'switch_tab', tab_index: 3 }]]]],
      [
        'go to next.js',
        laptop,
        [
          ['tab 6 "GitHub - vercel/next.js" (github.com)', [{ type: 'switch_tab', tab_index: 6 }]],
          ['tab 9 "Next.js by Vercel - The React Framework" (nextjs.org)', [{ type: 'switch_tab', tab_index: 9 }]],
        ],
      ],
      [
        'switch to youtube',
        twoMonitors,
        [
          ['tab 3 "Designing Data-Intensive Applications - YouTube" (youtube.com)', [{ type: 'switch_tab', tab_index: 3 }]],
          ['tab 4 "Lofi beats - YouTube" (youtube.com)', [{ type: 'switch_tab', tab_index: 4 }]],
        ],
      ],
      // Two tabs cannot both be in front: each is a choice.
      [
        'youtube and hacker news',
        laptop,
        [
          ['tab 4 "Rust in 100 Seconds - YouTube" (youtube.com)', [{ type: 'switch_tab', tab_index: 4 }]],
          ['tab 7 "Hacker News" (news.ycombinator.com)', [{ type: 'switch_tab', tab_index: 7 }]],
        ],
      ],
      [
        'switch to tabs 2 and 5',
        laptop,
        [
          [reddit2, [{ type: 'switch_tab', tab_index: 2 }]],
          ['tab 5 "GitHub - deskpilot/issues" (github.com)', [{ type: 'switch_tab', tab_index: 5 }]],
        ],
      ],
    ]);
  });

  describe('closing: that one tab; "all N" last only when no "tab" was said', () => {
    table([
      // A site said whole ("close reddit") is every tab of it (issue 26), so no question there; a
      // description that fits several tabs equally is asked about, "all N" last.
      [
        'close rust',
        () => laptop({ tabs: [...laptop().tabs, tab(10, 'https://doc.rust-lang.org/rust-by-example/', 'Rust by Example')] }),
        [
          ['tab 4 "Rust in 100 Seconds - YouTube" (youtube.com)', [{ type: 'close_tab', tab_indices: [4] }]],
          ['tab 10 "Rust by Example" (doc.rust-lang.org)', [{ type: 'close_tab', tab_indices: [10] }]],
          ['all 2 rust tabs', [{ type: 'close_tab', tab_indices: [4, 10] }]],
        ],
      ],
      // "the … tab" is one tab: no "all".
      ['close the github tab', twoGithub, [[github2, [{ type: 'close_tab', tab_indices: [2] }]], [github3, [{ type: 'close_tab', tab_indices: [3] }]]]],
      ['close the reddit tab', laptop, [[reddit2, [{ type: 'close_tab', tab_indices: [2] }]], [reddit3, [{ type: 'close_tab', tab_indices: [3] }]]]],
      [
        'close the youtube tab in window 2',
        twoMonitors,
        [
          ['tab 3 "Designing Data-Intensive Applications - YouTube" (youtube.com)', [{ type: 'close_tab', tab_indices: [3] }]],
          ['tab 4 "Lofi beats - YouTube" (youtube.com)', [{ type: 'close_tab', tab_indices: [4] }]],
        ],
      ],
      // "this tab" with two Chrome windows and Chrome not in front: each window's active tab.
      [
        'close this tab',
        chromeUnfocused,
        [
          ['tab 1 "Pull Request #12 · acme/api · GitHub" (github.com)', [{ type: 'close_tab', tab_indices: [1] }]],
          ['tab 3 "Designing Data-Intensive Applications - YouTube" (youtube.com)', [{ type: 'close_tab', tab_indices: [3] }]],
        ],
      ],
      [
        'close the other tabs',
        chromeUnfocused,
        [
          ['all but tab 1 "Pull Request #12 · acme/api · GitHub" (github.com)', [{ type: 'close_tab', tab_indices: [2] }]],
          ['all but tab 3 "Designing Data-Intensive Applications - YouTube" (youtube.com)', [{ type: 'close_tab', tab_indices: [4, 5] }]],
        ],
      ],
    ]);

    it('offers as many tabs as the question lists; a site said whole closes every tab of it', () => {
      const { reason } = planned('close the github tab', manyGithub());
      expect(reason).toMatch(/… \(3 more\)\?/);
      const out = candidates('close the github tab', manyGithub());
      expect(out.map((c) => c.label)).toEqual(Array.from({ length: 8 }, (_, i) => `tab ${i + 1} "GitHub - r${i + 1}" (github.com)`));
      expect((planLocally({ text: 'close github', context: manyGithub(), turns: [] }).envelope as Envelope).commands).toEqual([
        { type: 'close_tab', tab_indices: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] },
      ]);
    });
  });

  describe('which window', () => {
    table([
      ['close the youtube tabs in the travel window', twoMonitors, [['window 2: tabs 3 and 4', [{ type: 'close_tab', tab_indices: [3, 4] }]]]],
      [
        'close all tabs in the travel window',
        twoMonitors,
        [
          ['window 1: tabs 1 and 2', [{ type: 'close_tab', tab_indices: [1, 2] }]],
          ['window 2: tabs 3, 4 and 5', [{ type: 'close_tab', tab_indices: [3, 4, 5] }]],
        ],
      ],
    ]);
  });
});

describe('candidates: ambiguous apps, one per app with the exact command', () => {
  table([
    ['switch to the editor', laptop, [['Code', [{ type: 'focus_app', app_name: 'Code' }]], ['Cursor', [{ type: 'focus_app', app_name: 'Cursor' }]]]],
    ['open the editor', laptop, [['Code', [{ type: 'focus_app', app_name: 'Code' }]], ['Cursor', [{ type: 'focus_app', app_name: 'Cursor' }]]]],
    ['quit the editor', laptop, [['Code', [{ type: 'close_app', app_name: 'Code' }]], ['Cursor', [{ type: 'close_app', app_name: 'Cursor' }]]]],
    ['close the editor', laptop, [['Code', [{ type: 'close_app', app_name: 'Code' }]], ['Cursor', [{ type: 'close_app', app_name: 'Cursor' }]]]],
    [
      'switch to the browser',
      twoMonitors,
      [['Google Chrome', [{ type: 'focus_app', app_name: 'Google Chrome' }]], ['Chromium', [{ type: 'focus_app', app_name: 'Chromium' }]]],
    ],
    [
      'move the browser to the right monitor',
      oneChromeWindow,
      [
        ['Google Chrome', [{ type: 'place_app', app_name: 'Google Chrome', monitor: 'right' }]],
        ['Chromium', [{ type: 'place_app', app_name: 'Chromium', monitor: 'right' }]],
      ],
    ],
    // Bounds from the monitor each app's window is on: Chrome on LEFT, Chromium on RIGHT.
    [
      'maximize the browser',
      oneChromeWindow,
      [
        ['Google Chrome', [{ type: 'place_app', app_name: 'Google Chrome', bounds: [0, 32, 1920, 1080] }]],
        ['Chromium', [{ type: 'place_app', app_name: 'Chromium', bounds: [1920, 0, 4480, 1400] }]],
      ],
    ],
    [
      'put the editor on the left half',
      laptop,
      [
        ['Code', [{ type: 'place_app', app_name: 'Code', bounds: [0, 32, 960, 1080] }]],
        ['Cursor', [{ type: 'place_app', app_name: 'Cursor', bounds: [0, 32, 960, 1080] }]],
      ],
    ],
    // The other app of the same clause moves in every choice.
    [
      'move the browser and slack to the right monitor',
      oneChromeWindow,
      [
        ['Google Chrome', [{ type: 'place_app', app_name: 'Google Chrome', monitor: 'right' }, { type: 'place_app', app_name: 'Slack', monitor: 'right' }]],
        ['Chromium', [{ type: 'place_app', app_name: 'Chromium', monitor: 'right' }, { type: 'place_app', app_name: 'Slack', monitor: 'right' }]],
      ],
    ],
  ]);
});

describe('candidates: an app or a tab of the same name', () => {
  table([
    [
      'close slack',
      () => slackTab(1),
      [
        ['quit Slack', [{ type: 'close_app', app_name: 'Slack' }]],
        ['close tab 10 "general | Slack" (app.slack.com)', [{ type: 'close_tab', tab_indices: [10] }]],
      ],
    ],
    [
      'close slack',
      () => slackTab(2),
      [
        ['quit Slack', [{ type: 'close_app', app_name: 'Slack' }]],
        ['close the 2 slack tabs', [{ type: 'close_tab', tab_indices: [10, 11] }]],
      ],
    ],
    // A slip that is as close to an app as to a site.
    [
      'switch to spotfy',
      appSiteTabs,
      [
        ['app Spotify', [{ type: 'focus_app', app_name: 'Spotify' }]],
        ['tab 10 "Focus mix - Spotify" (open.spotify.com)', [{ type: 'switch_tab', tab_index: 10 }]],
      ],
    ],
  ]);
});

describe('candidates: ambiguous presets', () => {
  const twoWritings = () => laptop({ presets: ['writing', 'Writing Setup', 'meeting'] });
  table([
    [
      'code',
      noCodeApp,
      [['code space', [{ type: 'activate_preset', preset_name: 'code space' }]], ['Code Review', [{ type: 'activate_preset', preset_name: 'Code Review' }]]],
    ],
    [
      'writing layout',
      twoWritings,
      [['writing', [{ type: 'activate_preset', preset_name: 'writing' }]], ['Writing Setup', [{ type: 'activate_preset', preset_name: 'Writing Setup' }]]],
    ],
    [
      'activate writing mode',
      twoWritings,
      [['writing', [{ type: 'activate_preset', preset_name: 'writing' }]], ['Writing Setup', [{ type: 'activate_preset', preset_name: 'Writing Setup' }]]],
    ],
    // One preset a word could mean: one candidate, the "yes".
    ['review', laptop, [['Code Review', [{ type: 'activate_preset', preset_name: 'Code Review' }]]]],
  ]);
});

describe('candidates: which monitor', () => {
  table([
    // Slack is on HDMI-1: "the other monitor" is one of the two others.
    [
      'move slack to the other monitor',
      threeMonitors,
      [
        ['DP-1 (main)', [{ type: 'place_app', app_name: 'Slack', monitor: 'main' }]],
        ['DP-2 (right)', [{ type: 'place_app', app_name: 'Slack', monitor: 'right' }]],
      ],
    ],
    [
      'maximize slack on the other monitor',
      threeMonitors,
      [
        ['DP-1 (main)', [{ type: 'place_app', app_name: 'Slack', bounds: [1920, 32, 4480, 1440] }]],
        ['DP-2 (right)', [{ type: 'place_app', app_name: 'Slack', bounds: [4480, 0, 6400, 1080] }]],
      ],
    ],
    // "the second monitor" is any but the primary.
    [
      'slack on the second monitor',
      threeMonitors,
      [
        ['HDMI-1 (left)', [{ type: 'place_app', app_name: 'Slack', monitor: 'left' }]],
        ['DP-2 (right)', [{ type: 'place_app', app_name: 'Slack', monitor: 'right' }]],
      ],
    ],
  ]);
});

describe('candidates carry the rest of the sentence', () => {
  table([
    [
      'chrome left and switch to github',
      twoGithub,
      [
        [github2, [{ type: 'place_app', app_name: 'Google Chrome', bounds: [0, 32, 960, 1080] }, { type: 'switch_tab', tab_index: 2 }]],
        [github3, [{ type: 'place_app', app_name: 'Google Chrome', bounds: [0, 32, 960, 1080] }, { type: 'switch_tab', tab_index: 3 }]],
      ],
    ],
    [
      'chrome left and switch to youtube',
      oneChromeWindow,
      [
        [
          'tab 3 "Designing Data-Intensive Applications - YouTube" (youtube.com)',
          [{ type: 'place_app', app_name: 'Google Chrome', monitor: 'left' }, { type: 'switch_tab', tab_index: 3 }],
        ],
        ['tab 4 "Lofi beats - YouTube" (youtube.com)', [{ type: 'place_app', app_name: 'Google Chrome', monitor: 'left' }, { type: 'switch_tab', tab_index: 4 }]],
      ],
    ],
    [
      'open chatgpt and switch to reddit',
      laptop,
      [
        [reddit2, [{ type: 'open_url', url: 'chatgpt' }, { type: 'switch_tab', tab_index: 2 }]],
        [reddit3, [{ type: 'open_url', url: 'chatgpt' }, { type: 'switch_tab', tab_index: 3 }]],
      ],
    ],
    [
      'close the reddit tab and quit spotify',
      laptop,
      [
        [reddit2, [{ type: 'close_tab', tab_indices: [2] }, { type: 'close_app', app_name: 'Spotify' }]],
        [reddit3, [{ type: 'close_tab', tab_indices: [3] }, { type: 'close_app', app_name: 'Spotify' }]],
      ],
    ],
    [
      'close slack and switch to youtube',
      () => slackTab(1),
      [
        ['quit Slack', [{ type: 'close_app', app_name: 'Slack' }, { type: 'switch_tab', tab_index: 4 }]],
        ['close tab 10 "general | Slack" (app.slack.com)', [{ type: 'close_tab', tab_indices: [10] }, { type: 'switch_tab', tab_index: 4 }]],
      ],
    ],
    [
      'quit spotify and focus the editor',
      laptop,
      [
        ['Code', [{ type: 'close_app', app_name: 'Spotify' }, { type: 'focus_app', app_name: 'Code' }]],
        ['Cursor', [{ type: 'close_app', app_name: 'Spotify' }, { type: 'focus_app', app_name: 'Cursor' }]],
      ],
    ],
    [
      'writing mode and switch to github',
      twoGithub,
      [
        [github2, [{ type: 'activate_preset', preset_name: 'writing' }, { type: 'switch_tab', tab_index: 2 }]],
        [github3, [{ type: 'activate_preset', preset_name: 'writing' }, { type: 'switch_tab', tab_index: 3 }]],
      ],
    ],
  ]);
});

describe('no candidates', () => {
  it.each<[string, () => ContextSnapshot]>([
    // Nothing matched: the question lists what exists instead.
    ['switch to figma', laptop],
    ['go to the figma tab', laptop],
    ['quit photoshop', laptop],
    ['quit zoom', laptop],
    ['gaming mode', laptop],
    ['close tabs 2 and 12', laptop],
    ['close all figma tabs', laptop],
    // Not understood.
    ['blorp the zizzle', laptop],
    ['blorp and switch to reddit', laptop],
    ['close the tab', laptop],
    ['close everything', laptop],
    ['undo everything', laptop],
    ['put it on the right', twoMonitors],
    // Two questions in one sentence: no single choice runs it.
    ['switch to reddit and quit the editor', laptop],
    ['focus the editor and put it left', laptop],
    // Every choice would put two tabs in front.
    ['switch to reddit and youtube', laptop],
    // A backend is down: no choice could run.
    ['switch to reddit', () => chromeDown(laptop())],
    ['switch to the editor', () => windowsDown(laptop())],
    ['chrome left and switch to reddit', () => windowsDown(laptop())],
    ['center terminal 3000x2000', laptop],
    ['move slack to the other monitor', laptop],
  ])('%s', (text, snap) => {
    expect(planned(text, snap()).answer.candidates).toBeUndefined();
  });

  it('acting never carries candidates', () => {
    for (const text of ['switch to youtube', 'close all reddit tabs', 'code', 'chrome left']) {
      const answer = planLocally({ text, context: laptop(), turns: [] });
      expect((answer.envelope as Envelope).needs_clarification, text).toBe(false);
      expect(answer.candidates, text).toBeUndefined();
    }
  });

  it('"it" after a choice between apps is unclear, not the app of an older turn', () => {
    const turns = [turn('focus slack', [{ type: 'focus_app', app_name: 'Slack' }])];
    const { answer, reason } = planned('switch to the editor and maximize it', laptop(), turns);
    expect(reason).toMatch(/Which app: "Code" or "Cursor"\? Which app do you mean by "it"\?/);
    expect(answer.candidates).toBeUndefined();
    // A choice of tabs leaves "it" alone.
    expect(candidates('switch to github and maximize it', twoGithub(), turns).map((c) => (c.envelope as Envelope).commands)).toEqual([
      [{ type: 'switch_tab', tab_index: 2 }, { type: 'place_app', app_name: 'Slack', bounds: [0, 32, 1920, 1080] }],
      [{ type: 'switch_tab', tab_index: 3 }, { type: 'place_app', app_name: 'Slack', bounds: [0, 32, 1920, 1080] }],
    ]);
  });
});

describe('through planText', () => {
  it('keeps the local candidates, each a validated envelope resolved to its tab', async () => {
    const planners = { local: createLocalPlanner(), llm: null, llmMissingReason: 'no model configured' };
    const snap = twoGithub();
    const out = await planText('switch to github', 'local', snap, [], planners);
    expect(out.envelope.needs_clarification).toBe(true);
    expect(out.candidates.map(({ label, envelope }) => ({ label, envelope }))).toEqual([
      { label: github2, envelope: envelope([{ type: 'switch_tab', tab_index: 2 }]) },
      { label: github3, envelope: envelope([{ type: 'switch_tab', tab_index: 3 }]) },
    ]);
    // Resolved once, while checking: each choice already names its tab's stable id.
    expect(out.candidates.map((c) => c.resolved.map((r) => (r.type === 'switch_tab' ? r.tab.target_id : null)))).toEqual([
      [snap.tabs[1]!.target_id],
      [snap.tabs[2]!.target_id],
    ]);
  });
});

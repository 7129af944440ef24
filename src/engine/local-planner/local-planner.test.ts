import { describe, expect, it } from 'vitest';
import type { Command, Envelope } from '../../protocol/commands';
import type { ContextSnapshot } from '../../protocol/context';
import type { Turn } from '../../protocol/planning';
import { parseInput } from '../../protocol/validation';
import { resolveBatch } from '../resolve';
import { createLocalPlanner, planLocally } from './local-planner';
import { chromeDown, laptop, threeMonitors, turn, twoMonitors, windowsDown } from './test-fixtures';

// The offline planner, end to end: sentence in, envelope out. Every answer must be a valid
// envelope that resolves against its snapshot; every "act" has confidence 1 and every
// question confidence < 1.

function plan(text: string, snap: ContextSnapshot = laptop(), turns: Turn[] = []) {
  const answer = planLocally({ text, context: snap, turns });
  const env = answer.envelope as Envelope;
  const parsed = parseInput(env);
  if (!parsed.ok) throw new Error(`invalid envelope for "${text}": ${JSON.stringify(parsed.errors)}`);
  if (!env.needs_clarification) {
    const resolved = resolveBatch(env.commands, snap);
    if (!resolved.ok) throw new Error(`"${text}" does not resolve: ${JSON.stringify(resolved.errors)}`);
    expect(answer.confidence).toBe(1);
  } else {
    expect(answer.confidence).toBeLessThan(1);
    expect(env.commands).toEqual([]);
    expect(env.clarification_reason?.trim().length ?? 0).toBeGreaterThan(0);
  }
  return { env, confidence: answer.confidence };
}

const acts = (text: string, snap?: ContextSnapshot, turns?: Turn[]): Command[] => {
  const { env } = plan(text, snap, turns);
  if (env.needs_clarification) throw new Error(`"${text}" asked: ${env.clarification_reason}`);
  return env.commands;
};

const asks = (text: string, snap?: ContextSnapshot, turns?: Turn[]) => {
  const { env, confidence } = plan(text, snap, turns);
  if (!env.needs_clarification) throw new Error(`"${text}" acted: ${JSON.stringify(env.commands)}`);
  return { reason: env.clarification_reason!, confidence };
};

type Row = [text: string, commands: Command[]];
const table = (rows: Row[], snap?: () => ContextSnapshot) =>
  it.each(rows)('%s', (text, commands) => expect(acts(text, snap?.())).toEqual(commands));

describe('createLocalPlanner', () => {
  it('is the offline matcher', async () => {
    const p = createLocalPlanner();
    expect(p.kind).toBe('local');
    expect(p.describe()).toBe('offline matcher');
    const a = await p.plan({ text: 'switch to hacker news', context: laptop(), turns: [] });
    expect(a).toEqual({ envelope: { commands: [{ type: 'switch_tab', tab_index: 7 }], needs_clarification: false, clarification_reason: null }, confidence: 1 });
  });
});

describe('switching to a tab', () => {
  table([
    ['switch to youtube', [{ type: 'switch_tab', tab_index: 4 }]],
    ['Go to the YouTube tab.', [{ type: 'switch_tab', tab_index: 4 }]],
    ['youtube', [{ type: 'switch_tab', tab_index: 4 }]],
    ['yt', [{ type: 'switch_tab', tab_index: 4 }]],
    ['take me to youtube please', [{ type: 'switch_tab', tab_index: 4 }]],
    ['hey, can you show me gmail?', [{ type: 'switch_tab', tab_index: 1 }]],
    ['check my email', [{ type: 'switch_tab', tab_index: 1 }]],
    ['hn', [{ type: 'switch_tab', tab_index: 7 }]],
    ['hacker news', [{ type: 'switch_tab', tab_index: 7 }]],
    ['back to hacker news', [{ type: 'switch_tab', tab_index: 7 }]],
    ['switch to tab 3', [{ type: 'switch_tab', tab_index: 3 }]],
    ['go to the third tab', [{ type: 'switch_tab', tab_index: 3 }]],
    ['tab 8', [{ type: 'switch_tab', tab_index: 8 }]],
  ]);

  describe('by title words, with words for a kind of page', () => {
    table([
      ['the reddit thread about vitest', [{ type: 'switch_tab', tab_index: 2 }]],
      ['switch to the espresso post', [{ type: 'switch_tab', tab_index: 3 }]],
      ['the rust video', [{ type: 'switch_tab', tab_index: 4 }]],
      ['go to the deskpilot issues', [{ type: 'switch_tab', tab_index: 5 }]],
      ['show me the planning doc', [{ type: 'switch_tab', tab_index: 8 }]],
      ['the next.js repo', [{ type: 'switch_tab', tab_index: 6 }]],
      ['next.js docs', [{ type: 'switch_tab', tab_index: 9 }]],
    ]);
  });

  it('asks when several tabs match equally, naming them', () => {
    expect(asks('switch to reddit').reason).toBe(
      'Which tab: 2 "Moving from Jest to Vitest : r/typescript" (reddit.com) or 3 "Best budget grinder? : r/espresso" (reddit.com)?',
    );
    expect(asks('go to github').reason).toMatch(/5 "GitHub - deskpilot\/issues".*6 "GitHub - vercel\/next.js"/);
    // nextjs.org is the site called "next.js"; "GitHub - vercel/next.js" is named so too.
    expect(asks('go to next.js').reason).toMatch(/6 "GitHub - vercel\/next.js".*9 "Next.js by Vercel/);
    expect(asks('reddit').confidence).toBe(0.5);
  });

  it('asks when the tab asked for is not open, listing the open ones', () => {
    const { reason, confidence } = asks('go to the figma tab');
    expect(reason).toMatch(/^No tab matches "figma"\. Open tabs: 1 "Inbox \(4\)/);
    expect(confidence).toBeLessThan(0.5);
    expect(asks('switch to figma').reason).toMatch(/No tab matches "figma"/);
    expect(asks('go to tab 42').reason).toBe('There is no tab 42 (open tabs are 1–9).');
  });

  it('"go to X" with no tab of X opens it', () => {
    expect(acts('go to chatgpt')).toEqual([{ type: 'open_url', url: 'chatgpt' }]);
  });

  it('a bare word that matches nothing is not understood, not guessed', () => {
    const { reason, confidence } = asks('figma');
    expect(confidence).toBe(0);
    expect(reason).toMatch(/^I could not understand that offline\. Say it as e\.g\. "switch to gmail"/);
  });
});

describe('opening', () => {
  table([
    ['open chatgpt', [{ type: 'open_url', url: 'chatgpt' }]],
    ['open wikipedia', [{ type: 'open_url', url: 'wikipedia' }]],
    ['new tab hacker news', [{ type: 'open_url', url: 'hacker news' }]],
    ['open a new tab for github', [{ type: 'open_url', url: 'github' }]],
    ['open youtube in a new tab', [{ type: 'open_url', url: 'youtube' }]],
    ['open reddit in chrome', [{ type: 'open_url', url: 'reddit' }]],
    ['open github.com/Vercel/Turbo', [{ type: 'open_url', url: 'github.com/Vercel/Turbo' }]],
    ['open localhost:3000', [{ type: 'open_url', url: 'localhost:3000' }]],
    ['open a new tab', [{ type: 'open_url', url: 'about:blank' }]],
    // A tab of it is open already: go there rather than open a copy.
    ['open hacker news', [{ type: 'switch_tab', tab_index: 7 }]],
    ['open github.com/vercel/next.js', [{ type: 'switch_tab', tab_index: 6 }]],
    ['open the planning doc', [{ type: 'switch_tab', tab_index: 8 }]],
    // Apps: open / launch / start → focus_app (it launches when not running).
    ['open slack', [{ type: 'focus_app', app_name: 'Slack' }]],
    ['launch obsidian', [{ type: 'focus_app', app_name: 'Obsidian' }]],
    ['start zoom', [{ type: 'focus_app', app_name: 'Zoom' }]],
    ['open the calculator app', [{ type: 'focus_app', app_name: 'Calculator' }]],
    ['open spotfy', [{ type: 'focus_app', app_name: 'Spotify' }]],
  ]);

  it('never makes a site up from a common noun or a phrase', () => {
    expect(asks('open my bank').reason).toMatch(/Which site is "bank"\?/);
    expect(asks('open the weather in paris').reason).toMatch(/Which site/);
    expect(asks('launch photoshop').reason).toMatch(/No running or installed app matches "photoshop"/);
  });

  it('"open google" is google.com, not Google Chrome', () => {
    expect(acts('open google')).toEqual([{ type: 'open_url', url: 'google' }]);
  });
});

describe('apps', () => {
  table([
    ['switch to cursor', [{ type: 'focus_app', app_name: 'Cursor' }]],
    ['focus terminal', [{ type: 'focus_app', app_name: 'Terminal' }]],
    ['bring up chrome', [{ type: 'focus_app', app_name: 'Google Chrome' }]],
    ['spotify', [{ type: 'focus_app', app_name: 'Spotify' }]],
    ['code', [{ type: 'focus_app', app_name: 'Code' }]],
    ['vs code', [{ type: 'focus_app', app_name: 'Code' }]],
    ['switch to curser', [{ type: 'focus_app', app_name: 'Cursor' }]],
    ['quit spotify', [{ type: 'close_app', app_name: 'Spotify' }]],
    ['kill slack', [{ type: 'close_app', app_name: 'Slack' }]],
    ['close terminal', [{ type: 'close_app', app_name: 'Terminal' }]],
    ['exit the cursor app', [{ type: 'close_app', app_name: 'Cursor' }]],
  ]);

  it('asks between similar apps', () => {
    expect(asks('switch to the editor').reason).toBe('Which app: "Code" or "Cursor"?');
    expect(asks('switch to the browser', twoMonitors()).reason).toBe('Which app: "Google Chrome" or "Chromium"?');
  });

  it('"chrome" is Google Chrome even with Chromium running', () => {
    expect(acts('switch to chrome', twoMonitors())).toEqual([{ type: 'focus_app', app_name: 'Google Chrome' }]);
  });

  it('asks rather than quit an app that is not running or does not exist', () => {
    expect(asks('quit zoom').reason).toBe('Zoom is not running.');
    expect(asks('quit photoshop').reason).toMatch(/^No running app matches "photoshop"\. Running: Google Chrome, Slack/);
  });

  it('"close X" when both an app and a tab are X asks which', () => {
    const snap = laptop();
    snap.tabs.push({ ...snap.tabs[0]!, index: 10, url: 'https://app.slack.com/client/T1', domain: 'slack.com', title: 'general | Slack', target_id: 'S' });
    expect(asks('close slack', snap).reason).toBe('Close the app "Slack", or tab 10 "general | Slack"?');
    expect(acts('quit slack', snap)).toEqual([{ type: 'close_app', app_name: 'Slack' }]);
    expect(acts('close the slack tab', snap)).toEqual([{ type: 'close_tab', tab_indices: [10] }]);
  });
});

describe('closing tabs', () => {
  table([
    ['close all youtube tabs', [{ type: 'close_tab', tab_indices: [4] }]],
    ['close all reddit tabs', [{ type: 'close_tab', tab_indices: [2, 3] }]],
    ['close the reddit tabs', [{ type: 'close_tab', tab_indices: [2, 3] }]],
    ['close every github tab', [{ type: 'close_tab', tab_indices: [5, 6] }]],
    ['close both github tabs', [{ type: 'close_tab', tab_indices: [5, 6] }]],
    ['close youtube and hacker news tabs', [{ type: 'close_tab', tab_indices: [4, 7] }]],
    ['close the youtube tab', [{ type: 'close_tab', tab_indices: [4] }]],
    ['close youtube', [{ type: 'close_tab', tab_indices: [4] }]],
    ['close tab 3', [{ type: 'close_tab', tab_indices: [3] }]],
    ['close tabs 2 and 5', [{ type: 'close_tab', tab_indices: [2, 5] }]],
    ['close tabs 2, 4 and 6', [{ type: 'close_tab', tab_indices: [2, 4, 6] }]],
    ['close tabs 3-5', [{ type: 'close_tab', tab_indices: [3, 4, 5] }]],
    ['close tabs 6 through 8', [{ type: 'close_tab', tab_indices: [6, 7, 8] }]],
    ['close the first and second tabs', [{ type: 'close_tab', tab_indices: [1, 2] }]],
    ['close this tab', [{ type: 'close_tab', tab_indices: [7] }]],
    ['close the current tab', [{ type: 'close_tab', tab_indices: [7] }]],
    ['close everything except gmail', [{ type: 'close_tab', tab_indices: [2, 3, 4, 5, 6, 7, 8, 9] }]],
    ['close all tabs', [{ type: 'close_tab', tab_indices: [1, 2, 3, 4, 5, 6, 7, 8, 9] }]],
    ['close every tab with vitest in the title', [{ type: 'close_tab', tab_indices: [2] }]],
  ]);

  it('one tab asked for, several match → ask, saying how to mean all', () => {
    expect(asks('close the reddit tab').reason).toMatch(/^Which tab: 2 .* or 3 .*\? \(Or say "close all reddit tabs"\.\)$/);
  });

  it('asks for tab numbers that do not exist', () => {
    expect(asks('close tabs 2 and 12').reason).toBe('There is no tab 12 (open tabs are 1–9).');
  });

  it('asks rather than read "close everything" as tabs or apps', () => {
    expect(asks('close everything').reason).toMatch(/^Close all 9 tabs/);
  });

  it('"this tab" with several Chrome windows is the focused window\'s active tab', () => {
    expect(acts('close this tab', twoMonitors())).toEqual([{ type: 'close_tab', tab_indices: [1] }]);
  });

  it('"this tab" is unknown when Chrome does not have focus', () => {
    const snap = laptop();
    snap.running_apps[0]!.windows[0]!.focused = false;
    expect(asks('close this tab', snap).reason).toMatch(/Chrome is not the focused window/);
  });

  it('closes the tabs of one window', () => {
    expect(acts('close all tabs in the second window', twoMonitors())).toEqual([{ type: 'close_tab', tab_indices: [3, 4, 5] }]);
    expect(acts('close the youtube tabs in window 2', twoMonitors())).toEqual([{ type: 'close_tab', tab_indices: [3, 4] }]);
    expect(asks('close the tabs in the travel window', twoMonitors()).reason).toMatch(/^Which window: 1 or 2\?/);
  });
});

describe('lists and questions', () => {
  table([
    ['list tabs', [{ type: 'list_tabs' }]],
    ['show me my open tabs', [{ type: 'list_tabs' }]],
    ['what tabs do I have open', [{ type: 'list_tabs' }]],
    ['list apps', [{ type: 'list_apps' }]],
    ['show running apps', [{ type: 'list_apps' }]],
    ['which apps are running?', [{ type: 'list_apps' }]],
    ["what's running", [{ type: 'list_apps' }]],
    ['how many tabs do I have open?', [{ type: 'query', question: 'how many tabs do I have open?' }]],
    ['Which tabs are from GitHub?', [{ type: 'query', question: 'Which tabs are from GitHub?' }]],
    ["what's on my left monitor?", [{ type: 'query', question: "what's on my left monitor?" }]],
    ['is zoom still running?', [{ type: 'query', question: 'is zoom still running?' }]],
    ['is slack open', [{ type: 'query', question: 'is slack open' }]],
    ['show me how many tabs I have', [{ type: 'query', question: 'show me how many tabs I have' }]],
    ['  why is my fan so loud  ', [{ type: 'query', question: 'why is my fan so loud' }]],
  ]);
});

describe('presets', () => {
  table([
    ['code space', [{ type: 'activate_preset', preset_name: 'code space' }]],
    ['activate code space', [{ type: 'activate_preset', preset_name: 'code space' }]],
    ['switch to writing mode', [{ type: 'activate_preset', preset_name: 'writing' }]],
    ['meeting setup', [{ type: 'activate_preset', preset_name: 'meeting' }]],
    ['apply the code review preset', [{ type: 'activate_preset', preset_name: 'Code Review' }]],
    ['writting mode', [{ type: 'activate_preset', preset_name: 'writing' }]],
    ["let's do some writing", [{ type: 'activate_preset', preset_name: 'writing' }]],
  ]);

  it('asks between presets a word could mean, and about presets that do not exist', () => {
    expect(asks('review').reason).toBe('Did you mean the preset "Code Review"?');
    expect(asks('gaming mode').reason).toBe('No preset matches "gaming". Presets: "code space", "writing", "meeting" and "Code Review".');
  });
});

describe('undo', () => {
  table([
    ['undo', [{ type: 'undo' }]],
    ['undo that', [{ type: 'undo' }]],
    ['put it back', [{ type: 'undo' }]],
    ['put everything back where it was', [{ type: 'undo' }]],
    ['undo the last 2 changes', [{ type: 'undo', steps: 2 }]],
    ['undo the last three moves', [{ type: 'undo', steps: 3 }]],
    ['undo twice', [{ type: 'undo', steps: 2 }]],
  ]);

  it('asks how far "undo everything" goes', () => {
    expect(asks('undo everything').reason).toMatch(/How many changes/);
  });
});

describe('placing windows', () => {
  describe('on one monitor (work area [0, 32, 1920, 1080])', () => {
    table([
      ['maximize terminal', [{ type: 'place_app', app_name: 'Terminal', bounds: [0, 32, 1920, 1080] }]],
      ['maximise the terminal', [{ type: 'place_app', app_name: 'Terminal', bounds: [0, 32, 1920, 1080] }]],
      ['make spotify full screen', [{ type: 'set_app_state', app_name: 'Spotify', state: 'fullscreen' }]],
      ['slack fullscreen', [{ type: 'set_app_state', app_name: 'Slack', state: 'fullscreen' }]],
      ['put slack on the left half', [{ type: 'place_app', app_name: 'Slack', bounds: [0, 32, 960, 1080] }]],
      ['terminal right half', [{ type: 'place_app', app_name: 'Terminal', bounds: [960, 32, 1920, 1080] }]],
      ['chrome on the top half', [{ type: 'place_app', app_name: 'Google Chrome', bounds: [0, 32, 1920, 556] }]],
      ['spotify bottom half', [{ type: 'place_app', app_name: 'Spotify', bounds: [0, 556, 1920, 1080] }]],
      // On a single monitor, left/right can only mean its halves.
      ['put slack on the left', [{ type: 'place_app', app_name: 'Slack', bounds: [0, 32, 960, 1080] }]],
      ['chrome right', [{ type: 'place_app', app_name: 'Google Chrome', bounds: [960, 32, 1920, 1080] }]],
      ['center terminal 1200x800', [{ type: 'place_app', app_name: 'Terminal', bounds: [360, 156, 1560, 956] }]],
      ['centre spotify at 1600 x 900', [{ type: 'place_app', app_name: 'Spotify', bounds: [160, 106, 1760, 1006] }]],
      ['resize slack to 1000x700', [{ type: 'place_app', app_name: 'Slack', bounds: [460, 206, 1460, 906] }]],
      ['terminal 800x600', [{ type: 'place_app', app_name: 'Terminal', bounds: [560, 256, 1360, 856] }]],
      // Centred at its current size (900x600).
      ['center terminal', [{ type: 'place_app', app_name: 'Terminal', bounds: [510, 256, 1410, 856] }]],
    ]);

    it('asks when the size does not fit', () => {
      expect(asks('center terminal 3000x2000').reason).toBe('3000x2000 does not fit on eDP-1 (its usable area is 1920x1048). What size?');
    });

    it('"the other monitor" with one monitor asks', () => {
      expect(asks('move slack to the other monitor').reason).toMatch(/only one monitor/);
    });
  });

  describe('on two monitors', () => {
    const two = () => twoMonitors();
    table(
      [
        // Chrome has two windows here: "chrome left" asks which (window-refs.test.ts); Chromium has one.
        ['chromium left', [{ type: 'place_app', app_name: 'Chromium', monitor: 'left' }]],
        ['move cursor to the left monitor', [{ type: 'place_app', app_name: 'Cursor', monitor: 'left' }]],
        ['slack on the right screen', [{ type: 'place_app', app_name: 'Slack', monitor: 'right' }]],
        ['put terminal on the main display', [{ type: 'place_app', app_name: 'Terminal', monitor: 'main' }]],
        ['move slack to the other monitor', [{ type: 'place_app', app_name: 'Slack', monitor: 'right' }]],
        ['send terminal to the other screen', [{ type: 'place_app', app_name: 'Terminal', monitor: 'left' }]],
        ['move chromium to the big monitor', [{ type: 'place_app', app_name: 'Chromium', monitor: 'right' }]],
        // Bounds come from the monitor the window is on: Cursor is on RIGHT.
        ['put cursor on the right half', [{ type: 'place_app', app_name: 'Cursor', bounds: [3200, 0, 4480, 1400] }]],
        ['maximize slack', [{ type: 'place_app', app_name: 'Slack', bounds: [0, 32, 1920, 1080] }]],
        ['maximize terminal', [{ type: 'place_app', app_name: 'Terminal', bounds: [1920, 0, 4480, 1400] }]],
        ['center terminal 1200x800', [{ type: 'place_app', app_name: 'Terminal', bounds: [2600, 300, 3800, 1100] }]],
        // … or from the monitor named.
        ['cursor on the right half of the left monitor', [{ type: 'place_app', app_name: 'Cursor', bounds: [960, 32, 1920, 1080] }]],
        ['maximize slack on the right monitor', [{ type: 'place_app', app_name: 'Slack', bounds: [1920, 0, 4480, 1400] }]],
        ['center slack on the big monitor at 1600x1000', [{ type: 'place_app', app_name: 'Slack', bounds: [2400, 200, 4000, 1200] }]],
      ],
      two,
    );
  });

  describe('on three monitors', () => {
    const three = () => threeMonitors();
    table(
      [
        ['move slack to the middle monitor', [{ type: 'place_app', app_name: 'Slack', monitor: 'main' }]],
        ['slack middle', [{ type: 'place_app', app_name: 'Slack', monitor: 'main' }]],
        ['terminal on the right half of the middle screen', [{ type: 'place_app', app_name: 'Terminal', bounds: [3200, 32, 4480, 1440] }]],
      ],
      three,
    );

    it('asks which monitor "the other one" is', () => {
      expect(asks('move slack to the other monitor', threeMonitors()).reason).toBe('Which monitor: HDMI-1 (left), DP-1 (main), DP-2 (right)?');
    });
  });

  it('asks about apps that are not running or have no window', () => {
    expect(asks('move zoom to the left').reason).toBe('Zoom is not running.');
    expect(asks('move photoshop to the left half').reason).toMatch(/^No running app matches "photoshop"/);
  });
});

describe('several clauses in one sentence', () => {
  table([
    ['open chatgpt and close all youtube tabs', [{ type: 'open_url', url: 'chatgpt' }, { type: 'close_tab', tab_indices: [4] }]],
    ['slack left half, terminal right half', [{ type: 'place_app', app_name: 'Slack', bounds: [0, 32, 960, 1080] }, { type: 'place_app', app_name: 'Terminal', bounds: [960, 32, 1920, 1080] }]],
    ['go to gmail then quit spotify', [{ type: 'switch_tab', tab_index: 1 }, { type: 'close_app', app_name: 'Spotify' }]],
    ['quit spotify and slack', [{ type: 'close_app', app_name: 'Spotify' }, { type: 'close_app', app_name: 'Slack' }]],
    ['open obsidian and zoom', [{ type: 'focus_app', app_name: 'Obsidian' }, { type: 'focus_app', app_name: 'Zoom' }]],
    ['close gmail and youtube', [{ type: 'close_tab', tab_indices: [1] }, { type: 'close_tab', tab_indices: [4] }]],
    ['writing mode; then quit spotify', [{ type: 'activate_preset', preset_name: 'writing' }, { type: 'close_app', app_name: 'Spotify' }]],
    // "hacker news" holds no separator to split on, and "tabs 2, 4 and 6" is one list.
    ['close tabs 2, 4 and 6 and open hacker news in a new tab', [{ type: 'close_tab', tab_indices: [2, 4, 6] }, { type: 'open_url', url: 'hacker news' }]],
  ]);

  it('two monitors', () => {
    // Chromium, not Chrome: Chrome has two windows on this desk, and which one is asked (window-refs.test.ts).
    expect(acts('chromium left and cursor right', twoMonitors())).toEqual([
      { type: 'place_app', app_name: 'Chromium', monitor: 'left' },
      { type: 'place_app', app_name: 'Cursor', monitor: 'right' },
    ]);
    expect(acts('move chromium and slack to the right monitor', twoMonitors())).toEqual([
      { type: 'place_app', app_name: 'Chromium', monitor: 'right' },
      { type: 'place_app', app_name: 'Slack', monitor: 'right' },
    ]);
  });

  it('"move X to the left monitor and maximise it" maximises it there, in one command', () => {
    expect(acts('move terminal to the left monitor and maximize it', twoMonitors())).toEqual([
      { type: 'place_app', app_name: 'Terminal', bounds: [0, 32, 1920, 1080] },
    ]);
  });

  it('asks when any part is ambiguous, and never acts on part of a sentence', () => {
    expect(asks('open chatgpt and switch to reddit').reason).toMatch(/^Which tab: 2/);
    expect(asks('quit spotify and blorp the zizzle').reason).toMatch(/No running app matches "blorp the zizzle"/);
    expect(asks('open chatgpt and blorp the zizzle').reason).toBe('Which site is "blorp the zizzle"? Say its address, e.g. "open example.com".');
  });

  it('two tabs cannot both be in front', () => {
    expect(asks('youtube and hacker news').reason).toBe('Switch to which tab: 4 "Rust in 100 Seconds - YouTube" or 7 "Hacker News"?');
  });
});

describe('follow-ups', () => {
  const focusedSlack = [turn('focus slack', [{ type: 'focus_app', app_name: 'Slack' }])];
  const movedCursor = [turn('cursor right', [{ type: 'place_app', app_name: 'Cursor', monitor: 'right' }])];

  it('"it" is the app of the previous turn', () => {
    expect(acts('now put it on the right', twoMonitors(), focusedSlack)).toEqual([{ type: 'place_app', app_name: 'Slack', monitor: 'right' }]);
    expect(acts('move it to the left monitor', twoMonitors(), movedCursor)).toEqual([{ type: 'place_app', app_name: 'Cursor', monitor: 'left' }]);
    expect(acts('maximise it', twoMonitors(), movedCursor)).toEqual([{ type: 'place_app', app_name: 'Cursor', bounds: [1920, 0, 4480, 1400] }]);
    expect(acts('and now the left half', twoMonitors(), focusedSlack)).toEqual([{ type: 'place_app', app_name: 'Slack', bounds: [0, 32, 960, 1080] }]);
    expect(acts('close it', twoMonitors(), focusedSlack)).toEqual([{ type: 'close_app', app_name: 'Slack' }]);
  });

  it('"it" within one sentence is the app of the clause before', () => {
    expect(acts('focus slack and put it on the right', twoMonitors())).toEqual([
      { type: 'focus_app', app_name: 'Slack' },
      { type: 'place_app', app_name: 'Slack', monitor: 'right' },
    ]);
  });

  it('asks when "it" is unclear', () => {
    const two = [turn('chrome left and cursor right', [{ type: 'place_app', app_name: 'Google Chrome', monitor: 'left' }, { type: 'place_app', app_name: 'Cursor', monitor: 'right' }])];
    const asked = [turn('switch to reddit', [], true)];
    for (const turns of [[], two, asked]) {
      const { reason, confidence } = asks('put it on the right', twoMonitors(), turns);
      expect(reason).toMatch(/Which app do you mean by "it"\?/);
      expect(confidence).toBe(0.3);
    }
    expect(asks('the left half', twoMonitors()).reason).toMatch(/Which app should go there\?/);
  });

  it('only the most recent turn counts', () => {
    const turns = [...focusedSlack, turn('list tabs', [{ type: 'list_tabs' }])];
    expect(asks('put it on the right', twoMonitors(), turns).reason).toMatch(/"it"/);
  });
});

describe('sources that are down', () => {
  it('asks, quoting why, for anything that needs Chrome', () => {
    const snap = chromeDown(laptop());
    for (const text of ['switch to reddit', 'reddit', 'close all youtube tabs', 'open chatgpt', 'list tabs', 'close this tab', 'go to gmail', 'new tab hacker news', 'close tab 2']) {
      const { reason, confidence } = asks(text, snap);
      expect(reason, text).toBe("Chrome isn't connected: Chrome is not reachable: run `deskpilot chrome launch`.");
      expect(confidence).toBe(0.5);
    }
  });

  it('still does app commands without Chrome', () => {
    const snap = chromeDown(laptop());
    expect(acts('open slack', snap)).toEqual([{ type: 'focus_app', app_name: 'Slack' }]);
    expect(acts('quit spotify', snap)).toEqual([{ type: 'close_app', app_name: 'Spotify' }]);
    expect(acts('terminal left half', snap)).toEqual([{ type: 'place_app', app_name: 'Terminal', bounds: [0, 32, 960, 1080] }]);
  });

  it('asks, quoting why, for window commands without a window backend', () => {
    const snap = windowsDown(laptop());
    for (const text of ['open slack', 'list apps', 'undo', 'code space']) {
      expect(asks(text, snap).reason, text).toBe("Windows can't be controlled: no window backend on this platform yet");
    }
    expect(acts('switch to youtube', snap)).toEqual([{ type: 'switch_tab', tab_index: 4 }]);
  });
});

describe('never guesses', () => {
  it.each([
    'asdfgh jkl',
    'switch to',
    'do it again',
    'hello',
    'blorp the zizzle',
    'open',
    'close',
    '',
    '   ',
    '?!',
  ])('%j is not understood', (text) => {
    const { confidence } = asks(text);
    expect(confidence).toBe(0);
  });

  it('"make it bigger" with nothing said before is understood, and asks which app "it" is', () => {
    const { reason, confidence } = asks('make it bigger');
    expect(reason).toMatch(/^Which app do you mean by "it"\?/);
    expect(confidence).toBeLessThan(0.5);
  });

  it('words that are not names stay not understood, whatever tab titles hold', () => {
    const snap = laptop();
    snap.tabs.push({ ...snap.tabs[0]!, index: 10, url: 'https://example.com/help', domain: 'example.com', title: 'Help - Cancel subscription', target_id: 'H' });
    for (const text of ['help', 'cancel', 'thanks', 'yes']) expect(asks(text, snap).confidence, text).toBe(0);
  });

  it('never turns something of the user\'s into a made-up site', () => {
    expect(asks('go to my bank').reason).toMatch(/^No tab matches "bank"/);
    expect(asks('open my bank').reason).toMatch(/^Which site is "bank"/);
    expect(acts('open my gmail')).toEqual([{ type: 'switch_tab', tab_index: 1 }]);
  });

  it('asks which tab "the tab" is', () => {
    expect(asks('close the tab').reason).toMatch(/^Which tab do you mean\?/);
  });

  it('a question wrapped in a request is still a question', () => {
    expect(acts('show me how many tabs I have')).toEqual([{ type: 'query', question: 'show me how many tabs I have' }]);
  });

  it('handles hostile input without throwing', () => {
    for (const text of ['a'.repeat(10_000), 'what '.repeat(1000), 'and '.repeat(200), ', , , ;;;', 'constructor', '__proto__', 'close tabs 1-9999', 'hasOwnProperty']) {
      expect(() => plan(text)).not.toThrow();
    }
  });

  it('is deterministic', () => {
    const a = planLocally({ text: 'chrome left and cursor right', context: twoMonitors(), turns: [] });
    const b = planLocally({ text: 'chrome left and cursor right', context: twoMonitors(), turns: [] });
    expect(a).toEqual(b);
  });
});

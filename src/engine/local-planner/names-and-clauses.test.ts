import { describe, expect, it } from 'vitest';
import type { Envelope } from '../../protocol/commands';
import type { ContextSnapshot } from '../../protocol/context';
import { planLocally } from './local-planner';
import { app, laptop, tab, turn } from './test-fixtures';

// Issue 26, "the offline matcher never guesses": a command after a name is a clause of its
// own, a colour is a colour, "full screen" is the full-screen mode, and a name that fits
// things of two kinds (a tab and an app, a tab and a recent file, a saved set) is asked about.

const desk = (over: Partial<ContextSnapshot> = {}): ContextSnapshot =>
  laptop({
    tabs: [
      ...laptop().tabs,
      tab(10, 'https://www.bbcgoodfood.com/recipes/lentil-soup', 'Lentil soup recipe | BBC Good Food'),
      tab(11, 'https://www.bbcgoodfood.com/recipes/veg-curry', 'Veg curry recipe | BBC Good Food'),
      tab(12, 'https://open.spotify.com/playlist/1', 'Study mix – playlist | Spotify'),
      tab(13, 'https://docs.google.com/document/d/2/edit', 'Thesis draft - Google Docs'),
      tab(14, 'https://acme.atlassian.net/browse/OPS-4412', '[OPS-4412] Checkout 502s - Jira'),
      tab(15, 'https://docs.cursor.com/kbd', 'Keyboard Shortcuts | Cursor Docs'),
    ],
    recent_files: [{ path: '/home/me/thesis/thesis-draft-v7.docx', app: null, used_at: null }],
    recent_projects: [],
    tab_collections: ['incident 4412', 'weekend'],
    sources: { ...laptop().sources, companion: { ok: true, message: 'ok' } },
    ...over,
  });

function plan(text: string, snap = desk(), turns = [] as ReturnType<typeof turn>[]) {
  const answer = planLocally({ text, context: snap, turns });
  return { env: answer.envelope as Envelope, candidates: answer.candidates ?? [] };
}
const commands = (text: string, snap?: ContextSnapshot) => {
  const { env } = plan(text, snap);
  if (env.needs_clarification) throw new Error(`asked: ${env.clarification_reason}`);
  return env.commands;
};

describe('a command after a name is a clause of its own', () => {
  it('"… as dinner and close them" saves the set "dinner" and closes those tabs', () => {
    expect(commands('save the bbc good food tabs as dinner and close them')).toEqual([
      { type: 'save_tabs', name: 'dinner', tab_indices: [10, 11], close: true },
    ]);
    expect(commands('save the bbc good food tabs as dinner then close them')).toEqual([
      { type: 'save_tabs', name: 'dinner', tab_indices: [10, 11], close: true },
    ]);
  });

  it('"… as reading then open slack": the set is "reading", and Slack comes up after', () => {
    expect(commands('save the github tabs as reading then open slack')).toEqual([
      { type: 'save_tabs', name: 'reading', tab_indices: [5, 6] },
      { type: 'focus_app', app_name: 'Slack' },
    ]);
  });
});

describe('a colour is a colour, never part of a group\'s title', () => {
  it.each([
    ['group the github tabs as reading (purple)', 'reading', 'purple'],
    ['group the github tabs as dinner ideas green', 'dinner ideas', 'green'],
    ['group the github tabs as work in blue', 'work', 'blue'],
  ])('%s', (text, title, color) => {
    expect(commands(text)).toEqual([{ type: 'group_tabs', tab_indices: [5, 6], title, color }]);
  });

  it('a title that is only a colour stays the title', () => {
    expect(commands('group the github tabs as red')).toEqual([{ type: 'group_tabs', tab_indices: [5, 6], title: 'red' }]);
  });
});

describe('full screen is the full-screen mode', () => {
  it.each(['make slack full screen', 'fullscreen slack', 'slack fullscreen', 'full screen slack'])('%s', (text) => {
    expect(commands(text)).toEqual([{ type: 'set_app_state', app_name: 'Slack', state: 'fullscreen' }]);
  });

  it('"exit full screen" after putting an app in full screen leaves it', () => {
    const before = turn('make slack full screen', [{ type: 'set_app_state', app_name: 'Slack', state: 'fullscreen' }]);
    expect(plan('exit full screen', desk(), [before]).env.commands).toEqual([{ type: 'set_app_state', app_name: 'Slack', state: 'normal' }]);
    expect(commands('slack out of full screen mode')).toEqual([{ type: 'set_app_state', app_name: 'Slack', state: 'normal' }]);
  });
});

describe('a name that fits things of two kinds is asked about, each offered', () => {
  it('an app and the tab that is that app\'s site: "spotify"', () => {
    const { env, candidates } = plan('spotify');
    expect(env.needs_clarification).toBe(true);
    expect(env.clarification_reason).toMatch(/the app "Spotify" or tab 12/);
    expect(candidates.map((c) => (c.envelope as Envelope).commands)).toEqual([
      [{ type: 'focus_app', app_name: 'Spotify' }],
      [{ type: 'switch_tab', tab_index: 12 }],
    ]);
  });

  it('a tab and a recent file: "go to my thesis draft"', () => {
    const { env, candidates } = plan('go to my thesis draft');
    expect(env.clarification_reason).toMatch(/tab 13 .* or the recent "thesis-draft-v7.docx"/);
    expect(candidates.map((c) => (c.envelope as Envelope).commands[0]!.type)).toEqual(['switch_tab', 'open_recent']);
  });

  it('a tab and a saved set by a word of its name: "open 4412"', () => {
    expect(plan('open 4412').env.clarification_reason).toMatch(/tab 14 .* or saved set "incident 4412"/);
  });

  it('a word for the kind settles it', () => {
    expect(commands('open the spotify app')).toEqual([{ type: 'focus_app', app_name: 'Spotify' }]);
    expect(commands('switch to the spotify tab')).toEqual([{ type: 'switch_tab', tab_index: 12 }]);
    expect(commands('open the thesis draft file')).toEqual([{ type: 'open_recent', path: '/home/me/thesis/thesis-draft-v7.docx' }]);
  });

  it('switching is between open things: a recent file is no reading of "switch to"', () => {
    expect(commands('switch to the thesis draft')).toEqual([{ type: 'switch_tab', tab_index: 13 }]);
  });

  it('a page about a running app is not another reading of its name: "switch to cursor"', () => {
    expect(commands('switch to cursor')).toEqual([{ type: 'focus_app', app_name: 'Cursor' }]);
  });

  it('a tab is another reading of an app that is installed but not running', () => {
    const snap = desk({ installed_apps: [...desk().installed_apps, { name: 'Steam' }], tabs: [...desk().tabs, tab(16, 'https://store.steampowered.com/', 'Autumn Sale - Steam Store')] });
    expect(plan('open steam', snap).env.clarification_reason).toMatch(/the app "Steam" or tab 16/);
    // Running, Slack's own tab is no page about it here, so nothing else fits.
    expect(commands('open slack', { ...snap, running_apps: [...snap.running_apps, app('Steam', [0, 32, 900, 900], 'eDP-1')] })).toEqual([
      { type: 'focus_app', app_name: 'Slack' },
    ]);
  });
});

describe('one owner, several services', () => {
  const owned = desk({
    tabs: [
      tab(1, 'https://learn.microsoft.com/en-us/azure/aks/', 'Azure Kubernetes Service (AKS) documentation | Microsoft Learn'),
      tab(2, 'https://portal.azure.com/#home', 'Home - Microsoft Azure'),
      tab(3, 'https://portal.azure.com/#blade', 'aks-prod - Microsoft Azure'),
      tab(4, 'https://www.bbcgoodfood.com/recipes/soup', 'Lentil soup | BBC Good Food'),
      tab(5, 'https://www.budgetbytes.com/fried-rice/', 'Easy Fried Rice - Budget Bytes'),
      tab(6, 'https://github.com/vercel/next.js', 'GitHub - vercel/next.js: The React Framework'),
      tab(7, 'https://nextjs.org/', 'Next.js by Vercel - The React Framework'),
    ],
  });

  it('"close the microsoft tabs" asks: Microsoft Learn, the Azure portal, or all', () => {
    const { env, candidates } = plan('close the microsoft tabs', owned);
    expect(env.clarification_reason).toMatch(/tab 1 \(Microsoft Learn\) and tabs 2 and 3 \(Microsoft Azure\)/);
    expect(candidates.map((c) => (c.envelope as Envelope).commands)).toEqual([
      [{ type: 'close_tab', tab_indices: [1] }],
      [{ type: 'close_tab', tab_indices: [2, 3] }],
      [{ type: 'close_tab', tab_indices: [1, 2, 3] }],
    ]);
  });

  it('"close the azure tabs": the portal, or also the Azure docs on Microsoft Learn?', () => {
    expect(plan('close the azure tabs', owned).env.clarification_reason).toMatch(/tab 1 \(Azure Kubernetes Service\) and tabs 2 and 3 \(portal\.azure\.com\)/);
  });

  it('a name that is one product on two sites is not an owner\'s: "close the next.js tabs" closes both', () => {
    expect(commands('close the next.js tabs', owned)).toEqual([{ type: 'close_tab', tab_indices: [6, 7] }]);
  });

  it('recipes are recipes on any recipe site, the word said or not', () => {
    expect(commands('close the recipe tabs', owned)).toEqual([{ type: 'close_tab', tab_indices: [4, 5] }]);
  });
});

describe('smaller pieces', () => {
  it('"open <saved set> in a new window" reopens the set there', () => {
    expect(commands('open weekend in a new window')).toEqual([{ type: 'restore_tabs', name: 'weekend', new_window: true }]);
  });

  it('"the editor" with two editors running asks, even when only one entry says "editor"', () => {
    const installed = [
      { name: 'Cursor', generic_name: 'Text Editor', keywords: ['cursor', 'ai', 'editor'] },
      { name: 'Code', generic_name: 'Text Editor', keywords: ['vscode'] },
    ];
    expect(plan('open the editor', desk({ installed_apps: installed })).env.clarification_reason).toMatch(/"Code" or "Cursor"|"Cursor" or "Code"/);
  });

  it('a site\'s own name opens its home even when a tab is on a part of it', () => {
    const snap = desk({ tabs: [tab(1, 'https://en.wikipedia.org/wiki/Lisbon', 'Lisbon - Wikipedia')] });
    const [c] = commands('open wikipedia in a new tab', snap);
    expect(c).toMatchObject({ type: 'open_url' });
    expect((c as { url: string }).url).not.toMatch(/en\.wikipedia/);
  });
});

describe('which tabs: a site said whole, these tabs, the other window, all but some', () => {
  const twoWindows = desk({
    tabs: [
      ...laptop().tabs,
      tab(10, 'https://www.twitch.tv/gamesdonequick', 'GamesDoneQuick - Twitch', { window: 2, active: true }),
      tab(11, 'https://www.twitch.tv/shroud', 'shroud - Twitch', { window: 2 }),
      tab(12, 'https://www.twitch.tv/speedrun', 'Speedrun marathon - Twitch', { window: 2 }),
      tab(13, 'https://www.canva.com/design/1', 'Instagram story templates - Canva', { window: 2 }),
      tab(14, 'https://www.instagram.com/', 'Instagram', { window: 2 }),
      tab(15, 'https://canvas.ubc.ca/courses/1', 'HIST 204 - Canvas', { window: 2 }),
    ],
  });

  it('"close reddit": a site said whole is every tab of it', () => {
    expect(commands('close reddit', twoWindows)).toEqual([{ type: 'close_tab', tab_indices: [2, 3] }]);
  });

  it('"close instagram" is instagram.com, not a Canva page titled "Instagram …"', () => {
    expect(commands('close instagram', twoWindows)).toEqual([{ type: 'close_tab', tab_indices: [14] }]);
  });

  it('"these tabs" are the current window\'s; "the other window" is the one not in front', () => {
    expect(commands('save these tabs as morning', twoWindows)).toEqual([{ type: 'save_tabs', name: 'morning', tab_indices: [1, 2, 3, 4, 5, 6, 7, 8, 9] }]);
    expect(commands('close all tabs of the other window', twoWindows)).toEqual([{ type: 'close_tab', tab_indices: [10, 11, 12, 13, 14, 15] }]);
    expect(commands('close the tabs in the other window', twoWindows)).toEqual([{ type: 'close_tab', tab_indices: [10, 11, 12, 13, 14, 15] }]);
  });

  it.each([
    ['close twitch except shroud', [10, 12]],
    ['close the twitch tabs apart from the speedrun one', [10, 11]],
    ['close all twitch tabs but shroud and speedrun', [10]],
    ['close every tab in the other window except instagram and canvas', [10, 11, 12, 13]],
  ])('exclusions: %s', (text, closed) => {
    expect(commands(text, twoWindows)).toEqual([{ type: 'close_tab', tab_indices: closed }]);
  });

  it('a kept name that is none of the set is asked about, and nothing closes', () => {
    expect(plan('close twitch except youtube', twoWindows).env.clarification_reason).toMatch(/^None of those tabs is "youtube"/);
  });

  it('a word said exactly beats one that only shares its stem: "canvas" is Canvas, not Canva', () => {
    expect(commands('switch to canvas', twoWindows)).toEqual([{ type: 'switch_tab', tab_index: 15 }]);
  });
});

describe('saved sets, recent files and run-on placements', () => {
  it('a saved set by a word of its name, when only one set holds it; "open <set>" when nothing else is so named', () => {
    const snap = desk({ tab_collections: ['onboarding research', 'club stuff', 'conference travel'] });
    expect(commands('restore onboarding', snap)).toEqual([{ type: 'restore_tabs', name: 'onboarding research' }]);
    expect(commands('open conference travel', snap)).toEqual([{ type: 'restore_tabs', name: 'conference travel' }]);
    expect(plan('restore research', desk({ tab_collections: ['onboarding research', 'lit research'] })).env.needs_clarification).toBe(true);
  });

  it('a recent file by its words alone when nothing else answers to them; "in <app>" by the first word of its name', () => {
    const snap = desk({
      installed_apps: [...desk().installed_apps, { name: 'LibreOffice Writer' }],
      recent_files: [
        { path: '/home/me/notes/postmortem-ops-4412.md', app: null, used_at: null },
        { path: '/home/me/thesis/thesis-draft-v7.docx', app: null, used_at: null },
        { path: '/home/me/Downloads/aks-cost-report-oct.xlsx', app: null, used_at: null },
      ],
    });
    expect(commands('open the postmortem', snap)).toEqual([{ type: 'open_recent', path: '/home/me/notes/postmortem-ops-4412.md' }]);
    expect(commands('reopen the cost report from october', snap)).toEqual([{ type: 'open_recent', path: '/home/me/Downloads/aks-cost-report-oct.xlsx' }]);
    expect(commands('open my thesis draft in libreoffice', snap)).toEqual([
      { type: 'open_recent', path: '/home/me/thesis/thesis-draft-v7.docx', app_name: 'LibreOffice Writer' },
    ]);
    // An app of that name is no recent file: "open slack" stays Slack.
    expect(commands('open slack', { ...snap, recent_files: [{ path: '/home/me/slack-export.zip', app: null, used_at: null }] })).toEqual([
      { type: 'focus_app', app_name: 'Slack' },
    ]);
  });

  it('placements run on without "and": "slack left half terminal right half"', () => {
    expect(commands('slack left half terminal right half')).toEqual([
      { type: 'place_app', app_name: 'Slack', bounds: [0, 32, 960, 1080] },
      { type: 'place_app', app_name: 'Terminal', bounds: [960, 32, 1920, 1080] },
    ]);
    // Words that are not two placements stay not understood.
    expect(plan('slack left half blorp right half').env.needs_clarification).toBe(true);
  });
});

describe('monitor words, preset words, sizes', () => {
  const portraitDesk = (): ContextSnapshot => ({
    ...desk(),
    monitors: [
      { id: 'L', name: 'eDP-1', roles: ['main', 'left'], bounds: [0, 0, 1920, 1080], work_area: [0, 32, 1920, 1080], primary: true, scale: 1 },
      { id: 'P', name: 'DP-2', roles: ['right'], bounds: [1920, 0, 3000, 1920], work_area: [1920, 0, 3000, 1920], primary: false, scale: 1 },
    ],
  });

  it('"the portrait monitor", "the vertical screen" is the one taller than wide', () => {
    expect(commands('put slack on the vertical monitor', portraitDesk())).toEqual([{ type: 'place_app', app_name: 'Slack', monitor: 'right' }]);
    expect(commands('slack to the portrait screen', portraitDesk())).toEqual([{ type: 'place_app', app_name: 'Slack', monitor: 'right' }]);
    expect(plan('put slack on the vertical monitor').env.clarification_reason).toMatch(/No monitor is in portrait/);
  });

  it('"review mode": "mode" says a preset, and only "Code Review" holds the word', () => {
    expect(commands('switch to review mode')).toEqual([{ type: 'activate_preset', preset_name: 'Code Review' }]);
    expect(plan('switch to code mode').env.needs_clarification).toBe(true);
  });

  it('"shrink slack to 800x600 centered" is that size, centred; "blow up slack to full screen" fills the screen', () => {
    expect(commands('shrink slack to 800x600 centered')).toEqual([{ type: 'place_app', app_name: 'Slack', bounds: [560, 256, 1360, 856] }]);
    expect(commands('blow up slack to full screen')).toEqual([{ type: 'place_app', app_name: 'Slack', bounds: [0, 32, 1920, 1080] }]);
  });

  it('"X on the right two thirds and Y in what is left": Y takes the third left free, on the same monitor (the laptop screen, named by its role)', () => {
    expect(commands('code on the right two thirds and slack in what is left')).toEqual([
      { type: 'place_app', app_name: 'Code', layout: 'last_two_thirds' },
      { type: 'place_app', app_name: 'Slack', monitor: 'left', layout: 'first_third' },
    ]);
    expect(commands('code on the left two thirds and slack in the rest')[1]).toEqual({ type: 'place_app', app_name: 'Slack', monitor: 'left', layout: 'last_third' });
  });
});

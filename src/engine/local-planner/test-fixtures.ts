import type { ContextSnapshot, MonitorInfo, RunningApp, TabInfo } from '../../protocol/context';
import type { Turn } from '../../protocol/planning';

// Hand-built desktops for the matcher's tests (the eval/ set has its own): small enough to
// read at a glance, with the traps the matcher must not fall into — two GitHub tabs, two
// Reddit tabs, Code and Cursor, Google Chrome and Chromium, presets sharing a word.

let tabCounter = 0;

export function tab(index: number, url: string, title: string, opts: { active?: boolean; window?: number } = {}): TabInfo {
  const host = new URL(url).hostname.replace(/^www\./, '');
  const parts = host.split('.');
  const domain = host === 'localhost' ? host : parts.slice(-2).join('.');
  return {
    index,
    title,
    url,
    domain,
    content_summary: null,
    is_active: opts.active ?? false,
    window_index: opts.window ?? 1,
    local_index: index,
    target_id: `T${++tabCounter}`,
  };
}

export function app(name: string, bounds: [number, number, number, number], monitor: string, focused = false, title = name): RunningApp {
  return { name, pid: 100 + name.length, windows: [{ id: `w-${name}`, title, bounds, monitor, focused, minimized: false }] };
}

const monitor = (name: string, roles: MonitorInfo['roles'], bounds: MonitorInfo['bounds'], work_area: MonitorInfo['work_area'], primary: boolean): MonitorInfo => ({
  id: name,
  name,
  roles,
  bounds,
  work_area,
  primary,
  scale: 1,
});

const OK = { ok: true, message: 'ok' };

/** One 1920×1080 laptop screen whose top bar leaves y 32…1080; Chrome has focus; one Chrome window. */
export function laptop(over: Partial<ContextSnapshot> = {}): ContextSnapshot {
  return {
    taken_at: '2026-11-26T10:00:00.000Z',
    monitors: [monitor('eDP-1', ['main', 'left', 'right'], [0, 0, 1920, 1080], [0, 32, 1920, 1080], true)],
    running_apps: [
      app('Google Chrome', [100, 80, 1700, 1000], 'eDP-1', true, 'Hacker News - Google Chrome'),
      app('Slack', [200, 100, 1400, 900], 'eDP-1'),
      app('Terminal', [600, 300, 1500, 900], 'eDP-1'),
      app('Spotify', [300, 150, 1500, 950], 'eDP-1'),
      app('Code', [0, 32, 1000, 1080], 'eDP-1'),
      app('Cursor', [900, 32, 1920, 1080], 'eDP-1'),
    ],
    installed_apps: ['Google Chrome', 'Slack', 'Terminal', 'Spotify', 'Code', 'Cursor', 'Obsidian', 'Firefox', 'Calculator', 'Zoom'].map((name) => ({ name })),
    tabs: [
      tab(1, 'https://mail.google.com/mail/u/0/#inbox', 'Inbox (4) - me@example.com - Gmail'),
      tab(2, 'https://www.reddit.com/r/typescript/comments/abc/moving_to_vitest/', 'Moving from Jest to Vitest : r/typescript'),
      tab(3, 'https://www.reddit.com/r/espresso/comments/def/budget_grinder/', 'Best budget grinder? : r/espresso'),
      tab(4, 'https://www.youtube.com/watch?v=abc', 'Rust in 100 Seconds - YouTube'),
      tab(5, 'https://github.com/deskpilot/deskpilot/issues', 'GitHub - deskpilot/issues'),
      tab(6, 'https://github.com/vercel/next.js', 'GitHub - vercel/next.js'),
      tab(7, 'https://news.ycombinator.com/', 'Hacker News', { active: true }),
      tab(8, 'https://docs.google.com/document/d/1x/edit', 'Q4 Planning - Google Docs'),
      tab(9, 'https://nextjs.org/', 'Next.js by Vercel - The React Framework'),
    ],
    presets: ['code space', 'writing', 'meeting', 'Code Review'],
    sources: { windows: OK, chrome: OK, presets: OK },
    ...over,
  };
}

/** LEFT 1920×1080 (primary, top bar) and RIGHT 2560×1440 at x 1920 (bottom panel); two Chrome windows. */
export function twoMonitors(over: Partial<ContextSnapshot> = {}): ContextSnapshot {
  return {
    taken_at: '2026-11-26T10:00:00.000Z',
    monitors: [
      monitor('LEFT', ['main', 'left'], [0, 0, 1920, 1080], [0, 32, 1920, 1080], true),
      monitor('RIGHT', ['right'], [1920, 0, 4480, 1440], [1920, 0, 4480, 1400], false),
    ],
    running_apps: [
      {
        name: 'Google Chrome',
        pid: 1,
        windows: [
          { id: 'c1', title: 'Pull Request #12 · acme/api · GitHub - Google Chrome', bounds: [0, 32, 1920, 1080], monitor: 'LEFT', focused: true, minimized: false },
          { id: 'c2', title: 'YouTube - Google Chrome', bounds: [1920, 0, 3200, 1400], monitor: 'RIGHT', focused: false, minimized: false },
        ],
      },
      app('Chromium', [2000, 100, 3000, 900], 'RIGHT'),
      app('Slack', [100, 100, 1300, 900], 'LEFT'),
      app('Terminal', [2400, 300, 3600, 1100], 'RIGHT'),
      app('Cursor', [3200, 0, 4480, 1400], 'RIGHT'),
    ],
    installed_apps: ['Google Chrome', 'Chromium', 'Slack', 'Terminal', 'Cursor', 'Notion', 'Figma'].map((name) => ({ name })),
    tabs: [
      tab(1, 'https://github.com/acme/api/pull/12', 'Pull Request #12 · acme/api · GitHub', { active: true }),
      tab(2, 'https://acme.atlassian.net/browse/API-7', '[API-7] Flaky login test - Jira'),
      tab(3, 'https://www.youtube.com/watch?v=x', 'Designing Data-Intensive Applications - YouTube', { window: 2, active: true }),
      tab(4, 'https://www.youtube.com/watch?v=y', 'Lofi beats - YouTube', { window: 2 }),
      tab(5, 'https://www.notion.so/acme/Sprint-notes', 'Sprint notes', { window: 2 }),
    ],
    presets: ['code space'],
    sources: { windows: OK, chrome: OK, presets: OK },
    ...over,
  };
}

/** HDMI-1 left, DP-1 primary in the middle, DP-2 right. */
export function threeMonitors(): ContextSnapshot {
  return {
    ...twoMonitors(),
    monitors: [
      monitor('HDMI-1', ['left'], [0, 0, 1920, 1080], [0, 0, 1920, 1080], false),
      monitor('DP-1', ['main'], [1920, 0, 4480, 1440], [1920, 32, 4480, 1440], true),
      monitor('DP-2', ['right'], [4480, 0, 6400, 1080], [4480, 0, 6400, 1080], false),
    ],
    running_apps: [app('Slack', [0, 0, 1920, 1080], 'HDMI-1'), app('Terminal', [2300, 300, 3500, 1100], 'DP-1', true)],
  };
}

export const chromeDown = (snap: ContextSnapshot): ContextSnapshot => ({
  ...snap,
  tabs: [],
  sources: { ...snap.sources, chrome: { ok: false, message: 'Chrome is not reachable: run `deskpilot chrome launch`.' } },
});

export const windowsDown = (snap: ContextSnapshot): ContextSnapshot => ({
  ...snap,
  monitors: [],
  running_apps: [],
  sources: { ...snap.sources, windows: { ok: false, message: 'no window backend on this platform yet' } },
});

/** A previous turn that acted on these commands. */
export const turn = (text: string, commands: unknown[], needsClarification = false): Turn => ({
  at: 0,
  text,
  envelope: { commands, needs_clarification: needsClarification, clarification_reason: needsClarification ? 'Which one?' : null },
  outcome: '',
});

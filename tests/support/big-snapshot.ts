import type { ContextSnapshot, RunningApp, TabInfo } from '../../src/protocol/context';

// A realistic busy desk — 100 tabs in 3 windows, 20 windows of 8 apps, 2 monitors,
// 5 presets — for the token-size test and the planner benchmark.

const SITES = [
  ['https://www.reddit.com/r/typescript/comments/1abc/why_is_my_type_never/', 'Why is my type never? : r/typescript', 'Discussion about conditional types collapsing to never when the input is a union.'],
  ['https://github.com/openai/openai-node/pull/1234', 'Add structured outputs helpers by someone · Pull Request #1234 · openai/openai-node', 'This PR adds zodResponseFormat and parse helpers for chat completions.'],
  ['https://mail.google.com/mail/u/0/#inbox', 'Inbox (12) - me@example.com - Gmail', 'Your inbox: 12 unread conversations, newest from the build server.'],
  ['https://docs.google.com/document/d/1xYz/edit', 'Quarterly planning notes - Google Docs', 'Goals for the quarter, owners, and the open questions from the last meeting.'],
  ['https://stackoverflow.com/questions/123456/how-to-close-a-socket-in-node', 'How to close a socket in Node? - Stack Overflow', 'Asked 3 years ago. Use socket.destroy() to close it immediately, or end() to half-close.'],
  ['https://news.ycombinator.com/item?id=4242', 'Show HN: A desktop assistant that does what you say | Hacker News', '312 points by someone 5 hours ago, 120 comments.'],
  ['http://localhost:3000/dashboard', 'Dev dashboard', null],
  ['https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'Some music video - YouTube', 'Official video, 1.2B views.'],
] as const;

export function bigSnapshot(): ContextSnapshot {
  const tabs: TabInfo[] = [];
  for (let i = 1; i <= 100; i++) {
    const [url, title, summary] = SITES[i % SITES.length]!;
    const window_index = i <= 60 ? 1 : i <= 85 ? 2 : 3;
    tabs.push({
      index: i,
      title: `${title} (${i})`,
      url: `${url}${url.includes('?') ? '&' : '?'}n=${i}`,
      domain: new URL(url).hostname.replace(/^(www|mail|docs)\./, ''),
      content_summary: summary,
      is_active: i === 1 || i === 61 || i === 86,
      window_index,
      local_index: i <= 60 ? i : i <= 85 ? i - 60 : i - 85,
      target_id: `${(0xabcdef0123 + i).toString(16).toUpperCase()}9F3C2B1A0E7D6C5B4A39281706F5`,
    });
  }
  const appNames = ['Google Chrome', 'Cursor', 'XTerm', 'Slack', 'Spotify', 'Files', 'Thunderbird', 'LibreOffice Writer'];
  const running: RunningApp[] = appNames.map((name, a) => ({ name, pid: 1000 + a, windows: [] }));
  for (let w = 0; w < 20; w++) {
    const app = running[w % running.length]!;
    const left = w % 2 ? 1920 : 0;
    app.windows.push({
      id: `0x${(0x3a00001 + w * 17).toString(16)}`,
      title: `${app.name} window ${w} — ~/projects/deskpilot`,
      bounds: [left + 10 * w, 40 + 5 * w, left + 960 + 10 * w, 1000],
      monitor: w % 2 ? 'HDMI-1' : 'DP-1',
      focused: w === 0,
      minimized: w === 7,
    });
  }
  return {
    taken_at: '2026-11-26T10:00:00.000Z',
    monitors: [
      { id: 'mon-0', name: 'DP-1', roles: ['main', 'left'], bounds: [0, 0, 1920, 1080], work_area: [0, 32, 1920, 1080], primary: true, scale: 1 },
      { id: 'mon-1', name: 'HDMI-1', roles: ['right'], bounds: [1920, 0, 3840, 1080], work_area: [1920, 0, 3840, 1080], primary: false, scale: 1 },
    ],
    running_apps: running,
    installed_apps: [...appNames, 'Firefox', 'GIMP', 'Inkscape', 'Blender', 'VLC', 'Terminal', 'Calculator', 'Text Editor'].map((name) => ({ name })),
    tabs,
    presets: ['code space', 'writing', 'meeting', 'review', 'focus'],
    sources: {
      windows: { ok: true, message: 'X11 (openbox) on :5' },
      chrome: { ok: true, message: 'Chromium 156 at 127.0.0.1:9222' },
      presets: { ok: true, message: '5 presets' },
    },
  };
}


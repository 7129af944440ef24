import type { DeskIndex, IndexTab } from '../../../protocol/launcher';

// A made-up desk index for the live list's unit tests (never imported by the app).

export const tab = (index: number, title: string, domain: string, extra: Partial<IndexTab> = {}): IndexTab => ({
  index,
  title,
  url: `https://${domain}/${index}`,
  domain,
  active: false,
  window: 1,
  pinned: false,
  ...extra,
});

export function testIndex(extra: Partial<DeskIndex> = {}): DeskIndex {
  return {
    id: 'd1',
    taken_at: '2025-01-01T00:00:00.000Z',
    tabs: [
      tab(1, 'Reddit - front page', 'reddit.com', { active: true }),
      tab(2, 'GitHub - deskpilot/issues', 'github.com'),
      tab(3, 'r/typescript', 'reddit.com'),
      tab(4, 'Lo-fi beats - YouTube', 'youtube.com'),
      tab(5, 'Rust Docs', 'doc.rust-lang.org'),
      tab(6, 'Cats compilation - YouTube', 'youtube.com'),
    ],
    apps: [
      { name: 'XTerm', running: true, windows: [{ id: '0x1', title: 'user@host: ~', monitor: 'LEFT', focused: true, minimized: false }] },
      { name: 'Chromium', running: true, windows: [{ id: '0x2', title: 'New Tab - Chromium', monitor: 'RIGHT', focused: false, minimized: false }] },
      { name: 'Visual Studio Code', running: false, windows: [] },
    ],
    presets: ['code space', 'reading'],
    monitors: [
      { name: 'LEFT', roles: ['main', 'left'] },
      { name: 'RIGHT', roles: ['right'] },
    ],
    planner: 'local',
    confirm: { close_tab: true, close_app: true },
    actions: { pin: false },
    problems: [],
    ...extra,
  };
}

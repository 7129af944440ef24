import { describe, expect, it } from 'vitest';
import type { ContextSnapshot } from '../protocol/context';
import type { Desk } from './desk';
import { LauncherService } from './launcher-service';

// Issue 27, the launcher: the index the real LauncherService serves carries each window's id,
// and an action on one window's row acts on that window by its id — never on whichever of the
// app's windows was used last; a window closed since the list was shown is refused. The desk
// behind the service is a fake (a fixed snapshot): Electron and a real engine are not needed here.

const ok = { ok: true, message: 'ok' };
const win = (id: string, title: string, monitor: string) => ({ id, title, bounds: [0, 0, 400, 300] as [number, number, number, number], monitor, focused: false, minimized: false });
const snap: ContextSnapshot = {
  taken_at: '2026-11-28T22:00:00.000Z',
  monitors: [
    { id: '1', name: 'LEFT', roles: ['main', 'left'], bounds: [0, 0, 1920, 1080], work_area: [0, 0, 1920, 1080], primary: true, scale: 1 },
    { id: '2', name: 'RIGHT', roles: ['right'], bounds: [1920, 0, 3840, 1080], work_area: [1920, 0, 3840, 1080], primary: false, scale: 1 },
  ],
  running_apps: [{ name: 'XTerm', pid: 1, windows: [win('0x1a00004', 'build', 'LEFT'), win('0x1c00004', 'logs', 'RIGHT')] }],
  installed_apps: [],
  tabs: [],
  presets: [],
  sources: { windows: ok, chrome: ok, presets: ok },
};

function service(): LauncherService {
  const desk = { snapshot: async () => snap, health: async () => ({ planner: { kind: 'local' } }) } as unknown as Desk;
  return new LauncherService({ desk: async () => desk, settings: async () => ({ confirm: { close_tab: true, close_app: true } }) as never, emit: () => {}, watchIntervalMs: 3_600_000 });
}

describe('the launcher service and one window of several (fake desk)', () => {
  it('the index lists each window with its id, and an action on a window row names that window', async () => {
    const s = service();
    try {
      const index = await s.index();
      expect(index.apps[0]!.windows.map((w) => [w.id, w.title])).toEqual([
        ['0x1a00004', 'build'],
        ['0x1c00004', 'logs'],
      ]);
      const front = s.action({ index: index.id, item: { kind: 'window', app: 'XTerm', id: '0x1c00004' }, action: 'open' });
      expect(front.envelope.commands).toEqual([{ type: 'focus_app', app_name: 'XTerm', window_id: '0x1c00004' }]);
      expect(front.text).toBe('bring XTerm\'s window "logs" to the front');
      const left = s.action({ index: index.id, item: { kind: 'window', app: 'XTerm', id: '0x1c00004' }, action: 'move_left' });
      expect(left.envelope.commands).toEqual([{ type: 'place_app', app_name: 'XTerm', window_id: '0x1c00004', monitor: 'left' }]);
    } finally {
      s.dispose();
    }
  });

  it('a window that is not in the listed snapshot is refused, and closing one window alone is refused with what to do instead', async () => {
    const s = service();
    try {
      const index = await s.index();
      expect(() => s.action({ index: index.id, item: { kind: 'window', app: 'XTerm', id: '0x9900004' }, action: 'open' })).toThrow('that XTerm window is no longer open; type again');
      expect(() => s.action({ index: index.id, item: { kind: 'window', app: 'XTerm', id: '0x1a00004' }, action: 'close' })).toThrow('quit XTerm to close them all');
    } finally {
      s.dispose();
    }
  });
});

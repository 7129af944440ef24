import { describe, expect, it } from 'vitest';
import type { Atoms } from './atoms';
import { isAppWindow } from './window-type';

// Distinct fake atom numbers; only identity matters.
const atoms = new Proxy({} as Record<string, number>, {
  get: (cache, name: string) => (cache[name] ??= 1000 + Object.keys(cache).length),
}) as unknown as Atoms;

describe('which windows are listed', () => {
  it('keeps untyped, normal and dialog windows', () => {
    expect(isAppWindow([], [], atoms)).toBe(true);
    expect(isAppWindow([atoms._NET_WM_WINDOW_TYPE_NORMAL], [], atoms)).toBe(true);
    expect(isAppWindow([atoms._NET_WM_WINDOW_TYPE_DIALOG], [], atoms)).toBe(true);
  });

  it('skips docks, desktops, toolbars, menus, splash screens, notifications, utilities', () => {
    for (const t of ['DOCK', 'DESKTOP', 'TOOLBAR', 'MENU', 'SPLASH', 'NOTIFICATION', 'UTILITY'] as const) {
      expect(isAppWindow([atoms[`_NET_WM_WINDOW_TYPE_${t}`]], [], atoms)).toBe(false);
    }
  });

  it('decides by the first standard type, skipping vendor types', () => {
    const vendor = 5;
    expect(isAppWindow([vendor, atoms._NET_WM_WINDOW_TYPE_NORMAL], [], atoms)).toBe(true);
    expect(isAppWindow([vendor, atoms._NET_WM_WINDOW_TYPE_DOCK, atoms._NET_WM_WINDOW_TYPE_NORMAL], [], atoms)).toBe(false);
  });

  it('skips windows that ask to stay off the taskbar', () => {
    expect(isAppWindow([], [atoms._NET_WM_STATE_SKIP_TASKBAR], atoms)).toBe(false);
  });
});

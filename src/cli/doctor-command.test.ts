import { describe, expect, it } from 'vitest';
import { doctorText } from './doctor-command';

describe('deskpilot doctor, in words', () => {
  it('names the backend, why, the monitors with their roles and what it lists', () => {
    const text = doctorText({
      kind: 'sway',
      reason: "SWAYSOCK is set: sway's IPC socket",
      limit: null,
      describes: 'sway 1.7 (IPC /run/user/1000/sway-ipc.sock)',
      problem: null,
      monitors: [{ name: 'HEADLESS-1', roles: ['main', 'left'], bounds: [0, 0, 1920, 1080], work_area: [0, 23, 1920, 1080] }],
      windows: 1,
    });
    expect(text).toBe(
      [
        'Window backend: sway — sway 1.7 (IPC /run/user/1000/sway-ipc.sock)',
        "  why: SWAYSOCK is set: sway's IPC socket",
        '  monitor HEADLESS-1 (main, left): [0,0,1920,1080], work area [0,23,1920,1080]',
        '  1 window listed',
        'Window commands work in this session.',
        '',
      ].join('\n'),
    );
  });

  it('says what is missing once, and the XWayland limit', () => {
    const none = doctorText({ kind: null, reason: 'no graphical session found', limit: null, describes: null, problem: 'no graphical session found', monitors: [], windows: null });
    expect(none.match(/no graphical session found/g)).toHaveLength(1);
    expect(none).toMatch(/will not work until that is fixed/);
    const gnome = doctorText({ kind: 'gnome', reason: 'a Wayland session of GNOME Shell', limit: null, describes: null, problem: 'install the extension: deskpilot gnome-extension install', monitors: [], windows: null });
    expect(gnome).toMatch(/missing: install the extension/);
    const x = doctorText({ kind: 'x11', reason: 'a Wayland session with an XWayland display', limit: 'only windows of apps running through XWayland can be placed', describes: 'X11 (mutter)', problem: null, monitors: [], windows: 0 });
    expect(x).toMatch(/limit: only windows of apps running through XWayland/);
  });
});

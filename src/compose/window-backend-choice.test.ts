import { describe, expect, it } from 'vitest';
import type { WindowsBackendSetting } from '../platform/config/config-file';
import { chooseWindowBackend } from './window-backend-choice';

const auto = { value: 'auto' as const, from: 'default' as const };
const file = (value: WindowsBackendSetting) => ({ value, from: 'file' as const });
const linux = (env: NodeJS.ProcessEnv, configured: { value: WindowsBackendSetting; from: 'file' | 'env' | 'default' } = auto) =>
  chooseWindowBackend('linux', env, configured);

describe('which window backend serves the session', () => {
  it('sway by its IPC socket, before anything else (sway sets WAYLAND_DISPLAY and often DISPLAY too)', () => {
    const c = linux({ SWAYSOCK: '/run/user/1000/sway-ipc.sock', XDG_SESSION_TYPE: 'wayland', XDG_CURRENT_DESKTOP: 'sway', DISPLAY: ':0', WAYLAND_DISPLAY: 'wayland-1' });
    expect(c.kind).toBe('sway');
    expect(c.reason).toMatch(/SWAYSOCK/);
    expect(c.limit).toBeNull();
  });

  it('i3 (on X11) by I3SOCK, through the same backend', () => {
    const c = linux({ I3SOCK: '/run/user/1000/i3/ipc-socket.1', DISPLAY: ':0', XDG_SESSION_TYPE: 'x11' });
    expect(c.kind).toBe('sway');
    expect(c.reason).toMatch(/I3SOCK.*i3/);
  });

  it('KWin for a Wayland KDE Plasma session, GNOME for a Wayland GNOME one (also ubuntu:GNOME)', () => {
    expect(linux({ XDG_SESSION_TYPE: 'wayland', XDG_CURRENT_DESKTOP: 'KDE', DISPLAY: ':1' }).kind).toBe('kwin');
    expect(linux({ XDG_SESSION_TYPE: 'wayland', XDG_CURRENT_DESKTOP: 'ubuntu:GNOME', DISPLAY: ':0' }).kind).toBe('gnome');
    expect(linux({ XDG_SESSION_TYPE: 'wayland', XDG_CURRENT_DESKTOP: 'GNOME' }).reason).toMatch(/GNOME Shell/);
  });

  it('X11 for an X11 session, also of KDE or GNOME', () => {
    const c = linux({ XDG_SESSION_TYPE: 'x11', XDG_CURRENT_DESKTOP: 'KDE', DISPLAY: ':0' });
    expect(c.kind).toBe('x11');
    expect(c.limit).toBeNull();
  });

  it('X11 through XWayland on a Wayland compositor without a backend, and says only XWayland windows can be placed', () => {
    const c = linux({ XDG_SESSION_TYPE: 'wayland', XDG_CURRENT_DESKTOP: 'Hyprland', DISPLAY: ':0', WAYLAND_DISPLAY: 'wayland-1' });
    expect(c.kind).toBe('x11');
    expect(c.reason).toMatch(/Hyprland/);
    expect(c.limit).toMatch(/XWayland/);
  });

  it('none, with the reason, on a Wayland compositor without XWayland, or with no session at all', () => {
    const w = linux({ WAYLAND_DISPLAY: 'wayland-0', XDG_CURRENT_DESKTOP: 'weston' });
    expect(w.kind).toBeNull();
    expect(w.reason).toMatch(/weston.*sway\/i3, KDE Plasma \(KWin\), GNOME and X11/);
    const none = linux({});
    expect(none.kind).toBeNull();
    expect(none.reason).toMatch(/SWAYSOCK, I3SOCK, WAYLAND_DISPLAY or DISPLAY/);
  });

  it('windows.backend overrides the session, and says where it was set', () => {
    const c = linux({ SWAYSOCK: '/s', DISPLAY: ':0' }, file('x11'));
    expect(c.kind).toBe('x11');
    expect(c.reason).toMatch(/windows\.backend in config\.json says "x11"/);
    expect(linux({ DISPLAY: ':0', XDG_SESSION_TYPE: 'wayland' }, file('x11')).limit).toMatch(/XWayland/);
    expect(linux({}, { value: 'gnome', from: 'env' }).reason).toMatch(/DESKPILOT_WINDOWS_BACKEND/);
  });

  it('windows.backend "sway" without a socket in the session is none, saying what is missing', () => {
    const c = linux({ DISPLAY: ':0' }, file('sway'));
    expect(c.kind).toBeNull();
    expect(c.reason).toMatch(/neither SWAYSOCK nor I3SOCK is set/);
  });

  it('macOS and Windows use node-window-manager whatever windows.backend says', () => {
    expect(chooseWindowBackend('darwin', {}, auto).kind).toBe('nwm');
    const w = chooseWindowBackend('win32', {}, file('sway'));
    expect(w.kind).toBe('nwm');
    expect(w.reason).toMatch(/ignored/);
    expect(chooseWindowBackend('freebsd', { DISPLAY: ':0' }, auto).kind).toBeNull();
  });
});

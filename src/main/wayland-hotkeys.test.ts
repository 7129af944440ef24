import { describe, expect, it } from 'vitest';
import { HotkeyManager } from './hotkeys';
import { hotkeyFeature, waylandRefusal, withFeature } from './wayland-hotkeys';

describe('global hotkeys in a Wayland session', () => {
  it('turns on the GlobalShortcutsPortal feature only in a Linux Wayland session', () => {
    expect(hotkeyFeature('linux', { XDG_SESSION_TYPE: 'wayland' })).toBe('GlobalShortcutsPortal');
    expect(hotkeyFeature('linux', { WAYLAND_DISPLAY: 'wayland-1' })).toBe('GlobalShortcutsPortal');
    expect(hotkeyFeature('linux', { XDG_SESSION_TYPE: 'x11', DISPLAY: ':0' })).toBeNull();
    expect(hotkeyFeature('darwin', { WAYLAND_DISPLAY: 'wayland-1' })).toBeNull();
  });

  it('adds the feature to the features already asked for, once', () => {
    expect(withFeature('', 'GlobalShortcutsPortal')).toBe('GlobalShortcutsPortal');
    expect(withFeature('WaylandWindowDecorations', 'GlobalShortcutsPortal')).toBe('WaylandWindowDecorations,GlobalShortcutsPortal');
    expect(withFeature('GlobalShortcutsPortal, Foo', 'GlobalShortcutsPortal')).toBe('GlobalShortcutsPortal,Foo');
  });

  it('a refused hotkey under Wayland says the portal may be missing and what to do instead', () => {
    const why = waylandRefusal('linux', { XDG_SESSION_TYPE: 'wayland' }, 'Alt+Space');
    expect(why).toMatch(/^Alt\+Space could not be registered: .*GlobalShortcuts portal/);
    expect(why).toMatch(/keyboard settings/);
    expect(waylandRefusal('linux', { DISPLAY: ':0' }, 'Alt+Space')).toBeNull();
  });

  it('the hotkey manager (fake globalShortcut that refuses, as without a portal) shows those words as the status', () => {
    const refusing = { register: () => false, unregister: () => undefined };
    const m = new HotkeyManager(refusing, { launcher: () => {}, voice: () => {} }, () => {}, (a) => waylandRefusal('linux', { XDG_SESSION_TYPE: 'wayland' }, a));
    const status = m.apply({ launcher: 'Alt+Space', voice: 'Alt+Shift+Space' });
    expect(status.launcher).toMatchObject({ registered: false, error: expect.stringMatching(/GlobalShortcuts portal/) });
  });
});

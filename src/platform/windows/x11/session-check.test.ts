import { describe, expect, it } from 'vitest';
import { connectFailureReason, isWaylandSession, missingDisplayReason, noWindowManagerReason } from './session-check';

describe('session check', () => {
  it('is fine whenever a display is set', () => {
    expect(missingDisplayReason(':0', {})).toBeNull();
    expect(missingDisplayReason(':0', { WAYLAND_DISPLAY: 'wayland-0' })).toBeNull();
  });

  it('says DISPLAY is not set on a plain session', () => {
    expect(missingDisplayReason(undefined, {})).toBe('window placement needs an X11 display: DISPLAY is not set');
    expect(missingDisplayReason('', {})).toBe('window placement needs an X11 display: DISPLAY is not set');
  });

  it('names Wayland when the session is Wayland', () => {
    expect(isWaylandSession({ WAYLAND_DISPLAY: 'wayland-0' })).toBe(true);
    expect(isWaylandSession({ XDG_SESSION_TYPE: 'wayland' })).toBe(true);
    expect(isWaylandSession({ XDG_SESSION_TYPE: 'x11' })).toBe(false);
    const reason = missingDisplayReason(undefined, { XDG_SESSION_TYPE: 'wayland' })!;
    expect(reason).toMatch(/^window placement needs X11 \(or XWayland apps\)/);
    expect(reason.split('. ')).toHaveLength(1); // one sentence
  });

  it('explains connection failures with the cause', () => {
    expect(connectFailureReason(':9', {}, 'connect ECONNREFUSED')).toMatch(/^cannot connect to the X display :9 \(connect ECONNREFUSED\)/);
    expect(connectFailureReason(':0', { WAYLAND_DISPLAY: 'wayland-0' }, 'ENOENT')).toMatch(/^window placement needs X11 \(or XWayland apps\).*:0.*ENOENT/);
    expect(noWindowManagerReason(':5')).toMatch(/EWMH.*:5$/);
  });
});

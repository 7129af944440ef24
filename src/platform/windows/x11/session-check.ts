// Why window placement cannot work in this session, in one sentence a person can act on.
// Pure (takes the environment), so every case is unit-tested.

export function isWaylandSession(env: NodeJS.ProcessEnv): boolean {
  return Boolean(env.WAYLAND_DISPLAY) || env.XDG_SESSION_TYPE?.toLowerCase() === 'wayland';
}

/** null when there is a display to try; otherwise why there is none. */
export function missingDisplayReason(display: string | undefined, env: NodeJS.ProcessEnv): string | null {
  if (display) return null;
  if (isWaylandSession(env)) {
    return 'window placement needs X11 (or XWayland apps), and this Wayland session has no X display (DISPLAY is not set; enable XWayland or log in to an X11 session)';
  }
  return 'window placement needs an X11 display: DISPLAY is not set';
}

/** The message for a display that is set but cannot be connected to. */
export function connectFailureReason(display: string, env: NodeJS.ProcessEnv, cause: string): string {
  if (isWaylandSession(env)) {
    return `window placement needs X11 (or XWayland apps), and the XWayland display ${display} of this Wayland session cannot be reached (${cause})`;
  }
  return `cannot connect to the X display ${display} (${cause}); check that DISPLAY is right and the X server is running`;
}

export function noWindowManagerReason(display: string): string {
  return `window placement needs a window manager that supports EWMH (e.g. GNOME, KDE, Xfce or Openbox), and none is running on the X display ${display}`;
}

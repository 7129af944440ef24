// Global hotkeys in a Wayland session. X11 lets any client grab a key; Wayland lets none, so a
// native Wayland Electron app can only have global shortcuts through the XDG desktop portal's
// GlobalShortcuts interface, which Electron uses (since 34/35) when Chromium's
// GlobalShortcutsPortal feature is on. Pure (takes the platform and environment), so tested in Node.

export function isWaylandSession(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): boolean {
  return platform === 'linux' && (env.XDG_SESSION_TYPE?.toLowerCase() === 'wayland' || Boolean(env.WAYLAND_DISPLAY));
}

/** The Chromium feature to enable before the app is ready (null: none needed here). */
export function hotkeyFeature(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): string | null {
  return isWaylandSession(platform, env) ? 'GlobalShortcutsPortal' : null;
}

/**
 * Merges a feature into an --enable-features value (a comma-separated list: appending the switch
 * a second time would replace the list given on the command line, not add to it).
 */
export function withFeature(current: string, feature: string): string {
  const list = current.split(',').map((f) => f.trim()).filter(Boolean);
  return (list.includes(feature) ? list : [...list, feature]).join(',');
}

/**
 * Why a hotkey was refused, said for a Wayland session: there a refusal usually means the desktop
 * offers no GlobalShortcuts portal (GNOME before 48, sway, and other wlroots compositors), not
 * that another app holds the keys. null outside Wayland (the usual words apply).
 */
export function waylandRefusal(platform: NodeJS.Platform, env: NodeJS.ProcessEnv, accelerator: string): string | null {
  if (!isWaylandSession(platform, env)) return null;
  return (
    `${accelerator} could not be registered: on Wayland a global hotkey needs the desktop's GlobalShortcuts portal ` +
    '(KDE Plasma 5.27 or later, GNOME 48 or later; sway and GNOME 47 or earlier have none), or another app holds it. ' +
    "Bind the key in your desktop's keyboard settings to run DeskPilot again: a second start opens its window."
  );
}

import type { WindowsBackendSetting } from '../platform/config/config-file';
import type { Setting } from '../platform/config/setting';

// Which window backend serves this session, and why, in words `deskpilot doctor` shows. Pure:
// a function of the platform, the environment and the config, so every case is unit-tested.

export type WindowBackendKind = 'x11' | 'sway' | 'kwin' | 'gnome' | 'nwm';

export interface WindowBackendChoice {
  /** null: no backend for this session; `reason` says why and what would make one work. */
  kind: WindowBackendKind | null;
  /** Why this one, in one sentence. */
  reason: string;
  /** What this backend cannot reach in this session (e.g. native Wayland windows under X11), or null. */
  limit: string | null;
}

const XWAYLAND_ONLY =
  'only windows of apps running through XWayland can be placed: native Wayland windows are out of reach of X11';

/** `configured` is windows.backend (config.json or DESKPILOT_WINDOWS_BACKEND); "auto" reads the session. */
export function chooseWindowBackend(platform: NodeJS.Platform, env: NodeJS.ProcessEnv, configured: Setting<WindowsBackendSetting>): WindowBackendChoice {
  if (platform === 'darwin' || platform === 'win32') {
    const ignored = configured.value !== 'auto' ? ` (windows.backend "${configured.value}" is for Linux and is ignored here)` : '';
    return { kind: 'nwm', reason: `${platform === 'darwin' ? 'macOS' : 'Windows'}: node-window-manager${ignored}`, limit: null };
  }
  if (platform !== 'linux') return { kind: null, reason: `no window backend for ${platform} yet: app and window commands are unavailable`, limit: null };
  const wayland = isWayland(env);
  if (configured.value !== 'auto') {
    const where = configured.from === 'env' ? 'DESKPILOT_WINDOWS_BACKEND' : 'windows.backend in config.json';
    const limit = configured.value === 'x11' && wayland ? XWAYLAND_ONLY : null;
    if (configured.value === 'sway' && !env.SWAYSOCK && !env.I3SOCK) {
      return { kind: null, reason: `${where} says "sway", but neither SWAYSOCK nor I3SOCK is set in this session (is sway or i3 running here?)`, limit: null };
    }
    return { kind: configured.value, reason: `${where} says "${configured.value}"`, limit };
  }
  if (env.SWAYSOCK) return { kind: 'sway', reason: "SWAYSOCK is set: sway's IPC socket", limit: null };
  if (env.I3SOCK) return { kind: 'sway', reason: "I3SOCK is set: i3's IPC socket (the sway backend speaks it)", limit: null };
  const desktop = (env.XDG_CURRENT_DESKTOP ?? '').toUpperCase().split(':');
  if (wayland && desktop.includes('KDE')) return { kind: 'kwin', reason: `a Wayland session of KDE Plasma (XDG_CURRENT_DESKTOP=${env.XDG_CURRENT_DESKTOP})`, limit: null };
  if (wayland && desktop.some((d) => d === 'GNOME' || d.endsWith('-GNOME') || d === 'UBUNTU')) {
    return { kind: 'gnome', reason: `a Wayland session of GNOME Shell (XDG_CURRENT_DESKTOP=${env.XDG_CURRENT_DESKTOP})`, limit: null };
  }
  if (env.DISPLAY) {
    if (wayland) {
      const which = env.XDG_CURRENT_DESKTOP ? ` (XDG_CURRENT_DESKTOP=${env.XDG_CURRENT_DESKTOP})` : '';
      return { kind: 'x11', reason: `a Wayland session${which} DeskPilot has no backend for, with an XWayland display (DISPLAY=${env.DISPLAY})`, limit: XWAYLAND_ONLY };
    }
    return { kind: 'x11', reason: `an X11 session (DISPLAY=${env.DISPLAY})`, limit: null };
  }
  if (wayland) {
    const which = env.XDG_CURRENT_DESKTOP ? `this Wayland session (XDG_CURRENT_DESKTOP=${env.XDG_CURRENT_DESKTOP})` : 'this Wayland session';
    return {
      kind: null,
      reason: `${which} has no window backend: DeskPilot places windows on sway/i3, KDE Plasma (KWin), GNOME and X11, and this compositor is none of them (and there is no XWayland display); set windows.backend if it is one of them`,
      limit: null,
    };
  }
  return { kind: null, reason: 'no graphical session found: none of SWAYSOCK, I3SOCK, WAYLAND_DISPLAY or DISPLAY is set', limit: null };
}

function isWayland(env: NodeJS.ProcessEnv): boolean {
  return env.XDG_SESSION_TYPE?.toLowerCase() === 'wayland' || Boolean(env.WAYLAND_DISPLAY);
}

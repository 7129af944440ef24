// Which of EnumWindows' handles are the windows a person means, and what they are called.
import path from 'node:path';
import type { RawWindow, Rect4 } from '../../../engine/ports';
import type { NativeWindow, NativeWindowList } from './nwm-protocol';

/** Where Windows parks a minimised window; the addon offers no IsIconic. */
const MINIMIZED_COORD = -32000;

export function isMinimizedWin32(w: NativeWindow): boolean {
  return w.bounds.x <= MINIMIZED_COORD && w.bounds.y <= MINIMIZED_COORD;
}

/**
 * Shell surfaces that pass every other rule: the desktop ("Program Manager") and shell hosts
 * whose windows stay "visible" while cloaked. Lower-case exe base names.
 */
const SHELL_HOSTS = new Set([
  'textinputhost',
  'shellexperiencehost',
  'startmenuexperiencehost',
  'searchhost',
  'searchapp',
  'searchui',
  'lockapp',
]);

export const exeBaseName = (exePath: string) => path.win32.basename(exePath).replace(/\.exe$/i, '');

/**
 * The filter (node-window-manager exposes no window styles, IsIconic or DWM attributes):
 * - visible (IsWindowVisible; minimised windows are visible and are kept, flagged minimized);
 * - its process could be opened (an exe path: the app identity; also the addon's own rule);
 * - a non-empty title;
 * - unowned: dialogs, palettes and most tool windows are owned (Alt+Tab skips them too);
 * - a non-empty frame, unless minimised;
 * - not the desktop or a shell host.
 * Not detectable: WS_EX_TOOLWINDOW on unowned windows, and DWM cloaking (windows on other
 * virtual desktops, suspended Store apps); those may be listed.
 */
export function isListableWin32Window(w: NativeWindow): boolean {
  if (!w.visible || !w.path || !w.title.trim() || w.owner !== 0) return false;
  const base = exeBaseName(w.path).toLowerCase();
  if (SHELL_HOSTS.has(base)) return false;
  if (base === 'explorer' && w.title === 'Program Manager') return false;
  return isMinimizedWin32(w) || (w.bounds.width > 0 && w.bounds.height > 0);
}

/** The foreground window, or the window that owns the foreground dialog. */
export function isWin32Focused(w: NativeWindow, active: NativeWindowList['active']): boolean {
  return !!active && (active.handle === w.handle || active.owner === w.handle);
}

/**
 * `bounds` already in the backend's coordinate space. A minimised window's bounds are the
 * parking rectangle at (-32000, -32000): the addon cannot read where it will come back.
 */
export function win32RawWindow(w: NativeWindow, bounds: Rect4, focused: boolean): RawWindow {
  const base = exeBaseName(w.path);
  return {
    id: String(w.handle),
    pid: w.pid > 0 ? w.pid : null,
    appKeys: [base.toLowerCase(), w.path],
    fallbackName: base,
    title: w.title,
    bounds,
    focused,
    minimized: isMinimizedWin32(w),
  };
}

// Which of the on-screen CGWindowList entries are app windows, and what they are called.
import type { RawWindow } from '../../../engine/ports';
import type { BundleInfo } from './bundle-info';
import type { NativeWindow, NativeWindowList } from './nwm-protocol';
import { toRect4 } from './native-rect';

/**
 * System UI that owns on-screen windows from a bundle (the addon keeps any window whose owner has
 * a bundle path, whatever its layer): .app folder names.
 */
const SYSTEM_UI = new Set([
  'Dock',
  'SystemUIServer',
  'Control Center',
  'ControlCenter',
  'Notification Center',
  'NotificationCenter',
  'Spotlight',
  'WindowManager',
  'Window Manager',
  'TextInputMenuAgent',
  'TextInputSwitcher',
  'loginwindow',
  'universalAccessAuthWarn',
]);

/** Menu-bar status items, cursors and drag images are smaller; app windows are not. */
const MIN_SIDE = 50;

export const bundleFolderName = (bundlePath: string) => (bundlePath.split('/').pop() ?? '').replace(/\.app$/i, '');

/**
 * The addon lists only on-screen windows (so never minimised ones, nor other Spaces) of
 * processes with a bundle, at every layer; it exposes no layer or alpha. Kept: a bundle path,
 * at least MIN_SIDE points each way, not system UI.
 */
export function isListableMacWindow(w: NativeWindow): boolean {
  if (!w.path) return false;
  if (w.bounds.width < MIN_SIDE || w.bounds.height < MIN_SIDE) return false;
  return !SYSTEM_UI.has(bundleFolderName(w.path));
}

/**
 * The addon's "active window" is the frontmost on-screen window of the active app, which can be
 * one of its status items; the focused window is that app's frontmost listed window.
 */
export function macFocusedHandle(listed: NativeWindow[], active: NativeWindowList['active']): number | null {
  if (!active || active.pid === null) return null;
  return listed.find((w) => w.pid === active.pid)?.handle ?? null;
}

/** `w.title` is the app name: the addon reads kCGWindowOwnerName, never kCGWindowName. */
export function macRawWindow(w: NativeWindow, bundle: BundleInfo, focused: boolean): RawWindow {
  const appName = w.title || bundle.folderName;
  const keys = [bundle.bundleId, appName, bundle.folderName, bundle.executable, w.path].filter((k): k is string => !!k);
  return {
    id: String(w.handle),
    pid: w.pid > 0 ? w.pid : null,
    appKeys: [...new Set(keys)],
    fallbackName: appName,
    title: appName,
    bounds: toRect4(w.bounds),
    focused,
    minimized: false,
  };
}

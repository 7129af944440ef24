import type { RawMonitor, RawWindow, Rect4 } from '../../../engine/ports';
import type { ShellMonitor, ShellWindow } from './extension-answers';

// The extension's windows and monitors as the window port's: rects become [left, top, right,
// bottom], app identities become appKeys (most specific first), monitors keep mutter's
// connector names (Meta-0, DP-1, eDP-1) so presets and words name the same screens as elsewhere.

type Box = { x: number; y: number; width: number; height: number };

export function toRect4({ x, y, width, height }: Box): Rect4 {
  return [x, y, x + width, y + height];
}

/** [left, top, right, bottom] as MoveResize's x, y, width, height. */
export function toBox([left, top, right, bottom]: Rect4): [number, number, number, number] {
  return [left, top, right - left, bottom - top];
}

export function toRawWindow(w: ShellWindow): RawWindow {
  // Wayland apps identify by app id (which mutter reports as the WM class), X11 ones by WM_CLASS;
  // a GTK app's application id and a Flatpak's sandboxed id match desktop files more often.
  const keys = [w.sandboxed_app_id, w.gtk_app_id, w.wm_class_instance, w.wm_class].filter((k): k is string => !!k);
  const appKeys = [...new Set(keys)];
  return {
    id: w.id,
    pid: w.pid,
    appKeys,
    fallbackName: w.wm_class ?? w.gtk_app_id ?? w.sandboxed_app_id ?? 'unknown app',
    title: w.title,
    bounds: toRect4(w.frame),
    focused: w.focused,
    minimized: w.minimized,
    fullscreen: w.fullscreen,
    maximized: w.maximized,
  };
}

/** Topmost first, as the port wants (the extension already sends them so; this keeps it true). */
export function toRawWindows(windows: ShellWindow[]): RawWindow[] {
  return [...windows].sort((a, b) => a.stacking - b.stacking).map(toRawWindow);
}

export function toRawMonitor(m: ShellMonitor): RawMonitor {
  const name = m.connector ?? `monitor ${m.index + 1}`;
  return {
    id: name,
    name,
    bounds: toRect4(m.geometry),
    workArea: toRect4(m.work_area),
    primary: m.primary,
    scale: m.scale,
  };
}

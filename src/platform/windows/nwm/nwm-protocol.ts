// What nwm-worker.js (plain JS, unchecked) sends and answers. Keep the two in step.

/** node-window-manager's rectangle: physical pixels on Windows, points on macOS. */
export interface NativeRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface NativeWindow {
  /** HWND on Windows, CGWindowID on macOS. */
  handle: number;
  /** 0 when Windows would not say. */
  pid: number;
  /** The exe path on Windows, the .app bundle path on macOS; '' when the process could not be opened. */
  path: string;
  /** On macOS the owning app's name: the addon reads kCGWindowOwnerName, never the window's title. */
  title: string;
  /** GetWindowRect on Windows, kCGWindowBounds on macOS: both the outer frame. */
  bounds: NativeRect;
  visible: boolean;
  /** The owner window's handle (Windows), 0 for none. */
  owner: number;
  /** HMONITOR of the monitor the window is on (Windows; for a minimised one, where it was). */
  monitor: number | null;
}

export interface NativeMonitor {
  /** HMONITOR: changes when displays are reconfigured. */
  handle: number;
  bounds: NativeRect;
  workArea: NativeRect;
  primary: boolean;
  scale: number;
}

export interface NativeWindowList {
  /** Front to back (EnumWindows and CGWindowList both enumerate in stacking order). */
  windows: NativeWindow[];
  /** Windows: the foreground window and its owner. macOS: the frontmost window of the active app and its pid. */
  active: { handle: number; pid: number | null; owner: number } | null;
  /** Windows only: the physical monitors, for converting to the injected displays' coordinates. */
  monitors: NativeMonitor[] | null;
}

export interface WorkerOps {
  listWindows: { args: Record<string, never>; result: NativeWindowList };
  listMonitors: { args: Record<string, never>; result: NativeMonitor[] };
  focus: { args: { handle: number }; result: null };
  restore: { args: { handle: number }; result: null };
  minimize: { args: { handle: number }; result: null };
  setBounds: { args: { handle: number; bounds: NativeRect }; result: { bounds: NativeRect; monitor: number | null } };
  close: { args: { handle: number }; result: null };
}

export type WorkerOp = keyof WorkerOps;

export interface WorkerRequest {
  id: number;
  op: WorkerOp;
  args: unknown;
}

export type WorkerErrorKind = 'gone' | 'load' | 'permission' | 'failed';

export type WorkerReply =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: { kind: WorkerErrorKind; message: string } };

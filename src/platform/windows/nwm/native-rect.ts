// node-window-manager speaks {x, y, width, height}; the engine speaks [left, top, right, bottom].
import type { Rect4 } from '../../../engine/ports';
import type { NativeRect } from './nwm-protocol';

/** Rounded: macOS reports points as doubles, the engine works in whole pixels. */
export function toRect4(r: NativeRect): Rect4 {
  const left = Math.round(r.x);
  const top = Math.round(r.y);
  return [left, top, Math.round(r.x + r.width), Math.round(r.y + r.height)];
}

export function toNativeRect([left, top, right, bottom]: Rect4): NativeRect {
  return { x: left, y: top, width: right - left, height: bottom - top };
}

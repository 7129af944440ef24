// Window ids are the native handle in decimal (HWND on Windows, CGWindowID on macOS).
import { WindowGoneError } from '../../../engine/errors';

/** An id this backend never issued cannot name an open window. */
export function parseHandle(id: string): number {
  if (!/^\d{1,16}$/.test(id)) throw new WindowGoneError(id);
  return Number(id);
}

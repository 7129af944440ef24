// Windows through node-window-manager. Coordinates are physical pixels, or, when the app injects
// its displays (Electron's screen: DIP), those displays' coordinates, converted per monitor.
import { WindowsUnavailableError } from '../../../engine/errors';
import type { RawMonitor, RawWindow, Rect4 } from '../../../engine/ports';
import { logicalToPhysical, pairForRect, pairMonitors, physicalToLogical, type MonitorPair } from './dpi-mapping';
import { toNativeRect, toRect4 } from './native-rect';
import type { NwmWindowBackend } from './nwm-backend-types';
import type { NativeMonitor, NativeWindow } from './nwm-protocol';
import { NwmBackendBase } from './nwm-backend-base';
import { isListableWin32Window, isMinimizedWin32, isWin32Focused, win32RawWindow } from './win32-windows';
import { parseHandle } from './window-handle';

export function physicalMonitor(m: NativeMonitor, index: number): RawMonitor {
  return {
    id: String(m.handle),
    name: `Display ${index + 1}`,
    bounds: toRect4(m.bounds),
    workArea: toRect4(m.workArea),
    primary: m.primary,
    scale: m.scale,
  };
}

/** Converts between physical pixels and the backend's coordinate space. */
interface Space {
  /** `monitor`: the HMONITOR the addon says the rectangle is on, when known. */
  fromPhysical(r: Rect4, monitor: number | null): Rect4;
  toPhysical(r: Rect4): Rect4;
}

const PHYSICAL: Space = { fromPhysical: (r) => r, toPhysical: (r) => r };

function injectedSpace(pairs: MonitorPair[]): Space {
  const pairOf = (r: Rect4, monitor: number | null) =>
    pairs.find((p) => p.physical.handle === monitor) ?? pairForRect(pairs, r, 'physical');
  return {
    fromPhysical: (r, monitor) => physicalToLogical(r, pairOf(r, monitor)),
    toPhysical: (r) => logicalToPhysical(r, pairForRect(pairs, r, 'logical')),
  };
}

export class Win32NwmBackend extends NwmBackendBase implements NwmWindowBackend {

  async describe(): Promise<string> {
    const pid = this.config.client.pid();
    const space = this.config.monitors
      ? "the app's display coordinates (converted from physical pixels per monitor scale)"
      : 'physical pixels';
    return (
      `node-window-manager on Windows (window helper ${pid ? `pid ${pid}` : 'not started'}; coordinates: ${space}). ` +
      'Listed: visible, titled, unowned top-level windows; cloaked windows (other virtual desktops, suspended Store apps) cannot be told apart and may be listed. ' +
      'Frames are GetWindowRect, which includes the invisible resize borders of Windows 10/11.'
    );
  }

  async listMonitors(): Promise<RawMonitor[]> {
    if (this.config.monitors) return this.config.monitors();
    const monitors = await this.config.client.request('listMonitors', {});
    return monitors.map(physicalMonitor);
  }

  async listWindows(): Promise<RawWindow[]> {
    const list = await this.config.client.request('listWindows', {});
    const space = await this.space(list.monitors);
    return list.windows.filter(isListableWin32Window).map((w) => win32RawWindow(w, this.bounds(w, space), isWin32Focused(w, list.active)));
  }

  async focus(id: string): Promise<void> {
    await this.config.client.request('focus', { handle: parseHandle(id) });
  }

  async restore(id: string): Promise<void> {
    await this.config.client.request('restore', { handle: parseHandle(id) });
  }

  async setFrameBounds(id: string, bounds: Rect4): Promise<Rect4> {
    const handle = parseHandle(id);
    const space = this.config.monitors ? await this.space(await this.config.client.request('listMonitors', {})) : PHYSICAL;
    const result = await this.config.client.request('setBounds', { handle, bounds: toNativeRect(space.toPhysical(bounds)) });
    return space.fromPhysical(toRect4(result.bounds), result.monitor);
  }


  /** A minimised window keeps its parking rectangle: it belongs to no monitor. */
  private bounds(w: NativeWindow, space: Space): Rect4 {
    const r = toRect4(w.bounds);
    return isMinimizedWin32(w) ? r : space.fromPhysical(r, w.monitor);
  }

  private async space(physical: NativeMonitor[] | null): Promise<Space> {
    if (!this.config.monitors) return PHYSICAL;
    const pairs = pairMonitors(physical ?? [], await this.config.monitors());
    if (!pairs) {
      throw new WindowsUnavailableError(
        "the displays the app reports do not match the monitors Windows reports (was a display just connected or removed?); try again",
      );
    }
    return injectedSpace(pairs);
  }
}

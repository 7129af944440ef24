// macOS through node-window-manager: points, top-left origin of the main display (the same
// space as Electron's screen module, which is why displays are injected from there).
import { WindowsUnavailableError } from '../../../engine/errors';
import type { RawMonitor, RawWindow, Rect4 } from '../../../engine/ports';
import { bundleInfoCache } from './bundle-info';
import { isListableMacWindow, macFocusedHandle, macRawWindow } from './mac-windows';
import { toNativeRect, toRect4 } from './native-rect';
import type { NwmWindowBackend } from './nwm-backend-types';
import { NwmBackendBase } from './nwm-backend-base';
import { parseHandle } from './window-handle';

export class MacNwmBackend extends NwmBackendBase implements NwmWindowBackend {
  private readonly bundleInfo = bundleInfoCache();


  async describe(): Promise<string> {
    const pid = this.config.client.pid();
    const displays = this.config.monitors ? 'displays from the app' : 'no display source (displays must be passed in by the app)';
    return (
      `node-window-manager on macOS (window helper ${pid ? `pid ${pid}` : 'not started'}; ${displays}). ` +
      "Window titles are app names: the addon reads each window's owner name, never its title. " +
      'Moving, focusing and restoring need Accessibility permission; closing also needs permission to control System Events. ' +
      'Minimised windows and windows on other Spaces are not listed.'
    );
  }

  async listMonitors(): Promise<RawMonitor[]> {
    if (!this.config.monitors) {
      throw new WindowsUnavailableError(
        "node-window-manager cannot list displays on macOS and no display source was given; monitors are only available in the DeskPilot app (from Electron's screen module)",
      );
    }
    return this.config.monitors();
  }

  async listWindows(): Promise<RawWindow[]> {
    const list = await this.config.client.request('listWindows', {});
    const listed = list.windows.filter(isListableMacWindow);
    const focused = macFocusedHandle(listed, list.active);
    return Promise.all(listed.map(async (w) => macRawWindow(w, await this.bundleInfo(w.path), w.handle === focused)));
  }

  async focus(id: string): Promise<void> {
    await this.config.client.request('focus', { handle: parseHandle(id) });
  }

  async restore(id: string): Promise<void> {
    await this.config.client.request('restore', { handle: parseHandle(id) });
  }

  async setFrameBounds(id: string, bounds: Rect4): Promise<Rect4> {
    const result = await this.config.client.request('setBounds', { handle: parseHandle(id), bounds: toNativeRect(bounds) });
    return toRect4(result.bounds);
  }
}

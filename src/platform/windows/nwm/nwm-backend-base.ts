// What the macOS and Windows backends do the same way: talk to the one helper process.
import { DeskPilotError } from '../../../engine/errors';
import type { RawWindow } from '../../../engine/ports';
import type { NwmBackendConfig } from './nwm-backend-types';
import { processAlive } from './process-alive';
import { parseHandle } from './window-handle';

export abstract class NwmBackendBase {
  constructor(protected readonly config: NwmBackendConfig) {}

  abstract listWindows(): Promise<RawWindow[]>;
  abstract focus(id: string): Promise<void>;

  /** node-window-manager cannot raise a window without activating it: raising is focusing here. */
  raise(id: string): Promise<void> {
    return this.focus(id);
  }

  /** The helper answers one list at a time; the focused window is read from it (no cheaper call exists there). */
  async focused(): Promise<RawWindow | null> {
    return (await this.listWindows()).find((w) => w.focused) ?? null;
  }

  async minimize(id: string): Promise<void> {
    await this.config.client.request('minimize', { handle: parseHandle(id) });
  }

  /** node-window-manager has no full-screen call; "maximize" (a layout) fills the work area instead. */
  async setFullscreen(): Promise<void> {
    throw new DeskPilotError(
      'true full screen is not available with node-window-manager (macOS, Windows) yet; the "maximize" layout fills the screen instead',
      'unavailable',
    );
  }

  async close(id: string): Promise<void> {
    await this.config.client.request('close', { handle: parseHandle(id) }, this.config.closeTimeoutMs);
  }

  processAlive(pid: number): Promise<boolean> {
    return processAlive(pid);
  }

  helperPid(): number | null {
    return this.config.client.pid();
  }

  dispose(): Promise<void> {
    return this.config.client.dispose();
  }
}

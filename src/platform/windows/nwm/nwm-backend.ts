// A WindowBackend for macOS and Windows on node-window-manager, with the native addon confined
// to a child process (nwm-worker.js): when the addon crashes, a command fails and the next one
// starts a fresh helper; DeskPilot keeps running.
import { createRequire } from 'node:module';
import path from 'node:path';
import { WindowsUnavailableError } from '../../../engine/errors';
import type { RawMonitor } from '../../../engine/ports';
import { MacNwmBackend } from './mac-nwm-backend';
import type { NwmWindowBackend } from './nwm-backend-types';
import { NwmWorkerClient } from './nwm-worker-client';
import { Win32NwmBackend } from './win32-nwm-backend';

export type { NwmWindowBackend } from './nwm-backend-types';

export interface NwmBackendOptions {
  /** Default: process.platform. Only 'win32' and 'darwin' are supported. */
  platform?: NodeJS.Platform;
  /** The module the helper requires (package name or absolute path). Default 'node-window-manager'. */
  addonModule?: string;
  /**
   * The displays, from Electron's screen module in the app. Required on macOS (the addon has no
   * display functions there). On Windows optional: when given, its coordinates (DIP) become the
   * backend's and window frames are converted per monitor; otherwise physical pixels.
   */
  monitors?: () => Promise<RawMonitor[]>;
  /** Per request; a helper that misses it is restarted. Default 8000 ms. */
  requestTimeoutMs?: number;
  /**
   * The helper script. Default: nwm-worker.js next to this module, which is right under tsx and
   * vitest. A bundle must ship the file and pass its path (electron-vite:
   * `import workerPath from '…/nwm-worker.js?modulePath'`).
   */
  workerPath?: string;
}

export const DEFAULT_REQUEST_TIMEOUT_MS = 8000;
const CLOSE_TIMEOUT_MS = 20_000;

/** An absolute path for the helper, which does not share this module's resolution paths. */
function resolveModule(name: string): string {
  if (path.isAbsolute(name)) return name;
  try {
    return createRequire(__filename).resolve(name);
  } catch {
    return name; // the helper reports it as a module that could not be loaded
  }
}

export function createNwmWindowBackend(options: NwmBackendOptions = {}): NwmWindowBackend {
  const platform = options.platform ?? process.platform;
  if (platform !== 'win32' && platform !== 'darwin') {
    throw new WindowsUnavailableError(`node-window-manager only supports macOS and Windows, not ${platform}`);
  }
  const requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const client = new NwmWorkerClient({
    workerPath: options.workerPath ?? path.join(__dirname, 'nwm-worker.js'),
    modulePath: resolveModule(options.addonModule ?? 'node-window-manager'),
    platform,
    requestTimeoutMs,
  });
  const config = { client, monitors: options.monitors, closeTimeoutMs: Math.max(requestTimeoutMs, CLOSE_TIMEOUT_MS) };
  return platform === 'darwin' ? new MacNwmBackend(config) : new Win32NwmBackend(config);
}

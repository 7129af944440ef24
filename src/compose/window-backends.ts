import type { RawMonitor, WindowBackend } from '../engine/ports';
import type { WindowBackendChoice } from './window-backend-choice';

// The window backend a choice names, constructed; each one's modules load only when chosen.

export interface WindowBackendOptions {
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  /** Displays from Electron's screen module (macOS's addon has none). */
  monitors?: () => Promise<RawMonitor[]>;
  /** The bundled macOS/Windows window helper. */
  nwmWorkerPath?: string;
}

/**
 * Only the chosen backend's modules are loaded (the others' cost every CLI call). null: none for
 * this session (the choice's reason says why).
 */
export async function windowBackendFor(choice: WindowBackendChoice, opts: WindowBackendOptions): Promise<WindowBackend | null> {
  const env = opts.env ?? process.env;
  switch (choice.kind) {
    case null:
      return null;
    case 'x11': {
      const { createX11WindowBackend } = await import('../platform/windows/x11/x11-backend');
      return createX11WindowBackend({ display: env.DISPLAY });
    }
    case 'sway': {
      const { createSwayWindowBackend } = await import('../platform/windows/sway/sway-backend');
      return createSwayWindowBackend({ env });
    }
    case 'kwin': {
      const { createKwinWindowBackend } = await import('../platform/windows/kwin/kwin-backend');
      return createKwinWindowBackend({ env });
    }
    case 'gnome': {
      const { createGnomeWindowBackend } = await import('../platform/windows/gnome/gnome-backend');
      return createGnomeWindowBackend({ env });
    }
    case 'nwm': {
      const { createNwmWindowBackend } = await import('../platform/windows/nwm/nwm-backend');
      const platform = opts.platform === 'darwin' ? 'darwin' : 'win32';
      return createNwmWindowBackend({ platform, monitors: opts.monitors, workerPath: opts.nwmWorkerPath });
    }
  }
}

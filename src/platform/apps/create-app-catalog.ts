import type { AppCatalog } from '../../engine/ports';
import { createMacCatalog } from './mac-catalog';
import { createUnavailableCatalog } from './unavailable-catalog';
import { createWindowsCatalog } from './windows-catalog';
import { createXdgCatalog } from './xdg-catalog';

/**
 * The catalog for `platform`. `env` decides where apps are looked for (XDG_*, HOME, APPDATA, …)
 * and is the environment launched apps get (DISPLAY, WAYLAND_DISPLAY, …).
 */
export function createAppCatalog(platform: NodeJS.Platform | string = process.platform, env: NodeJS.ProcessEnv = process.env): AppCatalog {
  switch (platform) {
    case 'darwin':
      return createMacCatalog({ env });
    case 'win32':
      return createWindowsCatalog({ env });
    // The BSDs run the same freedesktop.org desktops.
    case 'linux':
    case 'freebsd':
    case 'openbsd':
    case 'netbsd':
      return createXdgCatalog({ env });
    default:
      return createUnavailableCatalog(platform);
  }
}

import type { AppCatalog } from '../../engine/ports';
import { AppLaunchError } from './app-launch-error';

/** For a platform without a catalog: lists nothing, and says so when asked to launch. */
export function createUnavailableCatalog(platform: string): AppCatalog {
  return {
    async list() {
      return [];
    },
    async launch(app) {
      throw new AppLaunchError(app.name, `DeskPilot cannot launch apps on ${platform} yet`);
    },
  };
}

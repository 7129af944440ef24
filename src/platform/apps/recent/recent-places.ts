import { stat } from 'node:fs/promises';
import type { RecentItem } from '../../../protocol/context';
import type { AppCatalog, CatalogApp, RecentPlaces } from '../../../engine/ports';
import { readJetBrainsRecent } from './jetbrains-recent';
import { AppLaunchError } from '../app-launch-error';
import { openPath, openRefusal } from './open-path';
import type { FoundRecent } from './recent-types';
import { VSCODE_FLAVOURS, readEditorRecent } from './vscode-recent';
import { readXbelRecent } from './xbel-recent';

// Recent files and projects for the snapshot (RecentPlaces port), and opening one again.
// Each source is read on every snapshot: the files are small, and a list cached here would
// miss what the user opened a minute ago. A source that cannot be read adds nothing.

export interface RecentPlacesOptions {
  platform?: NodeJS.Platform | string;
  env?: NodeJS.ProcessEnv;
  /** Names the recording apps as the snapshot names installed apps. */
  catalog: AppCatalog;
}

/** The catalog's name for the app a source recorded: by name, or by a window key or program name. */
export function catalogName(found: Pick<FoundRecent, 'app' | 'appKeys'>, catalog: readonly CatalogApp[]): string | null {
  if (!found.app && !found.appKeys.length) return null;
  const byName = catalog.find((a) => a.name.toLowerCase() === found.app?.toLowerCase());
  const byKey = byName ?? catalog.find((a) => a.windowKeys.some((k) => found.appKeys.includes(k)) || found.appKeys.includes(a.name.toLowerCase()));
  return byKey?.name ?? found.app;
}

function toItems(found: readonly FoundRecent[], catalog: readonly CatalogApp[], limit: number): RecentItem[] {
  const seen = new Set<string>();
  return [...found]
    .sort((a, b) => b.orderAt - a.orderAt)
    .filter((f) => !seen.has(f.path) && seen.add(f.path))
    .slice(0, limit)
    .map((f) => ({ path: f.path, app: catalogName(f, catalog), used_at: f.usedAt === null ? null : new Date(f.usedAt).toISOString() }));
}

export function createRecentPlaces(opts: RecentPlacesOptions): RecentPlaces {
  const platform = opts.platform ?? process.platform;
  const env = opts.env ?? process.env;
  /** The installed app named `app`; an app that is not installed is an error, never the default handler in its place. */
  const catalogEntry = async (app: string | null): Promise<CatalogApp | null> => {
    if (app === null) return null;
    const entry = (await opts.catalog.list()).find((a) => a.name === app);
    if (!entry) throw new AppLaunchError(app, 'no installed app has that name');
    return entry;
  };
  return {
    async list(limit) {
      const catalog = opts.catalog.list().catch((): CatalogApp[] => []);
      const [files, editors, jetbrains] = await Promise.all([
        // Only the XDG desktops keep a recent-files list this reads (xbel-recent.ts says what the others keep).
        platform === 'darwin' || platform === 'win32' ? [] : readXbelRecent(env, limit),
        Promise.all(VSCODE_FLAVOURS.map((f) => readEditorRecent(f, platform, env))),
        readJetBrainsRecent(platform, env),
      ]);
      // A project folder that was deleted or renamed cannot be reopened: leave it out.
      const projects: FoundRecent[] = [];
      for (const p of [...editors.flat(), ...jetbrains].sort((a, b) => b.orderAt - a.orderAt)) {
        if (projects.length >= limit * 2) break;
        if (await stat(p.path).then(() => true, () => false)) projects.push(p);
      }
      const apps = await catalog;
      return { files: toItems(files, apps, limit), projects: toItems(projects, apps, limit) };
    },
    async openRefusal(path, app) {
      if (platform === 'darwin' || platform === 'win32') return null; // open says it cannot open anything there
      const entry = await catalogEntry(app);
      return openRefusal(path, entry, env);
    },
    async open(path, app) {
      return openPath(path, await catalogEntry(app), { platform, env });
    },
  };
}

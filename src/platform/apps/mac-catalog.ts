// The macOS app catalog: .app bundles in the usual Applications folders, started with `open`.
import type { Dirent } from 'node:fs';
import { access, readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { AppCatalog, CatalogApp } from '../../engine/ports';
import { AppLaunchError } from './app-launch-error';
import { readPlistStrings } from './info-plist';
import { launchEnv } from './launch-env';
import { runLauncher } from './run-launcher';
import { byName, withUniqueNames } from './unique-names';

export interface MacCatalogOptions {
  /** HOME for ~/Applications, and the environment `open` runs with. Default: process.env. */
  env?: NodeJS.ProcessEnv;
  /** Prefix for the system folders (/Applications, /System/Applications); tests point it at a fake tree. Default "/". */
  root?: string;
  /** Default /usr/bin/open. */
  openCommand?: string;
}

/** Folders searched, in precedence order; each also one level down (/Applications/Utilities, vendor folders). */
export function macApplicationDirs(root: string, home: string | undefined): string[] {
  const dirs = [path.join(root, 'Applications'), path.join(root, 'System', 'Applications')];
  if (home) dirs.push(path.join(home, 'Applications'));
  return dirs;
}

async function entriesOf(dir: string): Promise<Dirent[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => [] as Dirent[]);
  return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** .app bundles directly in `dir` and in its plain (non-bundle) subfolders. */
async function bundlesIn(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await entriesOf(dir)) {
    if (!entry.isDirectory() && !entry.isSymbolicLink()) continue;
    const full = path.join(dir, entry.name);
    if (entry.name.endsWith('.app')) found.push(full);
    else if (entry.isDirectory()) {
      for (const sub of await entriesOf(full)) {
        if ((sub.isDirectory() || sub.isSymbolicLink()) && sub.name.endsWith('.app')) found.push(path.join(full, sub.name));
      }
    }
  }
  return found;
}

/**
 * The catalog entry for one bundle. Name: CFBundleDisplayName, else CFBundleName, else the folder
 * name (also for an Info.plist that cannot be read). windowKeys: the bundle id, the name, the
 * folder name and the executable name, lower-cased — whichever the window backend reports.
 */
export async function readBundle(bundlePath: string): Promise<CatalogApp> {
  const folderName = path.basename(bundlePath).replace(/\.app$/, '');
  const plist = await readFile(path.join(bundlePath, 'Contents', 'Info.plist'))
    .then(readPlistStrings)
    .catch(() => null);
  const get = (key: string) => plist?.get(key)?.trim() || undefined;
  const name = get('CFBundleDisplayName') ?? get('CFBundleName') ?? folderName;
  const keys = [get('CFBundleIdentifier'), name, folderName, get('CFBundleExecutable')]
    .filter((k): k is string => !!k)
    .map((k) => k.toLowerCase());
  return { name, id: bundlePath, windowKeys: [...new Set(keys)] };
}

export function createMacCatalog(opts: MacCatalogOptions = {}): AppCatalog {
  const env = opts.env ?? process.env;
  const root = opts.root ?? '/';
  const openCommand = opts.openCommand ?? '/usr/bin/open';

  return {
    // No cache: a few dozen readdirs and small plist reads, and list() is not on a hot path on macOS yet.
    async list() {
      const seen = new Set<string>();
      const bundles: string[] = [];
      for (const dir of macApplicationDirs(root, env.HOME)) {
        for (const b of await bundlesIn(dir)) {
          if (!seen.has(b)) bundles.push(b);
          seen.add(b);
        }
      }
      const apps = await Promise.all(bundles.map(readBundle));
      // A later duplicate name is qualified by its folder, e.g. "Foo (~/Applications)".
      const folder = (a: CatalogApp) => {
        const dir = path.dirname(a.id);
        if (env.HOME && dir.startsWith(env.HOME + path.sep)) return `~${dir.slice(env.HOME.length)}`;
        return `/${path.relative(root, dir)}`;
      };
      return withUniqueNames(apps, folder).sort(byName);
    },

    async launch(app) {
      if (!(await access(app.id).then(() => true, () => false))) {
        throw new AppLaunchError(app.name, `${app.id} no longer exists`);
      }
      // `open` hands the bundle to LaunchServices and exits; the app's own pid is not known here.
      await runLauncher(app.name, openCommand, ['-a', app.id], { env: launchEnv(env) });
      return { pid: null };
    },
  };
}

// The Windows app catalog: Start-menu shortcuts (.lnk), opened the way Explorer opens them.
import type { Dirent } from 'node:fs';
import { access, readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { AppCatalog, CatalogApp } from '../../engine/ports';
import { AppLaunchError } from './app-launch-error';
import { launchEnv } from './launch-env';
import { readLnkTarget } from './lnk-target';
import { runLauncher } from './run-launcher';
import { byName, withUniqueNames } from './unique-names';

export interface WindowsCatalogOptions {
  /** APPDATA and ProgramData locate the Start menus; also the environment of launched apps. Default: process.env. */
  env?: NodeJS.ProcessEnv;
  /** Default %ComSpec% or cmd.exe. */
  cmdCommand?: string;
}

const START_MENU = ['Microsoft', 'Windows', 'Start Menu', 'Programs'];
const UNINSTALLER = /^uninstall\b/i;
/** Passed through the environment so that %, ^ or & in a shortcut's path never reach cmd's parser. */
const TARGET_VAR = 'DESKPILOT_LAUNCH_TARGET';

/** The per-user Start menu first (it wins for a shortcut at the same place), then the all-users one. */
export function startMenuDirs(env: NodeJS.ProcessEnv): string[] {
  // Windows environment names are case-insensitive; a plain object copy of it is not.
  const get = (name: string) => Object.entries(env).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];
  return [get('APPDATA'), get('ProgramData')].filter((d): d is string => !!d).map((d) => path.join(d, ...START_MENU));
}

interface Shortcut {
  file: string;
  /** Path below its Start menu, lower-cased: the same shortcut in both menus shows once. */
  key: string;
  folder: string;
}

async function shortcutsIn(root: string): Promise<Shortcut[]> {
  const found: Shortcut[] = [];
  async function walk(dir: string): Promise<void> {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => [] as Dirent[]);
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile() && /\.lnk$/i.test(entry.name) && !UNINSTALLER.test(entry.name)) {
        const rel = path.relative(root, full);
        found.push({ file: full, key: rel.toLowerCase(), folder: path.dirname(rel) });
      }
    }
  }
  await walk(root);
  return found;
}

/** name = file name without .lnk; windowKeys = the name and the target's exe name (with and without .exe), lower-cased. */
export async function readShortcut(file: string): Promise<CatalogApp> {
  const name = path.basename(file).replace(/\.lnk$/i, '');
  const target = await readFile(file).then(readLnkTarget, () => null);
  const exe = target ? path.win32.basename(target) : null;
  const keys = [name, exe, exe?.replace(/\.exe$/i, '')].filter((k): k is string => !!k).map((k) => k.toLowerCase());
  return { name, id: file, windowKeys: [...new Set(keys)] };
}

export function createWindowsCatalog(opts: WindowsCatalogOptions = {}): AppCatalog {
  const env = opts.env ?? process.env;
  const cmd = opts.cmdCommand ?? (env.ComSpec || 'cmd.exe');

  return {
    async list() {
      const seen = new Set<string>();
      const shortcuts: Shortcut[] = [];
      for (const root of startMenuDirs(env)) {
        for (const s of await shortcutsIn(root)) {
          if (!seen.has(s.key)) shortcuts.push(s);
          seen.add(s.key);
        }
      }
      const apps = await Promise.all(shortcuts.map((s) => readShortcut(s.file)));
      const folderOf = new Map(shortcuts.map((s) => [s.file, s.folder]));
      // A later duplicate name is qualified by its Start-menu folder, e.g. "Help (Foo Tools)".
      return withUniqueNames(apps, (a) => {
        const folder = folderOf.get(a.id);
        return folder && folder !== '.' ? folder : 'Start menu';
      }).sort(byName);
    },

    async launch(app) {
      if (!(await access(app.id).then(() => true, () => false))) {
        throw new AppLaunchError(app.name, `${app.id} no longer exists`);
      }
      // What Node itself runs for shell: true; `start` opens the shortcut like a double-click would.
      await runLauncher(app.name, cmd, ['/d', '/s', '/c', `"start "" "%${TARGET_VAR}%""`], {
        env: { ...launchEnv(env), [TARGET_VAR]: app.id },
        windowsVerbatimArguments: true,
      });
      return { pid: null };
    },
  };
}

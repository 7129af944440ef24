// The Linux (and other XDG desktops') app catalog: .desktop files in the XDG data directories.
import { readFile, stat } from 'node:fs/promises';
import os from 'node:os';
import type { AppCatalog, CatalogApp } from '../../engine/ports';
import { AppLaunchError } from './app-launch-error';
import { defaultProgram, genericNameOf, pickDefault, shortName, type DefaultKind } from './app-kind';
import { parseDesktopEntry, type DesktopEntry } from './desktop-entry';
import { scanApplicationsDir } from './desktop-files';
import { stampsStillValid, type DirStamp } from './dir-stamps';
import { ExecSyntaxError, execProgramName, expandFieldCodes, tokenizeExec } from './exec-line';
import { findExecutable } from './find-executable';
import { launchEnv } from './launch-env';
import { spawnDetached } from './spawn-detached';
import { byName, withUniqueNames } from './unique-names';
import { xdgApplicationDirs } from './xdg-dirs';

export interface XdgCatalogOptions {
  /**
   * Where to look (XDG_DATA_HOME, XDG_DATA_DIRS, HOME; PATH for TryExec) and what launched apps
   * get (DISPLAY, WAYLAND_DISPLAY, …). Default: process.env.
   */
  env?: NodeJS.ProcessEnv;
}

/** A launchable entry: the catalog view plus what launching needs. */
export interface XdgApp extends CatalogApp {
  /** The .desktop file the entry came from. */
  file: string;
  /** Exec split into arguments with field codes expanded for a launch without files. */
  argv: string[];
  terminal: boolean;
  /** The Path key: the working directory, when set. */
  workingDir: string | undefined;
  /** The program Exec runs (base name), and the entry's Categories: to find the system's default terminal and browser. */
  program: string | undefined;
  categories: string[];
}

const DESKTOP_SUFFIX = /\.desktop$/;

/**
 * What the entry would be in the catalog, or null when it is not listed: not Type=Application,
 * NoDisplay or Hidden, without Name or Exec (D-Bus-only activation is not supported), an Exec
 * that does not parse, or a TryExec program missing under env's PATH.
 */
export function toXdgApp(id: string, file: string, entry: DesktopEntry, env: NodeJS.ProcessEnv): XdgApp | null {
  if (entry.type !== 'Application' || entry.noDisplay || entry.hidden) return null;
  const name = entry.name?.trim();
  if (!name || !entry.exec) return null;
  if (entry.tryExec && !findExecutable(entry.tryExec, env)) return null;
  let argv: string[];
  try {
    argv = expandFieldCodes(tokenizeExec(entry.exec), { name, icon: entry.icon, location: file });
  } catch (err) {
    if (err instanceof ExecSyntaxError) return null;
    throw err;
  }
  if (argv.length === 0) return null;
  const program = execProgramName(argv);
  const keys = [entry.startupWMClass, id.replace(DESKTOP_SUFFIX, ''), program]
    .filter((k): k is string => !!k)
    .map((k) => k.toLowerCase());
  const genericName = genericNameOf(entry.genericName, entry.categories);
  const display = shortName(name, genericName);
  const keywords = [...new Set([...(display !== name ? [name] : []), ...entry.keywords])];
  return {
    name: display,
    id,
    windowKeys: [...new Set(keys)],
    ...(genericName ? { genericName } : {}),
    ...(keywords.length ? { keywords } : {}),
    file,
    argv,
    terminal: entry.terminal,
    workingDir: entry.path,
    program,
    categories: entry.categories,
  };
}

/**
 * The argv and working directory to start `app` with. Terminal=true apps run inside
 * x-terminal-emulator (Debian's alternative, which accepts xterm's "-e program args…") or else xterm.
 */
export function xdgLaunchCommand(app: XdgApp, env: NodeJS.ProcessEnv): { argv: string[]; cwd: string } {
  const cwd = app.workingDir ?? (env.HOME || os.homedir());
  if (!app.terminal) return { argv: app.argv, cwd };
  const terminal = findExecutable('x-terminal-emulator', env) ? 'x-terminal-emulator' : 'xterm';
  return { argv: [terminal, '-e', ...app.argv], cwd };
}

interface Snapshot {
  apps: XdgApp[];
  byId: Map<string, XdgApp>;
  stamps: DirStamp[];
  scannedAtMs: number;
}

async function scan(env: NodeJS.ProcessEnv): Promise<Snapshot> {
  const scannedAtMs = Date.now();
  const dirs = xdgApplicationDirs(env);
  const scans = await Promise.all(dirs.map(scanApplicationsDir));
  // The first file with a given id wins, even when it is hidden: that is how a user's own
  // Hidden=true or NoDisplay=true copy removes a system entry.
  const firstById = new Map<string, string>();
  for (const { files } of scans) for (const f of files) if (!firstById.has(f.id)) firstById.set(f.id, f.file);
  const parsed = await Promise.all(
    [...firstById].map(async ([id, file]) => {
      const text = await readFile(file, 'utf8').catch(() => null);
      const entry = text === null ? null : parseDesktopEntry(text);
      return entry && toXdgApp(id, file, entry, env);
    }),
  );
  const apps = withUniqueNames(
    parsed.filter((a): a is XdgApp => a !== null),
    (a) => a.id.replace(DESKTOP_SUFFIX, ''),
  ).sort(byName);
  markDefaults(apps, env);
  return { apps, byId: new Map(apps.map((a) => [a.id, a])), stamps: scans.flatMap((s) => s.stamps), scannedAtMs };
}

/** Marks the system's default terminal and browser among the entries. */
function markDefaults(apps: XdgApp[], env: NodeJS.ProcessEnv): void {
  for (const kind of ['terminal', 'browser'] as DefaultKind[]) {
    const app = pickDefault(kind, defaultProgram(kind, env), apps);
    if (app) app.defaultFor = [...(app.defaultFor ?? []), kind];
  }
}

export function createXdgCatalog(opts: XdgCatalogOptions = {}): AppCatalog {
  const env = opts.env ?? process.env;
  let snapshot: Snapshot | null = null;
  let pending: Promise<Snapshot> | null = null;

  const current = (): Promise<Snapshot> => {
    pending ??= (async () => {
      try {
        if (snapshot && (await stampsStillValid(snapshot.stamps, snapshot.scannedAtMs))) return snapshot;
        snapshot = await scan(env);
        return snapshot;
      } finally {
        pending = null;
      }
    })();
    return pending;
  };

  return {
    async list() {
      return (await current()).apps.map(({ name, id, windowKeys, genericName, keywords, defaultFor }) => ({
        name,
        id,
        windowKeys: [...windowKeys],
        ...(genericName ? { genericName } : {}),
        ...(keywords ? { keywords: [...keywords] } : {}),
        ...(defaultFor ? { defaultFor: [...defaultFor] } : {}),
      }));
    },

    async launch(requested) {
      const app = (await current()).byId.get(requested.id);
      if (!app) throw new AppLaunchError(requested.name, `it is no longer installed (no ${requested.id})`);
      // Checked here so the error names the app's own program, not the terminal wrapping it.
      if (!findExecutable(app.argv[0]!, env)) throw new AppLaunchError(app.name, `${app.argv[0]} not found`);
      const { argv, cwd } = xdgLaunchCommand(app, env);
      if (!(await stat(cwd).then((s) => s.isDirectory(), () => false))) {
        throw new AppLaunchError(app.name, `its working directory ${cwd} does not exist`);
      }
      const pid = await spawnDetached(argv, { appName: app.name, cwd, env: launchEnv(env) });
      return { pid };
    },
  };
}

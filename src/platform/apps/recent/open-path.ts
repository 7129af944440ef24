import { readFile, stat } from 'node:fs/promises';
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import type { CatalogApp } from '../../../engine/ports';
import { AppLaunchError } from '../app-launch-error';
import { parseDesktopEntry, type DesktopEntry } from '../desktop-entry';
import { scanApplicationsDir } from '../desktop-files';
import { ExecSyntaxError, expandFieldCodes, tokenizeExec, type FieldCodeContext } from '../exec-line';
import { findExecutable } from '../find-executable';
import { launchEnv } from '../launch-env';
import { appRunsFile, defaultHandlerRunsFile } from './run-risk';
import { spawnDetached } from '../spawn-detached';
import { toXdgApp, xdgLaunchCommand, type XdgApp } from '../xdg-catalog';
import { xdgApplicationDirs } from '../xdg-dirs';

// Opening a file or folder again: in a named app (its .desktop Exec line with the file filled
// in, as a desktop's "Open With" does) or with the desktop's default handler (xdg-open).
// Implemented for the XDG desktops only; macOS would run `open [-a App] path`, Windows
// ShellExecute — neither can be tried on this machine, so they say so instead.

export interface OpenPathOptions {
  platform: NodeJS.Platform | string;
  env: NodeJS.ProcessEnv;
}

/**
 * Exec arguments with the file filled in: %f/%F become the path, %u/%U its file:// URL, the
 * other field codes expand as for a plain launch. An Exec line with no file code gets the path
 * appended, as GLib does for "Open With". The file goes in after expansion: a URL's own "%20"
 * is not a field code.
 */
export function execWithFile(args: readonly string[], file: string, ctx: FieldCodeContext): string[] {
  const url = pathToFileURL(file).href;
  let filled = false;
  const out = args.flatMap((a) => {
    if (a === '%f' || a === '%F') return (filled = true), [file];
    if (a === '%u' || a === '%U') return (filled = true), [url];
    return expandFieldCodes([a], ctx);
  });
  return filled ? out : [...out, file];
}

async function desktopFileOf(id: string, env: NodeJS.ProcessEnv): Promise<string | null> {
  for (const dir of xdgApplicationDirs(env)) {
    const hit = (await scanApplicationsDir(dir)).files.find((f) => f.id === id);
    if (hit) return hit.file;
  }
  return null;
}

interface ReadEntry {
  desktop: string;
  entry: DesktopEntry;
  xdg: XdgApp;
  args: string[];
}

/** The app's desktop entry as it is on disk now, its Exec line split (field codes kept). */
async function readEntry(app: CatalogApp, env: NodeJS.ProcessEnv): Promise<ReadEntry> {
  const desktop = await desktopFileOf(app.id, env);
  const text = desktop && (await readFile(desktop, 'utf8').catch(() => null));
  const entry = text ? parseDesktopEntry(text) : null;
  const xdg = entry && desktop ? toXdgApp(app.id, desktop, entry, env) : null;
  if (!xdg || !entry?.exec || !desktop) throw new AppLaunchError(app.name, `its desktop entry ${app.id} is gone or cannot be read`);
  try {
    return { desktop, entry, xdg, args: tokenizeExec(entry.exec) };
  } catch (e) {
    if (e instanceof ExecSyntaxError) throw new AppLaunchError(app.name, e.message);
    throw e;
  }
}

/**
 * Why `file` must not be opened in `app` (null: the default handler): the app, or the default
 * handler with this file, would run it instead of showing it. Null when it may be opened.
 */
export async function openRefusal(file: string, app: CatalogApp | null, env: NodeJS.ProcessEnv): Promise<string | null> {
  if (!app) return defaultHandlerRunsFile(file);
  const { entry, args } = await readEntry(app, env);
  return appRunsFile({ name: app.name, categories: entry.categories, defaultFor: app.defaultFor }, args);
}

async function argvFor(app: CatalogApp, file: string, env: NodeJS.ProcessEnv): Promise<{ argv: string[]; cwd: string }> {
  const { desktop, entry, xdg, args } = await readEntry(app, env);
  const risk = appRunsFile({ name: app.name, categories: entry.categories, defaultFor: app.defaultFor }, args);
  if (risk) throw new AppLaunchError(app.name, `not opened: ${risk}`);
  const argv = execWithFile(args, file, { name: xdg.name, icon: entry.icon, location: desktop });
  return xdgLaunchCommand({ ...xdg, argv }, env);
}

/** Starts the app (or the default handler) on `file`; resolves once the process is spawned. */
export async function openPath(file: string, app: CatalogApp | null, opts: OpenPathOptions): Promise<{ pid: number | null }> {
  const { platform, env } = opts;
  if (platform === 'darwin' || platform === 'win32') {
    throw new AppLaunchError(app?.name ?? 'the default app', `opening recent items is implemented for Linux desktops only so far (not ${platform})`);
  }
  if (!(await stat(file).then(() => true, () => false))) throw new AppLaunchError(app?.name ?? 'the default app', `${file} no longer exists`);
  if (!app) {
    const risk = await defaultHandlerRunsFile(file);
    if (risk) throw new AppLaunchError('the default app', `not opened: ${risk}`);
  }
  const { argv, cwd } = app ? await argvFor(app, file, env) : { argv: ['xdg-open', file], cwd: env.HOME || os.homedir() };
  if (!findExecutable(argv[0]!, env)) throw new AppLaunchError(app?.name ?? 'xdg-open', `${argv[0]} not found`);
  const pid = await spawnDetached(argv, { appName: app?.name ?? 'xdg-open', cwd, env: launchEnv(env) });
  return { pid };
}

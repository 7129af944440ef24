import { readFile, stat } from 'node:fs/promises';
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import type { CatalogApp } from '../../../engine/ports';
import { AppLaunchError } from '../app-launch-error';
import { parseDesktopEntry } from '../desktop-entry';
import { scanApplicationsDir } from '../desktop-files';
import { ExecSyntaxError, expandFieldCodes, tokenizeExec, type FieldCodeContext } from '../exec-line';
import { findExecutable } from '../find-executable';
import { launchEnv } from '../launch-env';
import { spawnDetached } from '../spawn-detached';
import { toXdgApp, xdgLaunchCommand } from '../xdg-catalog';
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

async function argvFor(app: CatalogApp, file: string, env: NodeJS.ProcessEnv): Promise<{ argv: string[]; cwd: string }> {
  const desktop = await desktopFileOf(app.id, env);
  const text = desktop && (await readFile(desktop, 'utf8').catch(() => null));
  const entry = text ? parseDesktopEntry(text) : null;
  const xdg = entry && desktop ? toXdgApp(app.id, desktop, entry, env) : null;
  if (!xdg || !entry?.exec) throw new AppLaunchError(app.name, `its desktop entry ${app.id} is gone or cannot be read`);
  let argv: string[];
  try {
    argv = execWithFile(tokenizeExec(entry.exec), file, { name: xdg.name, icon: entry.icon, location: desktop! });
  } catch (e) {
    if (e instanceof ExecSyntaxError) throw new AppLaunchError(app.name, e.message);
    throw e;
  }
  return xdgLaunchCommand({ ...xdg, argv }, env);
}

/** Starts the app (or the default handler) on `file`; resolves once the process is spawned. */
export async function openPath(file: string, app: CatalogApp | null, opts: OpenPathOptions): Promise<{ pid: number | null }> {
  const { platform, env } = opts;
  if (platform === 'darwin' || platform === 'win32') {
    throw new AppLaunchError(app?.name ?? 'the default app', `opening recent items is implemented for Linux desktops only so far (not ${platform})`);
  }
  if (!(await stat(file).then(() => true, () => false))) throw new AppLaunchError(app?.name ?? 'the default app', `${file} no longer exists`);
  const { argv, cwd } = app
    ? await argvFor(app, file, env)
    : { argv: ['xdg-open', file], cwd: env.HOME || os.homedir() };
  if (!findExecutable(argv[0]!, env)) throw new AppLaunchError(app?.name ?? 'xdg-open', `${argv[0]} not found`);
  const pid = await spawnDetached(argv, { appName: app?.name ?? 'xdg-open', cwd, env: launchEnv(env) });
  return { pid };
}

// Putting DeskPilot's GNOME Shell extension where GNOME Shell looks for a user's extensions, and
// enabling it. Enabling goes through gsettings (org.gnome.shell enabled-extensions), not
// `gnome-extensions enable`: that asks the running shell, which does not know an extension
// installed since it started ("does not exist") — and on Wayland it loads one only at login.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { errorMessage } from '../../../engine/errors';
import { EXTENSION_UUID } from './extension-answers';
import { assembleExtension, type ExtensionForm } from './extension-forms';

const GSETTINGS_TIMEOUT_MS = 10_000;

/** The extension's folder in this checkout or package (resources), or null when it cannot be found. */
export function extensionSourceDir(): string | null {
  const ups = ['..', '../..', '../../..', '../../../..', '../../../../..'];
  const resourcesPath = (process as { resourcesPath?: string }).resourcesPath;
  const candidates = [
    ...(resourcesPath ? [path.join(resourcesPath, 'gnome-extension', EXTENSION_UUID)] : []),
    ...ups.map((up) => path.resolve(__dirname, up, 'gnome-extension', EXTENSION_UUID)),
  ];
  return candidates.find((d) => existsSync(path.join(d, 'metadata.json'))) ?? null;
}

/** ~/.local/share/gnome-shell/extensions/<uuid> (XDG_DATA_HOME when set). */
export function extensionTargetDir(env: NodeJS.ProcessEnv, home: string): string {
  const dataHome = env.XDG_DATA_HOME && path.isAbsolute(env.XDG_DATA_HOME) ? env.XDG_DATA_HOME : path.join(home, '.local', 'share');
  return path.join(dataHome, 'gnome-shell', 'extensions', EXTENSION_UUID);
}

/** Writes the extension in the given form (extension.js, metadata.json); says whether it was new, different, or already the same. */
export async function copyExtension(source: string, target: string, form: ExtensionForm): Promise<'created' | 'replaced' | 'unchanged'> {
  const files = await assembleExtension(source, form);
  const existed = existsSync(target);
  if (existed && (await sameFiles(files, target))) return 'unchanged';
  // Replace, not merge: a file a newer version dropped must not linger.
  await rm(target, { recursive: true, force: true });
  await mkdir(target, { recursive: true });
  for (const [name, text] of files) await writeFile(path.join(target, name), text);
  return existed ? 'replaced' : 'created';
}

export async function removeExtension(target: string): Promise<boolean> {
  if (!existsSync(target)) return false;
  await rm(target, { recursive: true, force: true });
  return true;
}

async function sameFiles(files: Map<string, string>, dir: string): Promise<boolean> {
  const present = await readdir(dir).catch(() => [] as string[]);
  if (present.length !== files.size || present.some((f) => !files.has(f))) return false;
  for (const [name, text] of files) {
    const now = await readFile(path.join(dir, name), 'utf8').catch(() => null);
    if (now !== text) return false;
  }
  return true;
}

/** The version field of an extension folder's metadata.json, or null. */
export async function installedVersion(dir: string): Promise<number | null> {
  try {
    const meta = JSON.parse(await readFile(path.join(dir, 'metadata.json'), 'utf8')) as { version?: unknown };
    return typeof meta.version === 'number' ? meta.version : null;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------
// gsettings: org.gnome.shell enabled-extensions / disabled-extensions (GVariant string arrays)

/** The strings of a GVariant string array as gsettings prints it: "['a@b', 'c']" or "@as []". */
export function parseStringArray(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"/g)) out.push((m[1] ?? m[2] ?? '').replace(/\\(.)/g, '$1'));
  return out;
}

export function formatStringArray(items: readonly string[]): string {
  return `[${items.map((s) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`).join(', ')}]`;
}

function gsettings(env: NodeJS.ProcessEnv, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('gsettings', args, { env, timeout: GSETTINGS_TIMEOUT_MS }, (err, stdout, stderr) => {
      if (err) reject(new Error((stderr || errorMessage(err)).trim()));
      // dconf reports a failed write on stderr and may still exit 0.
      else if (args[0] === 'set' && /error|failed/i.test(stderr)) reject(new Error(stderr.trim()));
      else resolve(stdout.trim());
    });
  });
}

export interface ShellSettings {
  enabled: boolean;
  disabled: boolean;
  /** org.gnome.shell disable-user-extensions: when true GNOME loads no user extension at all. */
  userExtensionsOff: boolean;
}

export async function readShellSettings(env: NodeJS.ProcessEnv): Promise<ShellSettings> {
  const [enabled, disabled, off] = await Promise.all([
    gsettings(env, ['get', 'org.gnome.shell', 'enabled-extensions']),
    gsettings(env, ['get', 'org.gnome.shell', 'disabled-extensions']),
    gsettings(env, ['get', 'org.gnome.shell', 'disable-user-extensions']),
  ]);
  return {
    enabled: parseStringArray(enabled).includes(EXTENSION_UUID),
    disabled: parseStringArray(disabled).includes(EXTENSION_UUID),
    userExtensionsOff: off === 'true',
  };
}

/** Adds (or removes) the extension in enabled-extensions, and takes it out of disabled-extensions; read back to be sure. */
export async function setEnabled(env: NodeJS.ProcessEnv, on: boolean): Promise<void> {
  const key = async (name: string, change: (items: string[]) => string[]) => {
    const before = parseStringArray(await gsettings(env, ['get', 'org.gnome.shell', name]));
    const after = change(before.filter((u) => u !== EXTENSION_UUID));
    if (after.length === before.length && after.every((u, i) => u === before[i])) return;
    await gsettings(env, ['set', 'org.gnome.shell', name, formatStringArray(after)]);
  };
  await key('enabled-extensions', (rest) => (on ? [...rest, EXTENSION_UUID] : rest));
  await key('disabled-extensions', (rest) => rest);
  const now = await readShellSettings(env);
  if (now.enabled !== on) throw new Error(`gsettings did not keep the change (enabled-extensions ${on ? 'lacks' : 'still has'} ${EXTENSION_UUID})`);
}

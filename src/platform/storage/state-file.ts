import { constants, type Stats } from 'node:fs';
import { lstat, mkdir, open, realpath, rename, rm, stat, writeFile, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { errorMessage } from '../../engine/errors';

// Reading and writing DeskPilot's own files in the config dir (config.json, presets.json,
// undo.json, turns.json, history.jsonl, device-id, secrets.json). They are the user's files:
// anything that is not a plain readable file is reported by name and left exactly as it is.
// Opening is non-blocking, so a named pipe (FIFO) put in a file's place cannot hang DeskPilot;
// writes go to a temp file renamed over the old one, so a crash never leaves half a file,
// and a failed write removes its temp file.

export class StateFileError extends Error {
  override name = 'StateFileError';
}

// Windows has no O_NONBLOCK (and no FIFOs in the file system).
const NONBLOCK = constants.O_NONBLOCK ?? 0;

const isMissing = (e: unknown) => (e as NodeJS.ErrnoException).code === 'ENOENT';

/** The reason in a few words; the file name is added by the caller, once. */
export function reasonOf(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'ENOTDIR') return 'a folder on its path is a file';
  if (code === 'ENOSPC') return 'the disk is full';
  if (code === 'EROFS') return 'the file system is read-only';
  return errorMessage(e);
}

function kindOf(s: Stats): string {
  if (s.isDirectory()) return 'a directory';
  if (s.isFIFO()) return 'a named pipe (FIFO)';
  if (s.isSocket()) return 'a socket';
  if (s.isCharacterDevice() || s.isBlockDevice()) return 'a device';
  if (s.isSymbolicLink()) return 'a symbolic link to nothing';
  return 'not a regular file';
}

const notAFile = (file: string, s: Stats) =>
  new StateFileError(`${file}: is ${kindOf(s)}, not a file; DeskPilot leaves it as it is — move it away (DeskPilot then starts a new one)`);

/** Opens a state file that must be a regular file; null when it does not exist. `at` may be its resolved path. */
async function openRegular(file: string, flags: number, verb: 'read' | 'written', at = file): Promise<FileHandle | null> {
  let handle: FileHandle;
  try {
    handle = await open(at, flags | NONBLOCK, PRIVATE_FILE);
  } catch (e) {
    if (isMissing(e)) return null;
    // A directory (EISDIR), a FIFO without a reader (ENXIO), a socket: say what is there.
    const s = await stat(at).catch(() => null);
    if (s && !s.isFile()) throw notAFile(file, s);
    throw new StateFileError(`${file}: cannot be ${verb} (${reasonOf(e)})`);
  }
  const s = await handle.stat().catch(async (e: unknown) => {
    await handle.close();
    throw new StateFileError(`${file}: cannot be ${verb} (${reasonOf(e)})`);
  });
  if (!s.isFile()) {
    await handle.close();
    throw notAFile(file, s);
  }
  return handle;
}

/** A UTF-8 byte order mark (Notepad adds one) is not part of the content. */
const stripBom = (text: string) => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);

/** The text of a state file, or null when there is none. */
export async function readStateText(file: string): Promise<string | null> {
  const handle = await openRegular(file, constants.O_RDONLY, 'read');
  if (!handle) return null;
  try {
    return stripBom(await handle.readFile('utf8'));
  } catch (e) {
    throw new StateFileError(`${file}: cannot be read (${reasonOf(e)})`);
  } finally {
    await handle.close();
  }
}

/**
 * Where the file's bytes live: through a symlinked file or config dir, so a user's symlink
 * (a dotfiles repo) is written through rather than replaced, and every process that reaches
 * the same file by another path takes the same lock.
 */
export async function resolveStatePath(file: string): Promise<string> {
  try {
    return await realpath(file);
  } catch {
    const dir = path.dirname(path.resolve(file));
    const realDir = await realpath(dir).catch(() => dir);
    return path.join(realDir, path.basename(file));
  }
}

/** Only this user may read them: tab titles, URLs and typed requests are private (issue 24, D9). */
export const PRIVATE_DIR = 0o700;
export const PRIVATE_FILE = 0o600;

export async function ensureStateDir(file: string): Promise<void> {
  try {
    await mkdir(path.dirname(file), { recursive: true, mode: PRIVATE_DIR });
  } catch (e) {
    throw new StateFileError(`${file}: cannot be written: its folder cannot be created (${reasonOf(e)})`);
  }
}

let tmpCounter = 0;

/**
 * Replaces a state file's content all at once. `mode` caps the permissions (default 0o600: the
 * user only); a file the user has restricted further keeps its restrictions.
 */
export async function writeStateText(file: string, text: string, mode = PRIVATE_FILE): Promise<void> {
  await ensureStateDir(file);
  const target = await resolveStatePath(file);
  const existing = await lstat(target).catch((e: unknown) => {
    if (isMissing(e)) return null;
    throw new StateFileError(`${file}: cannot be written (${reasonOf(e)})`);
  });
  if (existing && !existing.isFile()) throw notAFile(file, existing);
  const tmp = `${target}.${process.pid}.${++tmpCounter}.tmp`;
  try {
    await writeFile(tmp, text, { encoding: 'utf8', flag: 'wx', mode: mode & (existing ? existing.mode : 0o777) });
    await rename(tmp, target);
  } catch (e) {
    await rm(tmp, { force: true }).catch(() => undefined);
    throw new StateFileError(`${file}: cannot be written (${reasonOf(e)})`);
  }
}

/**
 * Appends to a state file (created when missing) and returns its new size. A line left
 * without its newline (a crash mid-append) is ended first, so it cannot swallow the next one.
 */
export async function appendStateText(file: string, text: string): Promise<number> {
  await ensureStateDir(file);
  const flags = constants.O_RDWR | constants.O_APPEND | constants.O_CREAT;
  const handle = await openRegular(file, flags, 'written', await resolveStatePath(file));
  if (!handle) throw new StateFileError(`${file}: cannot be written (it vanished while being opened)`);
  try {
    const { size } = await handle.stat();
    const last = Buffer.alloc(1);
    if (size > 0 && (await handle.read(last, 0, 1, size - 1)).bytesRead === 1 && last[0] !== 0x0a) text = '\n' + text;
    const bytes = Buffer.from(text, 'utf8');
    await handle.writeFile(bytes);
    return size + bytes.length;
  } catch (e) {
    throw new StateFileError(`${file}: cannot be written (${reasonOf(e)})`);
  } finally {
    await handle.close();
  }
}

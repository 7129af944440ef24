import { chmod as chmodCb, lstat as lstatCb, mkdir as mkdirCb, type Stats } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

// node:fs, not node:fs/promises: the thin client (every warm CLI call) loads this file, and
// fs/promises brings half a dozen more of Node's modules (~2 ms) for these three calls.
const lstat: (p: string) => Promise<Stats> = promisify(lstatCb);
const chmod: (p: string, mode: number) => Promise<void> = promisify(chmodCb);
const mkdir: (p: string, o: { recursive: true; mode: number }) => Promise<string | undefined> = promisify(mkdirCb);

// The folder the service socket lives in must be this user's alone. Whoever owns it (or may
// write to it) could remove the socket and put their own in its place, then read every
// request the CLI sends and answer with anything: so a folder owned by someone else is
// refused, and one this user owns is tightened to 0700 (it holds nothing but the socket).

export class SocketFolderError extends Error {}

const myUid = () => (typeof process.getuid === 'function' ? process.getuid() : null);

/** Creates the socket's folder 0700, or checks and tightens an existing one; throws when it is not ours. */
export async function ensurePrivateFolder(socketPath: string): Promise<void> {
  const dir = path.dirname(socketPath);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const st = await lstat(dir);
  if (!st.isDirectory()) throw new SocketFolderError(`${dir} is not a folder (a link or a file is there): the DeskPilot service does not listen there`);
  const uid = myUid();
  if (uid !== null && st.uid !== uid) {
    throw new SocketFolderError(`${dir} belongs to another user (uid ${st.uid}): the DeskPilot service does not listen in a folder someone else controls`);
  }
  if ((st.mode & 0o077) !== 0) await chmod(dir, 0o700);
}

/**
 * Whether a socket found there can be trusted as this user's service: the socket and its
 * folder are this user's, and nobody else may write to the folder.
 */
export async function trustedSocket(socketPath: string): Promise<boolean> {
  const uid = myUid();
  if (uid === null) return true;
  try {
    const [sock, dir] = await Promise.all([lstat(socketPath), lstat(path.dirname(socketPath))]);
    return sock.isSocket() && sock.uid === uid && dir.isDirectory() && dir.uid === uid && (dir.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

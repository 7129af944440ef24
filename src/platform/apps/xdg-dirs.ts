import os from 'node:os';
import path from 'node:path';

/**
 * The applications directories in precedence order (XDG Base Directory Specification):
 * $XDG_DATA_HOME (default ~/.local/share), then each of $XDG_DATA_DIRS (default
 * /usr/local/share:/usr/share), each with /applications. Relative entries are invalid per spec
 * and ignored.
 */
export function xdgApplicationDirs(env: NodeJS.ProcessEnv): string[] {
  const home = env.HOME || os.homedir();
  const absolute = (p: string | undefined): p is string => !!p && path.isAbsolute(p);
  const dataHome = absolute(env.XDG_DATA_HOME) ? env.XDG_DATA_HOME : path.join(home, '.local', 'share');
  const listed = (env.XDG_DATA_DIRS ?? '').split(':').filter(absolute);
  const dataDirs = listed.length > 0 ? listed : ['/usr/local/share', '/usr/share'];
  return [...new Set([dataHome, ...dataDirs].map((d) => path.join(d, 'applications')))];
}

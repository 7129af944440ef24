import { accessSync, constants as fsConstants, statSync } from 'node:fs';
import path from 'node:path';

function isExecutableFile(file: string): boolean {
  try {
    accessSync(file, fsConstants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The absolute path `command` runs as under `env`'s PATH (a path with a slash is taken as is), or null. */
export function findExecutable(command: string, env: NodeJS.ProcessEnv): string | null {
  if (command.includes('/')) return isExecutableFile(command) ? path.resolve(command) : null;
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const file = path.join(dir, command);
    if (isExecutableFile(file)) return file;
  }
  return null;
}

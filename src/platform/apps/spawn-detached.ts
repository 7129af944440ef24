import { AppLaunchError } from './app-launch-error';

export interface SpawnDetachedOptions {
  appName: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/**
 * Starts argv as the leader of its own process group with no stdio, so it outlives DeskPilot and
 * never shares its terminal or signals. Resolves with the pid once the process exists; a
 * missing or non-executable program rejects with an AppLaunchError naming it.
 */
export async function spawnDetached(argv: readonly string[], opts: SpawnDetachedOptions): Promise<number> {
  const [command, ...args] = argv;
  if (!command) throw new AppLaunchError(opts.appName, 'its command line is empty');
  // Loaded when an app is started, not with the module: most CLI calls start nothing.
  const { spawn } = await import('node:child_process');
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: opts.cwd, env: opts.env, detached: true, stdio: 'ignore' });
    child.once('error', (err: NodeJS.ErrnoException) => {
      const reason =
        err.code === 'ENOENT'
          ? `${command} not found`
          : err.code === 'EACCES'
            ? `${command} is not executable`
            : `${command} failed to start (${err.message})`;
      reject(new AppLaunchError(opts.appName, reason));
    });
    child.once('spawn', () => {
      child.removeAllListeners('error');
      child.on('error', () => {}); // a later error (e.g. a failed kill) is not ours to report
      child.unref();
      resolve(child.pid!);
    });
  });
}

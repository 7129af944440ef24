import { AppLaunchError } from './app-launch-error';

const TIMEOUT_MS = 15_000;

/**
 * Runs a short-lived launcher (macOS `open`, Windows `cmd /c start`) that hands the app to the OS
 * and exits; rejects with an AppLaunchError carrying what the launcher said on failure.
 */
export async function runLauncher(
  appName: string,
  command: string,
  args: string[],
  opts: { env: NodeJS.ProcessEnv; windowsVerbatimArguments?: boolean },
): Promise<void> {
  // Loaded when an app is started, not with the module: most CLI calls start nothing.
  const { execFile } = await import('node:child_process');
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      { env: opts.env, timeout: TIMEOUT_MS, windowsHide: true, windowsVerbatimArguments: opts.windowsVerbatimArguments },
      (err, _stdout, stderr) => {
        if (!err) return resolve();
        const e = err as NodeJS.ErrnoException & { killed?: boolean };
        const said = String(stderr).trim().split('\n')[0];
        const reason =
          e.code === 'ENOENT'
            ? `${command} not found`
            : e.killed
              ? `${command} did not finish within ${TIMEOUT_MS / 1000} s`
              : `${command} failed${said ? `: ${said}` : ` (${e.message.trim()})`}`;
        reject(new AppLaunchError(appName, reason));
      },
    );
  });
}

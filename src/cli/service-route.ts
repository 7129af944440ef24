import path from 'node:path';
import { defaultConfigDir } from '../platform/config/config-dir';
import type { ConfigFlags } from '../platform/config/load-config';

// Whether a CLI call goes to the warm service, and which service: decided from flags and
// environment alone (no file read, no argument parser), so the thin client can decide it too.

/** The config directory from flags and environment alone: enough to find the socket. A relative one is in `cwd`. */
export function configDirFrom(flags: Pick<ConfigFlags, 'configDir'>, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): string {
  const dir = flags.configDir || env.DESKPILOT_CONFIG_DIR || undefined;
  return dir ? path.resolve(cwd, dir) : defaultConfigDir(env);
}

/** Flags that change how the engine is wired cannot be honoured by a service wired already. */
export const wantsOwnWiring = (flags: ConfigFlags) => Boolean(flags.chromeUrl || flags.allowRemoteChrome);

/** Whether to look for the service: not with --no-service or DESKPILOT_NO_SERVICE=1, nor with wiring flags. */
export function serviceAllowed(flags: ConfigFlags, env: NodeJS.ProcessEnv = process.env): boolean {
  return !flags.noService && env.DESKPILOT_NO_SERVICE !== '1' && !wantsOwnWiring(flags);
}

/** Commands whose work is the desk's (and help): the thin client may have the service run them. */
const SERVED_COMMANDS = new Set(['context', 'exec', 'plan', 'run', 'presets', 'undo', 'help']);
/** Options that make a call run in the CLI's own process (see serviceAllowed). */
const OWN_PROCESS_OPTIONS = ['--no-service', '--chrome-url', '--allow-remote-chrome'];

/**
 * Whether the service may run this whole CLI call for the thin client, read from the raw
 * arguments: only the desk's commands, and nothing that needs this process — standard input
 * (`-`), the wiring options, `--no-service`. Anything unusual (`--`, an option before the
 * command other than --config-dir or --help) runs in the CLI's own process: only slower, never
 * different. Returns the --config-dir the arguments give (undefined: none), or null.
 */
export function forwardable(argv: readonly string[], env: NodeJS.ProcessEnv): { configDir: string | undefined } | null {
  if (env.DESKPILOT_NO_SERVICE === '1') return null;
  let configDir: string | undefined;
  let command: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '-' || a === '--') return null;
    if (OWN_PROCESS_OPTIONS.some((o) => a === o || a.startsWith(`${o}=`))) return null;
    if (a === '--config-dir') {
      configDir = argv[++i];
      if (configDir === undefined) return null;
    } else if (a.startsWith('--config-dir=')) {
      configDir = a.slice('--config-dir='.length);
    } else if (command === undefined && a.startsWith('-') && a !== '--help' && a !== '-h') {
      return null;
    } else if (command === undefined && !a.startsWith('-')) {
      command = a;
    }
  }
  return command === undefined || SERVED_COMMANDS.has(command) ? { configDir } : null;
}

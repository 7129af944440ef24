import os from 'node:os';
import path from 'node:path';

// What `deskpilot service install` writes so the warm service starts with the user's session:
// a systemd user unit on Linux, a LaunchAgent on macOS. Pure text here; unit-install.ts
// writes, checks and removes the files. Both carry a marker line, so install and uninstall
// only ever replace or remove a file DeskPilot wrote itself.

export const UNIT_MARKER = 'deskpilot-service-unit';
export const SYSTEMD_UNIT = 'deskpilot';
export const SYSTEMD_UNIT_NAME = `${SYSTEMD_UNIT}.service`;
export const LAUNCH_AGENT_LABEL = 'app.deskpilot.service';

/** The command the unit starts: `node --max-semi-space-size=2 bin/deskpilot.js service [--config-dir DIR]`, every path absolute. */
export interface ServiceCommandLine {
  node: string;
  bin: string;
  /** Only when it is not the platform's default (the unit has none of the user's shell environment). */
  configDir?: string;
}

/**
 * Node's options for the long-lived service: a small young generation. Under load V8 grows it
 * to 16 MiB per semi-space, and a mostly idle process keeps it; at 2 MiB the service with 100
 * tabs stays ~11 MiB smaller (95 against 106 MiB resident), for more and smaller scavenges.
 * V8 reads this only when the process starts, so it is part of the command line.
 */
export const SERVICE_NODE_OPTIONS: readonly string[] = ['--max-semi-space-size=2'];

/**
 * The service's environment beyond the session's. glibc's malloc gives each thread that
 * allocates an arena of its own (up to 8 per core), and freed memory stays resident in each:
 * the soak (bench/soak-bench.ts) found the service's 12 threads with 10 arenas besides the main
 * one, and its resident growth under use in malloc, not in V8's heap. With two arenas malloc held
 * less at every reading of the same soak (3.5 to 20 MiB less, run to run); the growth itself
 * stays (docs/performance.md). The service's threads (V8's and libuv's) are mostly idle, so
 * they rarely wait on a shared arena. The growth is freed memory malloc keeps: glibc raises its
 * mmap threshold (and its trim threshold to twice that) as large blocks are freed, so later ones
 * come from the heap and stay resident. Both fixed at 128 KiB, the soak ended within 10% in two
 * runs of 10,000 calls (+3.1%, +0.8%; the unit without them: +26%, +1.4%), at a lower end level.
 * Other C libraries ignore these variables.
 */
export const SERVICE_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_TRIM_THRESHOLD_: '131072' };

export function serviceArgv(c: ServiceCommandLine): string[] {
  return [c.node, ...SERVICE_NODE_OPTIONS, c.bin, 'service', ...(c.configDir ? ['--config-dir', c.configDir] : [])];
}

/** Whether a unit file's text was written by `deskpilot service install`. */
export const isOurUnit = (text: string): boolean => text.includes(UNIT_MARKER);

export interface UnitLocation {
  kind: 'systemd' | 'launchd';
  file: string;
}

/** Where the unit goes on this platform, or null where install is not supported (Windows). */
export function unitLocation(platform: NodeJS.Platform, env: NodeJS.ProcessEnv = process.env, home: string = os.homedir()): UnitLocation | null {
  if (platform === 'darwin') return { kind: 'launchd', file: path.join(home, 'Library', 'LaunchAgents', `${LAUNCH_AGENT_LABEL}.plist`) };
  if (platform === 'win32') return null;
  // The XDG spec ignores a relative XDG_CONFIG_HOME; so does systemd.
  const configHome = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(home, '.config');
  return { kind: 'systemd', file: path.join(configHome, 'systemd', 'user', SYSTEMD_UNIT_NAME) };
}

export class UnitArgumentError extends Error {}

/**
 * One ExecStart argument in systemd's syntax: `%` and `$` would be expanded (specifiers,
 * environment), so they are doubled; spaces, quotes and backslashes need double quotes.
 */
export function systemdQuote(arg: string): string {
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x1f\x7f]/.test(arg)) throw new UnitArgumentError(`cannot put ${JSON.stringify(arg)} in a systemd unit: it contains a control character`);
  const escaped = arg.replace(/%/g, '%%').replace(/\$/g, '$$$$');
  if (escaped !== '' && /^[A-Za-z0-9_@%+=:,./-]+$/.test(escaped)) return escaped;
  return `"${escaped.replace(/(["\\])/g, '\\$1')}"`;
}

/**
 * The systemd user unit. It belongs to the graphical session (started after it, so DISPLAY is
 * in the manager's environment; stopped with it) and is restarted when it fails, not when it
 * is stopped. A service that exits because another one already runs counts as failed too;
 * systemd's start limit ends those retries after a few.
 */
export function systemdUnit(c: ServiceCommandLine): string {
  return [
    `# ${UNIT_MARKER}: written by \`deskpilot service install\`; \`deskpilot service uninstall\` removes it.`,
    '# Edits are lost when it is installed again.',
    '[Unit]',
    'Description=DeskPilot service (one warm engine for the CLI and the app)',
    'PartOf=graphical-session.target',
    'After=graphical-session.target',
    '',
    '[Service]',
    'Type=simple',
    ...Object.entries(SERVICE_ENV).map(([k, v]) => `Environment=${systemdQuote(`${k}=${v}`)}`),
    `ExecStart=${serviceArgv(c).map(systemdQuote).join(' ')}`,
    'Restart=on-failure',
    'RestartSec=2',
    '',
    '[Install]',
    'WantedBy=graphical-session.target',
    '',
  ].join('\n');
}

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * The macOS LaunchAgent: started at login (RunAtLoad) and again when it exits with a failure
 * (KeepAlive with SuccessfulExit false); its output goes to ~/Library/Logs/DeskPilot.
 */
export function launchAgentPlist(c: ServiceCommandLine, logFile: string): string {
  const args = serviceArgv(c)
    .map((a) => `    <string>${xml(a)}</string>`)
    .join('\n');
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
    `<!-- ${UNIT_MARKER}: written by \`deskpilot service install\`; \`deskpilot service uninstall\` removes it. -->`,
    '<plist version="1.0">',
    '<dict>',
    '  <key>Label</key>',
    `  <string>${LAUNCH_AGENT_LABEL}</string>`,
    '  <key>ProgramArguments</key>',
    '  <array>',
    args,
    '  </array>',
    '  <key>RunAtLoad</key>',
    '  <true/>',
    '  <key>KeepAlive</key>',
    '  <dict>',
    '    <key>SuccessfulExit</key>',
    '    <false/>',
    '  </dict>',
    '  <key>ProcessType</key>',
    '  <string>Interactive</string>',
    '  <key>StandardOutPath</key>',
    `  <string>${xml(logFile)}</string>`,
    '  <key>StandardErrorPath</key>',
    `  <string>${xml(logFile)}</string>`,
    '</dict>',
    '</plist>',
    '',
  ].join('\n');
}

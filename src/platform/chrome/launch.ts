import { accessSync, constants as fsConstants, openSync, closeSync, statSync } from 'node:fs';
import { mkdir, readlink, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ChromeUnavailableError, errorMessage } from '../../engine/errors';
import { sleep } from './cdp-connection';
import { openBrowserSocket } from './connect';
import { readDevToolsActivePort } from './discover';
import { companionExtensionDir } from './companion';

export interface LaunchOptions {
  /** DeskPilot's own profile: Chrome 136+ refuses remote debugging on the default profile. */
  profileDir: string;
  /** Defaults to findChromeExecutable(). */
  executable?: string;
  /** Appended after DeskPilot's flags (e.g. --no-sandbox when running as root). */
  extraArgs?: string[];
  /** Environment for Chrome (DISPLAY and friends); defaults to process.env. */
  env?: NodeJS.ProcessEnv;
  /** How long to wait for the debugging port; first starts of a fresh profile are the slow ones. */
  timeoutMs?: number;
  /**
   * Unpacked extension folders to load (--load-extension); default: the companion extension, when
   * its folder is found. Google Chrome 137+ ignores the flag (the extension is then added by hand,
   * see resources/companion-extension/README.md); Chromium and older Chrome honour it.
   */
  extensions?: string[];
}

export interface LaunchedChrome {
  /** null when an already running Chrome was reused and its pid could not be read. */
  pid: number | null;
  port: number;
  browserWsUrl: string;
  /** null when reused and the binary cannot be read from the running process (outside Linux). */
  executable: string | null;
  /** true when a Chrome with this profile was already answering and nothing was started. */
  reused: boolean;
}

const LOG_FILE = 'deskpilot-chrome.log';
const DEFAULT_LAUNCH_TIMEOUT_MS = 30_000;
const PROBE_TIMEOUT_MS = 2_000;

export interface FindChromeOptions {
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  /** For tests: decides whether a path is a runnable file. */
  isExecutable?: (file: string) => boolean;
}

/** The candidates in search order, as [label, absolute path candidates]. */
export function chromeCandidates(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): Array<{ label: string; paths: string[] }> {
  if (platform === 'darwin') {
    const apps = [
      'Google Chrome.app/Contents/MacOS/Google Chrome',
      'Google Chrome Beta.app/Contents/MacOS/Google Chrome Beta',
      'Chromium.app/Contents/MacOS/Chromium',
      'Brave Browser.app/Contents/MacOS/Brave Browser',
      'Microsoft Edge.app/Contents/MacOS/Microsoft Edge',
    ];
    const roots = ['/Applications', path.posix.join(env.HOME ?? os.homedir(), 'Applications')];
    return apps.map((app) => ({ label: `/Applications/${app}`, paths: roots.map((r) => path.posix.join(r, app)) }));
  }
  if (platform === 'win32') {
    const roots = [env.PROGRAMFILES, env['PROGRAMFILES(X86)'], env.LOCALAPPDATA].filter((r): r is string => !!r);
    const exes = [
      'Google\\Chrome\\Application\\chrome.exe',
      'Google\\Chrome Beta\\Application\\chrome.exe',
      'Chromium\\Application\\chrome.exe',
      'BraveSoftware\\Brave-Browser\\Application\\brave.exe',
      'Microsoft\\Edge\\Application\\msedge.exe',
    ];
    return exes.map((exe) => ({ label: `%ProgramFiles%\\${exe}`, paths: roots.map((r) => path.win32.join(r, exe)) }));
  }
  const dirs = (env.PATH ?? '').split(path.delimiter).filter(Boolean);
  const onPath = (name: string) => ({ label: name, paths: dirs.map((d) => path.posix.join(d, name)) });
  return [
    onPath('google-chrome-stable'),
    onPath('google-chrome'),
    onPath('chromium'),
    onPath('chromium-browser'),
    { label: '/usr/lib/chromium/chromium', paths: ['/usr/lib/chromium/chromium'] },
    { label: '/opt/google/chrome/chrome', paths: ['/opt/google/chrome/chrome'] },
    { label: '/snap/bin/chromium', paths: ['/snap/bin/chromium'] },
  ];
}

export function findChromeExecutable(opts: FindChromeOptions = {}): string {
  const env = opts.env ?? process.env;
  const platform = opts.platform ?? process.platform;
  const runnable = opts.isExecutable ?? isExecutableFile;
  const explicit = env.DESKPILOT_CHROME_PATH;
  if (explicit) {
    if (runnable(explicit)) return explicit;
    throw new ChromeUnavailableError(
      `DESKPILOT_CHROME_PATH is ${explicit}, which is not an executable file; point it at Chrome's binary or unset it to search the usual places.`,
    );
  }
  const candidates = chromeCandidates(platform, env);
  for (const c of candidates) {
    const hit = c.paths.find(runnable);
    if (hit) return hit;
  }
  throw new ChromeUnavailableError(
    `No Chrome or Chromium found (searched ${candidates.map((c) => c.label).join(', ')}); install Chrome or set DESKPILOT_CHROME_PATH to its executable.`,
  );
}

function isExecutableFile(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    if (process.platform !== 'win32') accessSync(file, fsConstants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Starts Chrome on DeskPilot's profile with a debugging port on loopback, or returns the one
 * already running on that profile. The browser outlives DeskPilot: it is the user's window.
 */
export async function launchChrome(options: LaunchOptions): Promise<LaunchedChrome> {
  const profileDir = path.resolve(options.profileDir);
  const running = await answeringActivePort(profileDir);
  if (running) {
    const pid = await profilePid(profileDir);
    return { ...running, pid, executable: pid === null ? null : await executableOf(pid), reused: true };
  }

  const executable = options.executable ?? findChromeExecutable({ env: options.env ?? process.env });
  // Private: the profile holds the user's cookies and history once they sign in there.
  await mkdir(profileDir, { recursive: true, mode: 0o700 });
  // The old file names a dead port; removing it means whatever appears next is this start's.
  await rm(path.join(profileDir, 'DevToolsActivePort'), { force: true });

  // Loaded when Chrome is started, not with the module: most CLI calls start nothing.
  const { spawn } = await import('node:child_process');
  const logPath = path.join(profileDir, LOG_FILE);
  const log = openSync(logPath, 'w');
  // Written by the 'exit' handler while the loop below polls.
  const state: { exited: string | null } = { exited: null };
  let pid: number | undefined;
  try {
    const child = spawn(
      executable,
      [
        `--user-data-dir=${profileDir}`,
        '--remote-debugging-port=0',
        '--remote-debugging-address=127.0.0.1',
        '--no-first-run',
        '--no-default-browser-check',
        ...extensionArgs(options.extensions),
        ...(options.extraArgs ?? []),
      ],
      // Own process group and no pipes to us: DeskPilot exiting must not take the browser along.
      { detached: true, stdio: ['ignore', log, log], env: options.env ?? process.env },
    );
    pid = child.pid;
    child.on('exit', (code, signal) => {
      state.exited = signal ? `signal ${signal}` : `code ${code}`;
    });
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', (e) =>
        reject(new ChromeUnavailableError(`Could not start Chrome at ${executable} (${errorMessage(e)}); set DESKPILOT_CHROME_PATH to a working Chrome executable.`)),
      );
    });
    child.unref();
  } finally {
    closeSync(log);
  }

  const deadline = Date.now() + (options.timeoutMs ?? DEFAULT_LAUNCH_TIMEOUT_MS);
  for (;;) {
    const active = await answeringActivePort(profileDir);
    if (active) return { ...active, pid: pid ?? null, executable, reused: false };
    if (state.exited !== null) {
      throw new ChromeUnavailableError(
        state.exited === 'code 0'
          ? `Chrome handed off to a browser that already uses ${profileDir} without remote debugging; quit that Chrome window and run \`deskpilot chrome launch\` again.`
          : `Chrome (${executable}) exited with ${state.exited} before opening its debugging port; see ${logPath} for its output.`,
      );
    }
    if (Date.now() >= deadline) {
      throw new ChromeUnavailableError(
        `Chrome (pid ${pid}) did not open its debugging port within ${Math.round((options.timeoutMs ?? DEFAULT_LAUNCH_TIMEOUT_MS) / 1000)} s; see ${logPath}, or close it and try again.`,
      );
    }
    await sleep(50);
  }
}

function extensionArgs(given: string[] | undefined): string[] {
  const dirs = given ?? [companionExtensionDir()].filter((d): d is string => d !== null);
  return dirs.length ? [`--load-extension=${dirs.map((d) => path.resolve(d)).join(',')}`] : [];
}

/** The profile's DevToolsActivePort, if a browser actually answers on it. */
async function answeringActivePort(profileDir: string): Promise<{ port: number; browserWsUrl: string } | null> {
  const active = await readDevToolsActivePort(profileDir);
  if (!active) return null;
  try {
    const conn = await openBrowserSocket(active.wsUrl, PROBE_TIMEOUT_MS);
    await conn.close();
    return { port: active.port, browserWsUrl: active.wsUrl };
  } catch {
    return null;
  }
}

/** Linux only (/proc); elsewhere the running browser's binary stays unknown. */
async function executableOf(pid: number): Promise<string | null> {
  try {
    return await readlink(`/proc/${pid}/exe`);
  } catch {
    return null;
  }
}

/** Chrome's SingletonLock symlink reads "<hostname>-<pid>" on Linux and macOS. */
async function profilePid(profileDir: string): Promise<number | null> {
  try {
    const target = await readlink(path.join(profileDir, 'SingletonLock'));
    const pid = Number(/-(\d+)$/.exec(target)?.[1]);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

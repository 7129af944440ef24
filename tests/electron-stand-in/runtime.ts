import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { chromium, type BrowserContext } from 'playwright-core';
import { UI_BROWSER_ARGS } from '../harness/ui-browser';
import { WAIT_MS, waitFor } from '../support/wait-for';

/** The Chromium binary itself (the /usr/bin/chromium wrapper adds flags and forks). */
const CHROMIUM = '/usr/lib/chromium/chromium';

// What every piece of the stand-in shares: the record of the calls main made (the test reads
// it), the folder the stand-in keeps its state in, and the Chromium that shows the windows'
// pages — headless, like the web harness's, so it never appears among the test desktop's windows.

export interface CallRecord {
  /** e.g. "globalShortcut.register", "tray.setToolTip". */
  api: string;
  args: unknown[];
  at: number;
}

export const calls: CallRecord[] = [];

/** Notes a call main made; arguments that are functions are written as "[function]". */
export function recordCall(api: string, ...args: unknown[]): void {
  const call: CallRecord = { api, args: args.map((a) => (typeof a === 'function' ? '[function]' : a)), at: Date.now() };
  calls.push(call);
  // The test sees each call as it happens, also those made just before the process ends.
  if (process.send && process.connected) process.send({ kind: 'call', call });
}

/** The stand-in's own folder (userData, the UI browser's profile, the single-instance socket). */
export function standInDir(): string {
  const dir = process.env.DESKPILOT_STAND_IN_DIR;
  if (!dir) throw new Error('DESKPILOT_STAND_IN_DIR is not set: start the stand-in with tests/electron-stand-in/launch.ts');
  mkdirSync(dir, { recursive: true });
  return dir;
}

let browser: Promise<{ context: BrowserContext; endpoint: string }> | null = null;
let browserPid: number | null = null;

/**
 * The UI Chromium, started once in its own process group (so that quitting can end it at once,
 * synchronously, as Electron's own renderers end with it); `endpoint` is its DevTools HTTP
 * address, for the test to attach to.
 */
export function uiBrowser(): Promise<{ context: BrowserContext; endpoint: string }> {
  browser ??= (async () => {
    const profile = path.join(standInDir(), 'ui-chromium');
    mkdirSync(profile, { recursive: true });
    const child = spawn(
      CHROMIUM,
      // Electron loads its pages from files with the file: scheme trusted; Chromium needs this for module scripts.
      [...UI_BROWSER_ARGS, '--headless=new', '--allow-file-access-from-files', '--remote-debugging-port=0', '--remote-debugging-address=127.0.0.1', `--user-data-dir=${profile}`, 'about:blank'],
      { detached: true, stdio: 'ignore', env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: 'disabled:' } },
    );
    browserPid = child.pid ?? null;
    const portFile = path.join(profile, 'DevToolsActivePort');
    const port = await waitFor('the UI Chromium to write DevToolsActivePort', () => existsSync(portFile) && readFileSync(portFile, 'utf8').split('\n')[0], WAIT_MS);
    const endpoint = `http://127.0.0.1:${port}`;
    const connected = await chromium.connectOverCDP(endpoint);
    return { context: connected.contexts()[0]!, endpoint };
  })();
  return browser;
}

/** Ends the UI Chromium (its whole process group) at once; safe to call more than once. */
export function killUiBrowser(): void {
  if (browserPid === null) return;
  try {
    process.kill(-browserPid, 'SIGKILL');
  } catch {
    // already gone
  }
  browserPid = null;
}

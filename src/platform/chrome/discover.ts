import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ChromeUnavailableError, errorMessage } from '../../engine/errors';
import { devtoolsGet, type DevtoolsAnswer } from './devtools-get';

// Where a browser websocket can come from. Nothing here opens a CDP connection; connect.ts
// tries the candidates in order and decides which failures to report.

export interface ActivePort {
  port: number;
  /** e.g. "/devtools/browser/0bba2389-…" */
  browserPath: string;
  /** ws://127.0.0.1:<port><path>; Chrome binds the port file's port on loopback. */
  wsUrl: string;
}

export function parseDevToolsActivePort(text: string): Omit<ActivePort, 'wsUrl'> | null {
  const [portLine, pathLine] = text.split(/\r?\n/).map((l) => l.trim());
  const port = Number(portLine);
  if (!Number.isInteger(port) || port <= 0 || port > 65535) return null;
  if (!pathLine || !pathLine.startsWith('/devtools/browser/')) return null;
  return { port, browserPath: pathLine };
}

/** null when the file is missing or unreadable/garbled (a browser mid-write, or never enabled). */
export async function readDevToolsActivePort(userDataDir: string): Promise<ActivePort | null> {
  let text: string;
  try {
    text = await readFile(path.join(userDataDir, 'DevToolsActivePort'), 'utf8');
  } catch {
    return null;
  }
  const parsed = parseDevToolsActivePort(text);
  return parsed && { ...parsed, wsUrl: `ws://127.0.0.1:${parsed.port}${parsed.browserPath}` };
}

/** The user-data dirs of the usual Chromium-family browsers, most likely first. */
export function defaultUserDataDirs(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  home: string = os.homedir(),
): string[] {
  if (platform === 'darwin') {
    const base = path.posix.join(home, 'Library', 'Application Support');
    return [
      'Google/Chrome',
      'Google/Chrome Beta',
      'Google/Chrome Canary',
      'Chromium',
      'BraveSoftware/Brave-Browser',
      'Microsoft Edge',
    ].map((d) => path.posix.join(base, d));
  }
  if (platform === 'win32') {
    const local = env.LOCALAPPDATA ?? path.win32.join(home, 'AppData', 'Local');
    return [
      'Google\\Chrome\\User Data',
      'Google\\Chrome Beta\\User Data',
      'Google\\Chrome SxS\\User Data',
      'Chromium\\User Data',
      'BraveSoftware\\Brave-Browser\\User Data',
      'Microsoft\\Edge\\User Data',
    ].map((d) => path.win32.join(local, d));
  }
  const config = env.XDG_CONFIG_HOME || path.posix.join(home, '.config');
  return ['google-chrome', 'google-chrome-beta', 'google-chrome-unstable', 'chromium', 'BraveSoftware/Brave-Browser', 'microsoft-edge'].map(
    (d) => path.posix.join(config, d),
  );
}

/**
 * Asks /json/version for the browser websocket URL, at each of `addresses` (one endpoint's
 * resolved addresses) until one answers. The URL it names is not checked here: the caller
 * decides whether that host is this computer before connecting.
 */
export async function fetchBrowserWsUrl(addresses: readonly URL[], shown: string, timeoutMs: number): Promise<string> {
  let response: DevtoolsAnswer | null = null;
  for (const [i, base] of addresses.entries()) {
    try {
      response = await devtoolsGet(new URL('/json/version', base), timeoutMs);
      break;
    } catch (e) {
      // localhost may resolve to ::1 and 127.0.0.1 while Chrome listens on one of them.
      if (errorCode(e) === 'ECONNREFUSED' && i < addresses.length - 1) continue;
      throw new ChromeUnavailableError(`${explainFetchFailure(shown, e, timeoutMs)}`);
    }
  }
  if (!response) throw new ChromeUnavailableError(`Could not reach Chrome at ${shown}; check DESKPILOT_CHROME_URL (or chrome.url in config.json).`);
  if (response.status < 200 || response.status > 299) {
    throw new ChromeUnavailableError(
      `Chrome at ${shown} answered /json/version with HTTP ${response.status}; if remote debugging was enabled at chrome://inspect (which has no HTTP endpoints), leave DESKPILOT_CHROME_URL and chrome.url unset so DeskPilot finds it through DevToolsActivePort.`,
    );
  }
  let body: unknown;
  try {
    body = JSON.parse(response.body);
  } catch {
    body = null;
  }
  const ws = typeof body === 'object' && body !== null ? (body as Record<string, unknown>).webSocketDebuggerUrl : undefined;
  if (typeof ws !== 'string' || !/^wss?:\/\//.test(ws)) {
    throw new ChromeUnavailableError(
      `${shown} answered /json/version without a browser webSocketDebuggerUrl, so it is not a Chrome debugging endpoint; check DESKPILOT_CHROME_URL (or chrome.url in config.json).`,
    );
  }
  return ws;
}

function explainFetchFailure(shown: string, e: unknown, timeoutMs: number): string {
  const code = errorCode(e);
  if (code === 'ECONNREFUSED') {
    return `Nothing listens at ${shown}; start Chrome with --remote-debugging-port=${new URL(shown).port || '<port>'} (or \`deskpilot chrome launch\`), or fix DESKPILOT_CHROME_URL (or chrome.url in config.json).`;
  }
  if (e instanceof Error && (e.name === 'TimeoutError' || e.name === 'AbortError')) {
    return `Chrome at ${shown} did not answer within ${timeoutMs} ms; check that DESKPILOT_CHROME_URL (or chrome.url in config.json) points at a Chrome debugging port.`;
  }
  return `Could not reach Chrome at ${shown} (${code ?? errorMessage(e)}); check DESKPILOT_CHROME_URL (or chrome.url in config.json).`;
}

/** fetch wraps socket errors: the code sits on `cause` (sometimes an AggregateError's first error). */
export function errorCode(e: unknown): string | undefined {
  let cur: unknown = e;
  for (let depth = 0; depth < 4 && cur; depth++) {
    const c = cur as { code?: unknown; cause?: unknown; errors?: unknown[] };
    if (typeof c.code === 'string') return c.code;
    cur = c.cause ?? (Array.isArray(c.errors) ? c.errors[0] : undefined);
  }
  return undefined;
}

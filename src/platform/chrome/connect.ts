import os from 'node:os';
import path from 'node:path';
import CDP from 'chrome-remote-interface';
import { ChromeUnavailableError, errorMessage } from '../../engine/errors';
import { withTimeout, type CdpConnection } from './cdp-connection';
import { errorCode, fetchBrowserWsUrl, readDevToolsActivePort } from './discover';
import { hostPort, loopbackAddresses, parseChromeUrl } from './endpoint-url';
import { systemLookup, type HostLookup } from './host-address';

export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

export const NOT_REACHABLE =
  'Chrome is not reachable: start it with `deskpilot chrome launch`, or enable remote debugging at chrome://inspect/#remote-debugging, or set DESKPILOT_CHROME_URL.';

export interface ConnectOptions {
  /** When set it is the only source tried: an explicit choice must not silently fall back to another browser. */
  chromeUrl?: string;
  allowRemote?: boolean;
  /** Searched in order for DevToolsActivePort (the DeskPilot profile first, then OS defaults). */
  userDataDirs: string[];
  timeoutMs?: number;
  /** How host names are resolved (default: the system resolver). */
  lookup?: HostLookup;
}

export interface BrowserConnection {
  conn: CdpConnection;
  browserWsUrl: string;
  /** e.g. "chromeUrl http://127.0.0.1:9222" or "DevToolsActivePort in ~/.config/chromium". */
  source: string;
}

export class SocketConnectError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
    this.name = 'SocketConnectError';
  }
}

/**
 * chrome-remote-interface builds a shorthand method for every command and event of the protocol
 * it is given (about 20 ms of CPU for the bundled one, on every CLI call). DeskPilot calls only
 * `send` and listens by event name, so it hands over a protocol without domains.
 */
const NO_SHORTHANDS: CDP.Protocol = { version: { major: '1', minor: '3' }, domains: [] };

/** Opens the browser-level websocket (no HTTP round trips, no protocol shorthands). */
export async function openBrowserSocket(browserWsUrl: string, timeoutMs: number): Promise<CdpConnection> {
  const pending = CDP({ target: browserWsUrl, protocol: NO_SHORTHANDS });
  try {
    const client = await withTimeout(pending, timeoutMs, () => new SocketConnectError(`no answer within ${timeoutMs} ms`, 'ETIMEDOUT'));
    return client as unknown as CdpConnection;
  } catch (e) {
    // A connection that completes after we gave up must not linger.
    pending.then((c) => c.close()).catch(() => undefined);
    if (e instanceof SocketConnectError) throw e;
    throw new SocketConnectError(errorMessage(e), errorCode(e));
  }
}

export async function connectChrome(options: ConnectOptions): Promise<BrowserConnection> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  if (options.chromeUrl !== undefined && options.chromeUrl.trim() !== '') {
    return connectExplicit(options.chromeUrl, options.allowRemote === true, timeoutMs, options.lookup ?? systemLookup);
  }
  return connectViaActivePort(options.userDataDirs, timeoutMs);
}

async function connectExplicit(chromeUrl: string, allowRemote: boolean, timeoutMs: number, lookup: HostLookup): Promise<BrowserConnection> {
  const endpoint = parseChromeUrl(chromeUrl, allowRemote);
  const addresses = await loopbackAddresses(endpoint.url, allowRemote, chromeUrl, lookup);
  let sockets = addresses;
  if (endpoint.kind === 'http') {
    const ws = await fetchBrowserWsUrl(addresses, endpoint.url.origin, timeoutMs);
    // The endpoint writes its own idea of the host into the URL; it must pass the same check.
    sockets = await loopbackAddresses(new URL(ws), allowRemote, ws, lookup);
  }
  let failure: unknown;
  for (const url of sockets) {
    const browserWsUrl = url.toString();
    try {
      const conn = await openBrowserSocket(browserWsUrl, timeoutMs);
      return { conn, browserWsUrl, source: `chromeUrl ${chromeUrl}` };
    } catch (e) {
      failure = e;
      // localhost may resolve to ::1 and 127.0.0.1 while Chrome listens on one of them.
      if (e instanceof SocketConnectError && e.code === 'ECONNREFUSED') continue;
      break;
    }
  }
  const where = hostPort(sockets[0]!.toString());
  const code = failure instanceof SocketConnectError ? failure.code : undefined;
  throw new ChromeUnavailableError(
    code === 'ECONNREFUSED'
      ? `Nothing listens at ${where}; start Chrome with remote debugging there (or \`deskpilot chrome launch\`), or fix DESKPILOT_CHROME_URL (or chrome.url in config.json).`
      : `Chrome at ${where} refused the DevTools connection (${errorMessage(failure)}); check DESKPILOT_CHROME_URL (or chrome.url in config.json), and accept the prompt if Chrome asked to allow remote debugging.`,
  );
}

async function connectViaActivePort(dirs: string[], timeoutMs: number): Promise<BrowserConnection> {
  const unique = [...new Set(dirs.map((d) => path.resolve(d)))];
  const found = await Promise.all(unique.map(async (dir) => ({ dir, active: await readDevToolsActivePort(dir) })));
  const absent: string[] = [];
  const failures: string[] = [];
  for (const { dir, active } of found) {
    if (!active) {
      absent.push(tildify(dir));
      continue;
    }
    try {
      const conn = await openBrowserSocket(active.wsUrl, timeoutMs);
      return { conn, browserWsUrl: active.wsUrl, source: `DevToolsActivePort in ${tildify(dir)}` };
    } catch (e) {
      const code = e instanceof SocketConnectError ? e.code : undefined;
      failures.push(
        code === 'ECONNREFUSED'
          ? `a stale DevToolsActivePort in ${tildify(dir)} (nothing listens on port ${active.port})`
          : `the browser on port ${active.port} from ${tildify(dir)} refused the connection (${errorMessage(e)}; accept Chrome's "allow remote debugging" prompt if it showed one)`,
      );
    }
  }
  const tried = [...failures];
  if (absent.length > 0) tried.push(`no DevToolsActivePort in ${absent.join(', ')}`);
  throw new ChromeUnavailableError(`${NOT_REACHABLE} Tried: ${tried.join('; ')}.`);
}

function tildify(dir: string): string {
  const home = os.homedir();
  return home && dir.startsWith(home + path.sep) ? `~${dir.slice(home.length)}` : dir;
}

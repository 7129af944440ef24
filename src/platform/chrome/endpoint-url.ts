import { isIP } from 'node:net';
import { ChromeUnavailableError } from '../../engine/errors';

// A debugging endpoint gives full control of the browser (cookies, every open page), so by
// default DeskPilot only talks to one on this computer.

export type ExplicitEndpoint =
  | { kind: 'http'; url: URL } // ask /json/version for the browser websocket
  | { kind: 'ws'; url: URL }; // already the browser websocket

export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.split('.')[0] === '127';
  if (isIP(host) === 6) {
    if (host === '::1' || /^(0{1,4}:){7}0{0,3}1$/.test(host)) return true;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(host);
    return mapped !== null && mapped[1]!.split('.')[0] === '127';
  }
  return false;
}

/** Validates a configured chromeUrl; throws one actionable sentence when it cannot be used. */
export function parseChromeUrl(raw: string, allowRemote: boolean): ExplicitEndpoint {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new ChromeUnavailableError(
      `The configured Chrome URL "${raw}" is not a URL; set DESKPILOT_CHROME_URL (or chrome.url in config.json) to e.g. http://127.0.0.1:9222 or a ws://…/devtools/browser/… address.`,
    );
  }
  const kind = url.protocol === 'http:' || url.protocol === 'https:' ? 'http' : url.protocol === 'ws:' || url.protocol === 'wss:' ? 'ws' : null;
  if (kind === null) {
    throw new ChromeUnavailableError(
      `The configured Chrome URL ${raw} uses ${url.protocol} but only http(s):// or ws(s):// work; set DESKPILOT_CHROME_URL (or chrome.url in config.json) to e.g. http://127.0.0.1:9222.`,
    );
  }
  assertAllowedHost(url, allowRemote, raw);
  if (kind === 'ws' && !/^\/devtools\/browser\//.test(url.pathname)) {
    throw new ChromeUnavailableError(
      `The configured Chrome URL ${raw} is not a browser websocket (its path must start with /devtools/browser/); use the webSocketDebuggerUrl from /json/version or the http://host:port address instead.`,
    );
  }
  return { kind, url };
}

export function assertAllowedHost(url: URL, allowRemote: boolean, shown = url.toString()): void {
  if (!allowRemote && !isLoopbackHost(url.hostname)) {
    throw new ChromeUnavailableError(
      `Refusing to connect to Chrome at ${shown} because ${url.hostname} is not this computer; set chrome.allow_remote to true in config.json (or DESKPILOT_ALLOW_REMOTE_CHROME=1, or --allow-remote-chrome) only if you really mean to control a browser over the network.`,
    );
  }
}

/** "127.0.0.1:9222" for messages and describe(). */
export function hostPort(wsUrl: string): string {
  try {
    return new URL(wsUrl).host;
  } catch {
    return wsUrl;
  }
}

import { isIP } from 'node:net';
import { ChromeUnavailableError } from '../../engine/errors';
import { bareHost, isLoopbackAddress, systemLookup, type HostLookup } from './host-address';

// A debugging endpoint gives full control of the browser (cookies, every open page), so by
// default DeskPilot only talks to one on this computer — decided by the address it connects
// to, not by the name: a name is resolved once, every address must be loopback, and the
// connection goes to those addresses, so a resolver cannot answer differently in between.

export type ExplicitEndpoint =
  | { kind: 'http'; url: URL } // ask /json/version for the browser websocket
  | { kind: 'ws'; url: URL }; // already the browser websocket

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
  // An address can be judged now; a name only once it is resolved (loopbackAddresses).
  const host = bareHost(url.hostname);
  if (!allowRemote && isIP(host) !== 0 && !isLoopbackAddress(host)) throw notThisComputer(raw, host, null);
  if (kind === 'ws' && !/^\/devtools\/browser\//.test(url.pathname)) {
    throw new ChromeUnavailableError(
      `The configured Chrome URL ${raw} is not a browser websocket (its path must start with /devtools/browser/); use the webSocketDebuggerUrl from /json/version or the http://host:port address instead.`,
    );
  }
  return { kind, url };
}

/**
 * The URLs to connect to for `url`: with a loopback host name, one per address it resolves to
 * (all must be loopback), the name replaced by the address. A remote endpoint, when allowed,
 * is used as it is. Throws before anything connects when the host is not this computer.
 */
export async function loopbackAddresses(url: URL, allowRemote: boolean, shown = url.toString(), lookup: HostLookup = systemLookup): Promise<URL[]> {
  if (allowRemote) return [url];
  // The name as written: "localhost." is not "localhost" to a resolver.
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0) {
    if (!isLoopbackAddress(host)) throw notThisComputer(shown, host, null);
    return [url];
  }
  let addresses: string[];
  try {
    addresses = await lookup(host);
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    throw new ChromeUnavailableError(
      `Refusing to connect to Chrome at ${shown} because the name ${host} does not resolve to an address on this computer (${typeof code === 'string' ? code : 'lookup failed'}); use 127.0.0.1 in DESKPILOT_CHROME_URL (or chrome.url in config.json).`,
    );
  }
  if (addresses.length === 0 || !addresses.every(isLoopbackAddress)) throw notThisComputer(shown, host, addresses);
  return addresses.map((address) => {
    const pinned = new URL(url);
    pinned.hostname = isIP(address) === 6 ? `[${address}]` : address;
    return pinned;
  });
}

function notThisComputer(shown: string, host: string, resolved: string[] | null): ChromeUnavailableError {
  const why = resolved === null ? `${host} is not this computer` : `${host} is not this computer (it resolves to ${resolved.join(', ') || 'no address'})`;
  return new ChromeUnavailableError(
    `Refusing to connect to Chrome at ${shown} because ${why}; set chrome.allow_remote to true in config.json (or DESKPILOT_ALLOW_REMOTE_CHROME=1, or --allow-remote-chrome) only if you really mean to control a browser over the network.`,
  );
}

/** "127.0.0.1:9222" for messages and describe(). */
export function hostPort(wsUrl: string): string {
  try {
    return new URL(wsUrl).host;
  } catch {
    return wsUrl;
  }
}

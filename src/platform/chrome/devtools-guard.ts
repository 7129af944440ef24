import { isIP } from 'node:net';
import { clip } from '../../engine/words';
import { bareHost, isThisComputer } from './host-address';
import { devtoolsGet } from './devtools-get';

// The DevTools endpoint DeskPilot drives answers plain GETs: /json/list hands out a websocket
// for every tab (full control of it), /json/close/<id> closes one. So no tab DeskPilot opens
// or navigates may load it. Refused are: the endpoint in use under every name this computer
// answers to (same port on a loopback, unspecified or own address, or localhost), and any
// other host:port on this computer whose /json/version names a browser websocket — another
// port forwarded to the same browser, or another browser's endpoint.
//
// Host names other than localhost are not looked up: Chromium's DevTools server refuses a
// request whose Host header is neither an IP address nor localhost, so such a name cannot
// reach it (however it resolves).

/** A URL that must not be loaded, and whose endpoint it is. */
export interface Refusal {
  url: string;
  /** True for the browser DeskPilot is connected to. */
  own: boolean;
}

export interface DevtoolsGuardOptions {
  /** The browser websocket in use: ws://host:port/devtools/browser/<id>. */
  browserWsUrl: string;
  /** Other addresses of the same endpoint, e.g. the configured http://localhost:9222. */
  otherNames?: ReadonlyArray<string | undefined>;
  /** The browser websocket URL that origin's /json/version names, or null (default: an HTTP GET). */
  probe?: (origin: string) => Promise<string | null>;
  interfaceAddresses?: () => string[];
}

interface Endpoint {
  host: string;
  port: number;
  local: boolean;
}

/** How long a probe may take; a host that does not answer in time is not taken for DevTools. */
export const PROBE_TIMEOUT_MS = 2_000;
/** A "not DevTools" answer is trusted this long; a DevTools answer for the guard's lifetime. */
const NEGATIVE_TTL_MS = 30_000;
const SHOWN_CHARS = 200;

export class DevtoolsGuard {
  private readonly endpoints: Endpoint[] = [];
  private readonly browserId: string | null;
  private readonly probe: (origin: string) => Promise<string | null>;
  private readonly answers = new Map<string, { at: number; ws: Promise<string | null>; devtools: boolean }>();
  private readonly isLocal: (host: string) => boolean;

  constructor(o: DevtoolsGuardOptions) {
    this.isLocal = (host) => isThisComputer(host, o.interfaceAddresses);
    for (const name of [o.browserWsUrl, ...(o.otherNames ?? [])]) {
      const u = parse(name);
      const port = u && effectivePort(u);
      if (u && port) this.endpoints.push({ host: bareHost(u.hostname), port, local: this.isLocal(u.hostname) });
    }
    this.browserId = browserIdOf(o.browserWsUrl);
    this.probe = o.probe ?? ((origin) => probeVersion(origin, PROBE_TIMEOUT_MS));
  }

  /** The port these endpoints listen on (for request filters). */
  get ports(): number[] {
    return [...new Set(this.endpoints.map((e) => e.port))];
  }

  /** No I/O: whether the URL is the endpoint in use, under any name that reaches it. */
  endpointRefusal(raw: string): Refusal | null {
    const u = target(raw);
    if (!u) return null;
    const port = effectivePort(u);
    const hit = this.endpoints.some((e) => e.port === port && (e.local ? this.isLocal(u.hostname) : bareHost(u.hostname) === e.host));
    return hit ? { url: raw, own: true } : null;
  }

  /** The endpoint in use, then a /json/version probe of other ports on this computer. Never throws. */
  async refusal(raw: string): Promise<Refusal | null> {
    const fixed = this.endpointRefusal(raw);
    if (fixed) return fixed;
    const u = target(raw);
    if (!u || u.protocol !== 'http:') return null;
    const host = bareHost(u.hostname);
    const remoteEndpointHost = this.endpoints.some((e) => !e.local && e.host === host);
    if (!remoteEndpointHost && !this.isLocal(u.hostname)) return null;
    // Chromium answers localhost and *.localhost itself, with loopback.
    const address = isIP(host) === 0 && !remoteEndpointHost ? '127.0.0.1' : host;
    const origin = `http://${isIP(address) === 6 ? `[${address}]` : address}:${effectivePort(u)}`;
    const ws = await this.ask(origin);
    if (ws === null) return null;
    return { url: raw, own: this.browserId !== null && browserIdOf(ws) === this.browserId };
  }

  private ask(origin: string): Promise<string | null> {
    const known = this.answers.get(origin);
    if (known && (known.devtools || Date.now() - known.at < NEGATIVE_TTL_MS)) return known.ws;
    const entry = { at: Date.now(), ws: this.probe(origin).catch(() => null), devtools: false };
    void entry.ws.then((ws) => (entry.devtools = ws !== null));
    this.answers.set(origin, entry);
    return entry.ws;
  }
}

/** The sentence for a refused URL: what it is and why it is not opened. */
export function refusalMessage(r: Refusal, requested?: string): string {
  const whose = r.own ? "DeskPilot's own DevTools endpoint" : "a browser's DevTools endpoint (it answers /json/version)";
  const control = r.own ? 'the browser' : 'that browser';
  if (requested !== undefined && requested !== r.url) {
    return `refused: ${shown(requested)} redirected to ${shown(r.url)}, which is ${whose}; following it would let a page control ${control}`;
  }
  return `refused: ${shown(r.url)} is ${whose}; opening it would let a page control ${control}`;
}

const shown = (url: string) => clip(url, SHOWN_CHARS);

function parse(raw: string | undefined): URL | null {
  if (!raw) return null;
  try {
    return new URL(raw);
  } catch {
    return null;
  }
}

/** The URL a request would go to: view-source: shows the page it wraps. */
function target(raw: string): URL | null {
  const text = raw.trim().replace(/[\t\n\r]/g, '');
  const inner = /^view-source:/i.test(text) ? text.slice('view-source:'.length) : text;
  return parse(inner);
}

function effectivePort(u: URL): number | null {
  if (u.port) return Number(u.port);
  if (u.protocol === 'http:' || u.protocol === 'ws:') return 80;
  if (u.protocol === 'https:' || u.protocol === 'wss:') return 443;
  return null;
}

function browserIdOf(ws: string): string | null {
  return /\/devtools\/browser\/([^/?#]+)/.exec(ws)?.[1] ?? null;
}

/** GET origin/json/version: the browser websocket URL it names, or null for anything else. */
async function probeVersion(origin: string, timeoutMs: number): Promise<string | null> {
  try {
    const r = await devtoolsGet(new URL('/json/version', origin), timeoutMs);
    if (r.status < 200 || r.status > 299) return null;
    const body: unknown = JSON.parse(r.body);
    const ws = typeof body === 'object' && body !== null ? (body as Record<string, unknown>).webSocketDebuggerUrl : null;
    return typeof ws === 'string' && /^wss?:\/\/[^/]+\/devtools\/browser\//.test(ws) ? ws : null;
  } catch {
    return null;
  }
}

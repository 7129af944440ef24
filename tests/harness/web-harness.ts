import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import path from 'node:path';
import type { WebContents } from 'electron';
import { guardedHandlers } from '../../src/main/ipc-manager';
import { AppService } from '../../src/app/app-service';
import { voiceDeps } from '../../src/main/voice';
import { fittedHeight } from '../../src/main/launcher-size';
import { wireAgent } from '../../src/compose/agent-wiring';
import { launchChrome } from '../../src/platform/chrome/launch';
import { loadConfig } from '../../src/platform/config/load-config';
import { LLM_API_KEY, SettingsStore, type SecretStore } from '../../src/platform/config/settings-store';
import { wireEngine } from '../../src/compose/wire-engine';
import { lazyRemote, type LazyRemote } from '../../src/compose/device-sync';
import { watchedDesk } from '../../src/compose/service-host';
import { IPC_CHANNELS, IPC_EVENTS, type IpcChannel, type IpcEvent } from '../../src/protocol/ipc-channels';
import type { HotkeyStatus, IpcEventPayloads, SettingsView } from '../../src/protocol/ipc';
import { acquireRenderer } from './build-renderer';
import { BYTES_MARK, TOKEN_HEADER, TOKEN_META, shimSource } from './shim';
import { errorMessage } from '../../src/engine/errors';
import { WebSocketServer, type WebSocket } from 'ws';

// The web test harness: the real renderer build in a real browser, talking to the real
// AppService over a loopback HTTP bridge instead of Electron IPC. Every request goes through
// main's own guardedHandlers (sender check + zod validation); the "sender" is trusted only
// when the request carries this harness's random token. Test/dev tooling only — never
// shipped, and nothing under src/ imports it.
//
//   GET  /index.html?view=<view>   the built renderer, with the shim injected (served copy only)
//   GET  /__harness/shim.js        window.api + window.events (see shim.ts)
//   POST /__api/<channel>          x-deskpilot-token: <token>, JSON body → IpcResult JSON
//   GET  /__events?token=<token>   Server-Sent Events: 'ui:show', 'ui:voice', 'agent:update' (data: the payload as JSON)
//   GET  /__calls?token=<token>    WebSocket: {id, channel, request} → {id, result} (the same calls as /__api,
//                                  on one open channel, as Electron's IPC is: no request set up per call)
//
// Refused: a Host other than 127.0.0.1/localhost:<port> (DNS rebinding), a cross-origin
// Origin, a missing or wrong token (403; the handler never runs).

export type View = 'launcher' | 'popover' | 'settings';

export interface WebHarnessOptions {
  /** DISPLAY, DESKPILOT_CONFIG_DIR, DESKPILOT_CHROME_URL, XDG_DATA_HOME … (the engine reads only this). */
  env: NodeJS.ProcessEnv;
  /** Serve this folder (index.html + assets) instead of building the renderer: for the bridge's own tests. */
  rendererDir?: string;
}

export interface WebHarness {
  url(view: View): string;
  service: AppService;
  stop(): Promise<void>;
  /** e.g. http://127.0.0.1:40123 */
  origin: string;
  /** The bridge token (tests use it to call channels directly; the page gets it from the served HTML). */
  token: string;
  /** Pushes a main → renderer event (with its payload, if it has one) to every connected page. */
  emit<E extends IpcEvent>(event: E, ...payload: IpcEventPayloads[E] extends undefined ? [] : [IpcEventPayloads[E]]): void;
  /** Every 'agent:update' the service pushed, oldest first (for assertions). */
  agentUpdates: Array<IpcEventPayloads['agent:update']>;
  /** How many pages are listening on /__events (wait for ≥1 before emit). */
  eventClients(): number;
  /** How many calls came over the /__calls WebSocket (the rest came as POST /__api). */
  socketCalls(): number;
  /** Times (ms since epoch) the renderer asked to hide its window. */
  hideCalls: number[];
  /** Each height the launcher asked its window to take (window:fit). */
  fitCalls: number[];
  /** Called with each window:fit height, as main resizes the launcher (a page's viewport here); returns the unsubscribe. */
  onFit(listener: (height: number) => void): () => void;
  /** Each ui:modal the page sent (true: a confirmation opened, false: it closed). */
  modalCalls: boolean[];
  /** Requests the bridge refused (403), for assertions. */
  refused: Array<{ path: string; reason: string }>;
  /** Handler invocations per channel (only requests that passed the guard count). */
  calls: Array<{ channel: IpcChannel; at: number }>;
  /** What 'voice:transcribe' handed to the transcriber (after the bridge decoded it). */
  audio: Array<{ bytes: Uint8Array; mime: string }>;
}

/** Electron's safeStorage does not exist here: secrets live in memory for the harness's lifetime. */
export class FakeSecretStore implements SecretStore {
  private readonly values = new Map<string, string>();
  async get(key: string): Promise<string | null> {
    return this.values.get(key) ?? null;
  }
  async set(key: string, value: string | null): Promise<void> {
    if (value === null) this.values.delete(key);
    else this.values.set(key, value);
  }
}

const FAKE_HOTKEYS = (settings: SettingsView): { launcher: HotkeyStatus; voice: HotkeyStatus } => ({
  launcher: { accelerator: settings.hotkeys.launcher, registered: true, error: null },
  voice: { accelerator: settings.hotkeys.voice, registered: true, error: null },
});

const MAX_BODY_BYTES = 36 * 1024 * 1024; // 25 MB of audio as base64, plus JSON
const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
  '.ico': 'image/x-icon',
};

export async function startWebHarness(opts: WebHarnessOptions): Promise<WebHarness> {
  const build = opts.rendererDir ? null : await acquireRenderer();
  try {
    return await serve(path.resolve(opts.rendererDir ?? build!.dir), opts.env, () => build?.release());
  } catch (e) {
    build?.release();
    throw e;
  }
}

async function serve(rendererDir: string, env: NodeJS.ProcessEnv, releaseBuild: () => void): Promise<WebHarness> {
  const token = randomBytes(32).toString('hex');
  const hideCalls: number[] = [];
  const fitCalls: number[] = [];
  const fitListeners = new Set<(height: number) => void>();
  const modalCalls: boolean[] = [];
  const refused: WebHarness['refused'] = [];
  const calls: WebHarness['calls'] = [];
  const launchedChromes: number[] = [];
  const audio: WebHarness['audio'] = [];
  const agentUpdates: WebHarness['agentUpdates'] = [];
  // Set once the bridge is up; pushes before that reach no page anyway.
  let push: (event: IpcEvent, payload?: unknown) => void = () => {};

  // ---- the AppService, built as main builds it (fakes only where Electron would be) ----
  const secrets = new FakeSecretStore();
  const settings = new SettingsStore((await loadConfig({}, env)).configFile, secrets);
  const voice = voiceDeps(secrets, env);
  let settingsCache: SettingsView = await settings.view();
  let remote: LazyRemote | null = null;
  const service = new AppService({
    // Again after every settings change: new LLM or Chrome settings take effect on the next command.
    // Watching the tabs as main's engine does (it serves its engine, or is alone: watchedDesk).
    desk: async () => watchedDesk(await wireEngine(await loadConfig({}, env), { env, llmApiKey: await secrets.get(LLM_API_KEY) })),
    settings,
    hotkeys: () => FAKE_HOTKEYS(settingsCache),
    settingsChanged: (view) => {
      settingsCache = view;
    },
    modalChanged: (open: boolean) => void modalCalls.push(open),
    hideWindow: () => {
      hideCalls.push(Date.now());
      return true;
    },
    fitWindow: (height) => {
      // As main does (src/main/launcher-window.ts): the launcher's window takes the height, within its bounds.
      const h = fittedHeight(height);
      fitCalls.push(h);
      for (const l of fitListeners) l(h);
      return true;
    },
    // With sync.url set in the env's config: the launcher's device picker, as main opens it (the credential file here).
    devices: async () => {
      const config = await loadConfig({}, env);
      if (!config.sync) return null;
      remote ??= lazyRemote(config);
      return remote.remote();
    },
    devicesNow: () => remote?.now() ?? null,
    launchChrome: async () => {
      const config = await loadConfig({}, env);
      const asRoot = process.platform === 'linux' && process.getuid?.() === 0;
      const launched = await launchChrome({
        profileDir: config.chromeProfileDir,
        executable: config.chromePath.value,
        extraArgs: asRoot ? ['--no-sandbox'] : [],
        env,
      });
      if (!launched.reused && launched.pid) launchedChromes.push(launched.pid);
      // The same sentences as src/main/chrome-launcher.ts (which reads process.env, not the test's env).
      return launched.reused
        ? `Chrome with DeskPilot's profile is already running (debugging port ${launched.port}).`
        : `Started Chrome with DeskPilot's profile (debugging port ${launched.port}).`;
    },
    // main's own voice wiring (src/main/voice.ts: the real transcriber, pointed at the voice settings).
    transcribe: (bytes, mime, view) => {
      audio.push({ bytes, mime });
      return voice.transcribe(bytes, mime, view);
    },
    voiceConfigured: voice.voiceConfigured,
    frontmost: () => null,
    // main's agent wiring (src/compose/agent-wiring.ts), on the test's env: the real CDP agent
    // browser on the configured Chrome, the real LLM models on the configured endpoint.
    agent: async () => wireAgent(await loadConfig({}, env), { env, llmApiKey: await secrets.get(LLM_API_KEY) }),
    emit: (event, payload) => {
      if (event === 'agent:update') agentUpdates.push(payload as IpcEventPayloads['agent:update']);
      push(event, payload);
    },
  });
  // wireEngine builds the X11 backend without a display (it falls back to process.env.DISPLAY, not
  // opts.env), so the harness pins this process's DISPLAY to the test desktop while it runs —
  // otherwise the in-process engine would act on whatever display the developer's shell has.
  const unpinDisplay = pinDisplay(env.DISPLAY);
  try {
    await service.start();
  } catch (e) {
    unpinDisplay();
    throw e;
  }

  // ---- the bridge ----
  // Stand-ins for WebContents: guardedHandlers compares identity, as main does with its window.
  const trustedSender = { id: 1, harness: 'token matched' } as unknown as WebContents;
  const strangerSender = { id: 2, harness: 'no or wrong token' } as unknown as WebContents;
  const invoke = guardedHandlers(
    Object.fromEntries(
      Object.entries(service.handlers()).map(([channel, handler]) => [
        channel,
        (request: unknown) => {
          calls.push({ channel: channel as IpcChannel, at: Date.now() });
          return (handler as (r: unknown) => Promise<unknown>)(request);
        },
      ]),
    ) as unknown as ReturnType<AppService['handlers']>,
    (sender) => sender === trustedSender,
  );

  const sse = new Set<ServerResponse>();
  const sockets = new Set<Socket>();
  let port = 0;
  const allowedHosts = () => [`127.0.0.1:${port}`, `localhost:${port}`];
  const allowedOrigins = () => allowedHosts().map((h) => `http://${h}`);
  const tokenOk = (given: string | undefined | null) => {
    if (typeof given !== 'string') return false;
    const a = Buffer.from(given);
    const b = Buffer.from(token);
    return a.length === b.length && timingSafeEqual(a, b);
  };
  const refuse = (res: ServerResponse, pathName: string, reason: string) => {
    refused.push({ path: pathName, reason });
    sendJson(res, 403, { ok: false, error: `refused: ${reason}`, code: 'refused' });
  };

  const server = http.createServer((req, res) => {
    void handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { ok: false, error: `harness: ${errorMessage(e)}`, code: 'failed' });
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const p = url.pathname;
    // DNS rebinding: a page on evil.example resolving to 127.0.0.1 still sends its own Host.
    if (!allowedHosts().includes(req.headers.host ?? '')) return refuse(res, p, `host ${JSON.stringify(req.headers.host ?? '')} is not this loopback server`);
    const origin = req.headers.origin;
    if (origin !== undefined && !allowedOrigins().includes(origin)) return refuse(res, p, `origin ${origin}`);

    if (p.startsWith('/__api/')) {
      if (req.method !== 'POST') return sendJson(res, 405, { ok: false, error: 'POST only', code: 'bad_request' });
      const channel = p.slice('/__api/'.length) as IpcChannel;
      if (!IPC_CHANNELS.includes(channel)) return sendJson(res, 404, { ok: false, error: `unknown channel ${channel}`, code: 'bad_request' });
      if (!tokenOk(req.headers[TOKEN_HEADER] as string | undefined)) {
        // Through main's own guard with an untrusted sender: it answers without running the handler.
        refused.push({ path: p, reason: 'missing or wrong token' });
        return sendJson(res, 403, await invoke[channel]({ sender: strangerSender }, null));
      }
      let payload: unknown;
      try {
        payload = decodeBytes(JSON.parse((await readBody(req, MAX_BODY_BYTES)).toString('utf8')));
      } catch (e) {
        return sendJson(res, 400, { ok: false, error: `bad request body: ${errorMessage(e)}`, code: 'bad_request' });
      }
      return sendJson(res, 200, await invoke[channel]({ sender: trustedSender }, payload));
    }

    if (p === '/__events') {
      if (!tokenOk(url.searchParams.get('token'))) return refuse(res, p, 'missing or wrong token');
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
      res.write(': connected\n\n');
      sse.add(res);
      req.on('close', () => sse.delete(res));
      return;
    }

    if (req.method !== 'GET' && req.method !== 'HEAD') return sendJson(res, 405, { ok: false, error: 'GET only', code: 'bad_request' });
    // Electron never asks for one; a browser tab does, and a 404 would look like a page error.
    if (p === '/favicon.ico') return send(res, 204, 'image/x-icon', '');
    if (p === '/__harness/shim.js') return send(res, 200, CONTENT_TYPES['.js']!, shimSource());
    if (p === '/' || p === '/index.html') return send(res, 200, CONTENT_TYPES['.html']!, await servedIndex(rendererDir, token));
    const file = path.resolve(rendererDir, `.${decodeURIComponent(p)}`);
    if (!file.startsWith(rendererDir + path.sep)) return send(res, 404, 'text/plain', 'not found');
    try {
      const body = await readFile(file);
      return send(res, 200, CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream', body);
    } catch {
      return send(res, 404, 'text/plain', 'not found');
    }
  }

  // The calls' WebSocket: the same checks as /__api (Host, Origin, token) before the upgrade;
  // a browser lets any page open a WebSocket to any origin, so the Origin check matters here.
  const callServer = new WebSocketServer({ noServer: true, maxPayload: MAX_BODY_BYTES });
  const refuseUpgrade = (socket: Duplex, pathName: string, reason: string) => {
    refused.push({ path: pathName, reason });
    socket.end('HTTP/1.1 403 Forbidden\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
  };
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const p = url.pathname;
    if (p !== '/__calls') return refuseUpgrade(socket, p, 'no WebSocket here');
    if (!allowedHosts().includes(req.headers.host ?? '')) return refuseUpgrade(socket, p, `host ${JSON.stringify(req.headers.host ?? '')} is not this loopback server`);
    const origin = req.headers.origin;
    if (origin !== undefined && !allowedOrigins().includes(origin)) return refuseUpgrade(socket, p, `origin ${origin}`);
    if (!tokenOk(url.searchParams.get('token'))) return refuseUpgrade(socket, p, 'missing or wrong token');
    callServer.handleUpgrade(req, socket, head, (ws) => serveCalls(ws));
  });
  let socketCalls = 0;
  function serveCalls(ws: WebSocket): void {
    ws.on('message', (data) => {
      socketCalls++;
      let id: unknown = null;
      void (async () => {
        const message = JSON.parse(String(data)) as { id?: unknown; channel?: unknown; request?: unknown };
        id = message.id;
        const channel = message.channel as IpcChannel;
        if (!IPC_CHANNELS.includes(channel)) return { ok: false, error: `unknown channel ${String(channel)}`, code: 'bad_request' };
        return invoke[channel]({ sender: trustedSender }, decodeBytes(message.request ?? null));
      })()
        .catch((e: unknown) => ({ ok: false, error: `bad call: ${errorMessage(e)}`, code: 'bad_request' }))
        .then((result) => {
          if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ id, result }));
        });
    });
  }

  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
  } catch (e) {
    await service.dispose();
    unpinDisplay();
    throw e;
  }
  port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  push = (event, payload) => {
    if (!IPC_EVENTS.includes(event)) throw new Error(`unknown event ${event}`);
    const data = JSON.stringify(payload === undefined ? null : payload);
    for (const res of sse) res.write(`event: ${event}\ndata: ${data}\n\n`);
  };

  let stopping: Promise<void> | null = null;
  return {
    url: (view) => `${origin}/index.html?view=${view}`,
    service,
    origin,
    token,
    hideCalls,
    fitCalls,
    onFit(listener) {
      fitListeners.add(listener);
      return () => void fitListeners.delete(listener);
    },
    modalCalls,
    refused,
    calls,
    audio,
    agentUpdates,
    emit(event, ...payload) {
      push(event, payload[0]);
    },
    eventClients: () => sse.size,
    socketCalls: () => socketCalls,
    stop() {
      stopping ??= (async () => {
        for (const res of sse) res.end();
        sse.clear();
        for (const ws of callServer.clients) ws.terminate();
        callServer.close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
          for (const s of sockets) s.destroy();
        });
        await service.dispose();
        await remote?.close();
        unpinDisplay();
        releaseBuild();
        // A Chrome started through 'chrome:launch' is the user's window in the app; here it is ours to end.
        for (const pid of launchedChromes) {
          try {
            process.kill(-pid, 'SIGKILL');
          } catch {
            // already gone
          }
        }
      })();
      return stopping;
    },
  };
}

let pinned: { display: string | undefined; before: string | undefined; count: number } | null = null;

/** Sets process.env.DISPLAY for the harness's lifetime; harnesses in one process must share a display. */
function pinDisplay(display: string | undefined): () => void {
  if (pinned && pinned.display !== display) {
    throw new Error(`a web harness on display ${pinned.display ?? '(none)'} is already running in this process; one display per process`);
  }
  if (!pinned) {
    pinned = { display, before: process.env.DISPLAY, count: 0 };
    if (display === undefined) delete process.env.DISPLAY;
    else process.env.DISPLAY = display;
  }
  pinned.count++;
  let done = false;
  return () => {
    if (done || !pinned) return;
    done = true;
    if (--pinned.count === 0) {
      if (pinned.before === undefined) delete process.env.DISPLAY;
      else process.env.DISPLAY = pinned.before;
      pinned = null;
    }
  };
}

/** The shipped index.html with the token and the shim added (the file on disk is not changed). */
async function servedIndex(dir: string, token: string): Promise<string> {
  const html = await readFile(path.join(dir, 'index.html'), 'utf8');
  // The shipped CSP (script-src 'self'; connect-src 'self') already allows a same-origin script,
  // fetch and EventSource, so it stays exactly as shipped.
  const inject = `<meta name="${TOKEN_META}" content="${token}">\n    <script src="/__harness/shim.js"></script>\n    `;
  const at = html.search(/<script\b/i);
  if (at < 0) throw new Error('the built index.html has no <script>: cannot inject the harness shim');
  return html.slice(0, at) + inject + html.slice(at);
}

/** {"__deskpilot_bytes__": base64} → Uint8Array, anywhere in the payload. */
export function decodeBytes(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(decodeBytes);
  if (value && typeof value === 'object') {
    const entries = Object.entries(value);
    if (entries.length === 1 && entries[0]![0] === BYTES_MARK && typeof entries[0]![1] === 'string') {
      const buf = Buffer.from(entries[0]![1], 'base64');
      return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
    }
    return Object.fromEntries(entries.map(([k, v]) => [k, decodeBytes(v)]));
  }
  return value;
}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        reject(new Error(`larger than ${limit} bytes`));
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, type: string, body: string | Buffer): void {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
  res.end(body);
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  send(res, status, 'application/json', JSON.stringify(body));
}

import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import { describeDesktop } from '../support/describe-desktop';
import { POLL, WAIT_MS } from '../support/wait-for';
import { IPC_CHANNELS, methodName } from '../../src/protocol/ipc-channels';
import { startWebHarness, type WebHarness } from '../harness/web-harness';
import { UI_BROWSER_ARGS, UI_BROWSER_PATH, type PageGlobals } from '../harness/ui-browser';

// The web harness's bridge on its own: the real AppService behind main's guardedHandlers, over
// loopback HTTP, from a real (headless) Chromium page running the shim — and from plain HTTP
// clients that lack the token or come from elsewhere. No X server needed: nothing here touches
// windows or Chrome tabs — but it needs Debian's Chromium, so it is skipped (or, under
// DESKPILOT_REQUIRE_DESKTOP=1, failed) with the real-desktop suites when that is missing.

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** Raw HTTP so the Host and Origin headers are exactly what we say (fetch would fix Host). */
function request(
  port: number,
  p: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: p, method: opts.method ?? 'GET', headers: opts.headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

describeDesktop('web harness bridge (real AppService and guard over loopback HTTP, headless Chromium)', () => {
  let dir: string;
  let harness: WebHarness;
  let browser: Browser;
  let page: Page;
  let port: number;
  let configFile: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-bridge-'));
    configFile = path.join(dir, 'config', 'config.json');
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DESKPILOT_CONFIG_DIR: path.join(dir, 'config'),
      // Nothing listens there: Chrome is "unavailable", which these tests do not need.
      DESKPILOT_CHROME_URL: 'http://127.0.0.1:9',
      DESKPILOT_LLM_MODEL: '',
      XDG_DATA_HOME: path.join(dir, 'data'),
    };
    delete env.DISPLAY;
    // A stand-in page with the shipped index.html (and so its CSP), independent of the renderer's code.
    const site = path.join(dir, 'site');
    mkdirSync(site);
    const shipped = readFileSync(path.join(__dirname, '../../src/renderer/index.html'), 'utf8');
    writeFileSync(path.join(site, 'index.html'), shipped.replace(/<script type="module"[^>]*><\/script>/, '<script type="module" src="./app.js"></script>'));
    writeFileSync(path.join(site, 'app.js'), 'document.body.dataset.app = "ran";\n');
    [harness, browser] = await Promise.all([
      startWebHarness({ env, rendererDir: site }),
      chromium.launch({ executablePath: UI_BROWSER_PATH, args: UI_BROWSER_ARGS }),
    ]);
    port = Number(new URL(harness.origin).port);
    page = await browser.newPage();
    // Playwright's own 30 s may not be enough on a busy machine.
    page.setDefaultTimeout(WAIT_MS);
    page.setDefaultNavigationTimeout(WAIT_MS);
    await page.goto(harness.url('launcher'));
  });

  afterAll(async () => {
    await browser?.close();
    await harness?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('the page gets one window.api method per channel and window.events, and the token tag is gone', async () => {
    const shape = await page.evaluate(() => {
      const g = globalThis as unknown as PageGlobals;
      return {
        api: Object.keys(g.api).sort(),
        events: typeof g.events.on,
        tokenTag: g.document.querySelector('meta[name="deskpilot-harness-token"]') !== null,
      };
    });
    expect(shape).toEqual({ api: IPC_CHANNELS.map((c) => methodName(c)).sort(), events: 'function', tokenTag: false });
  });

  it('the served copy keeps the shipped CSP, the app script still runs after the shim, and the source index.html has no shim', async () => {
    expect(await page.evaluate(() => (globalThis as unknown as { document: { body: { dataset: { app?: string } } } }).document.body.dataset.app)).toBe('ran');
    const csp = await page.evaluate(() =>
      (globalThis as unknown as PageGlobals).document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content'),
    );
    const src = readFileSync(path.join(__dirname, '../../src/renderer/index.html'), 'utf8');
    const shipped = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(src)?.[1];
    expect(shipped).toMatch(/script-src 'self';/);
    expect(csp).toBe(shipped);
    expect(src).not.toContain('__harness');
  });

  it('settings round-trip through the page: a bad URL is refused with the field named and config.json untouched; a good one is saved', async () => {
    writeFileSync(configFile, '{"chrome":{"url":"http://127.0.0.1:9"}}\n');
    const before = readFileSync(configFile, 'utf8');
    const bad = await page.evaluate(() => (globalThis as unknown as PageGlobals).api.settingsSet({ patch: { llm: { base_url: 'not a url' } } }));
    expect(bad).toEqual({
      ok: false,
      error: 'patch.llm.base_url: must be a URL such as http://localhost:11434/v1',
      code: 'invalid_input',
      fields: [{ path: 'patch.llm.base_url', message: 'must be a URL such as http://localhost:11434/v1' }],
    });
    expect(readFileSync(configFile, 'utf8')).toBe(before);

    const good = await page.evaluate(() => (globalThis as unknown as PageGlobals).api.settingsSet({ patch: { llm: { base_url: 'http://localhost:11434/v1', api_key: 'sk-test' } } }));
    expect(good.ok).toBe(true);
    const saved = JSON.parse(readFileSync(configFile, 'utf8'));
    expect(saved.llm).toEqual({ base_url: 'http://localhost:11434/v1' });
    // The key went to the (fake) secret store, never to config.json nor back to the page.
    expect(readFileSync(configFile, 'utf8')).not.toContain('sk-test');
    const view = await page.evaluate(() => (globalThis as unknown as PageGlobals).api.settingsGet({}));
    expect(view.ok && view.value.llm).toEqual({ base_url: 'http://localhost:11434/v1', model: '', mode: 'strict', has_api_key: true });
  });

  it('audio bytes survive JSON: base64 in the shim, a Uint8Array again before validation', async () => {
    // The real transcriber runs after decoding; point it at a closed local port, not the internet.
    await harness.service.handlers()['settings:set']({ patch: { voice: { enabled: true, base_url: 'http://127.0.0.1:9/v1' } } });
    const bytes = randomBytes(300_000);
    const before = harness.audio.length;
    const r = await page.evaluate(
      ([b64]) => {
        const g = globalThis as unknown as PageGlobals;
        const bin = g.atob(b64);
        const audio = new Uint8Array(bin.length);
        for (let i = 0; i < bin.length; i++) audio[i] = bin.charCodeAt(i);
        return g.api.voiceTranscribe({ audio, mime: 'audio/webm;codecs=opus' });
      },
      [bytes.toString('base64')] as const,
    );
    const seen = harness.audio.slice(before);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.bytes).toBeInstanceOf(Uint8Array);
    expect(seen[0]!.bytes.byteLength).toBe(bytes.length);
    expect(sha(seen[0]!.bytes)).toBe(sha(bytes));
    expect(seen[0]!.mime).toBe('audio/webm;codecs=opus');
    expect(r).toEqual({ ok: false, error: 'cannot reach the transcription server at http://127.0.0.1:9/v1 — set the voice base URL in Settings', code: 'voice_unreachable' });

    const empty = await page.evaluate(() => (globalThis as unknown as PageGlobals).api.voiceTranscribe({ audio: new Uint8Array(0), mime: 'audio/webm' }));
    expect(empty).toMatchObject({ ok: false, error: 'audio: must be between 1 byte and 25 MB', code: 'invalid_input' });
    const notBytes = await page.evaluate(() => (globalThis as unknown as PageGlobals).api.voiceTranscribe({ audio: [1, 2, 3] as never, mime: 'audio/webm' }));
    expect(notBytes).toMatchObject({ ok: false, error: 'audio: must be audio bytes', code: 'invalid_input' });
    expect(harness.audio.length).toBe(before + 1);
  });

  it('window:hide is recorded; events reach the page over SSE', async () => {
    const n = harness.hideCalls.length;
    expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).api.windowHide({}))).toEqual({ ok: true, value: { hidden: true } });
    expect(harness.hideCalls.length).toBe(n + 1);

    await page.evaluate(() => {
      const g = globalThis as unknown as PageGlobals;
      g.seen = [];
      g.events.on('ui:show', (...args: unknown[]) => g.seen!.push(`show ${args.length}`));
      g.events.on('ui:voice', () => g.seen!.push('voice'));
      g.events.on('agent:update', (view) => g.seen!.push(`agent ${view.runId} ${view.status}`));
    });
    await expect.poll(() => harness.eventClients(), POLL).toBeGreaterThan(0);
    harness.emit('ui:show');
    harness.emit('ui:voice');
    // agent:update carries the run's state; the others carry nothing (the listener gets no argument).
    harness.emit('agent:update', { runId: 'a1', version: 1, goal: 'g', status: 'planning', steps: [], notices: [], commands: 0 });
    await expect.poll(() => page.evaluate(() => (globalThis as unknown as PageGlobals).seen), POLL).toEqual(['show 0', 'voice', 'agent a1 planning']);
  });

  it('a request without the token, or with a wrong one, is refused (403) and runs nothing', async () => {
    writeFileSync(configFile, '{}\n');
    const calls = harness.calls.length;
    const hides = harness.hideCalls.length;
    const body = JSON.stringify({ patch: { llm: { base_url: 'http://evil.example/v1' } } });
    const host = `127.0.0.1:${port}`;
    const none = await request(port, '/__api/settings:set', { method: 'POST', headers: { host, 'content-type': 'application/json' }, body });
    expect(none.status).toBe(403);
    expect(JSON.parse(none.body)).toEqual({ ok: false, error: 'refused: unknown sender', code: 'refused' });
    const wrong = await request(port, '/__api/window:hide', {
      method: 'POST',
      headers: { host, 'content-type': 'application/json', 'x-deskpilot-token': 'f'.repeat(64) },
      body: '{}',
    });
    expect(wrong.status).toBe(403);
    expect(harness.calls.length).toBe(calls);
    expect(harness.hideCalls.length).toBe(hides);
    expect(readFileSync(configFile, 'utf8')).toBe('{}\n');
    // Events need the token too.
    expect((await request(port, '/__events', { headers: { host } })).status).toBe(403);
  });

  it('with the token but a foreign Host (DNS rebinding) or a foreign Origin, it is refused too', async () => {
    const calls = harness.calls.length;
    const headers = { 'content-type': 'application/json', 'x-deskpilot-token': harness.token };
    const rebound = await request(port, '/__api/window:hide', { method: 'POST', headers: { ...headers, host: `evil.example:${port}` }, body: '{}' });
    expect(rebound.status).toBe(403);
    const foreign = await request(port, '/__api/window:hide', {
      method: 'POST',
      headers: { ...headers, host: `127.0.0.1:${port}`, origin: 'http://evil.example' },
      body: '{}',
    });
    expect(foreign.status).toBe(403);
    expect(harness.calls.length).toBe(calls);
    // The page itself (same origin, with the token) still works.
    const ok = await request(port, '/__api/window:hide', { method: 'POST', headers: { ...headers, host: `127.0.0.1:${port}` }, body: '{}' });
    expect(ok.status).toBe(200);
    expect(harness.calls.length).toBe(calls + 1);
  });

  it('a page of another origin cannot call the bridge (no token, and CORS does not let it read anything)', async () => {
    const other = await browser.newPage();
    try {
      await other.goto('about:blank');
      const calls = harness.calls.length;
      const r = await other.evaluate(async (origin) => {
        try {
          const res = await fetch(`${origin}/__api/window:hide`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
          return `status ${res.status}`;
        } catch (e) {
          return `blocked: ${(e as Error).name}`;
        }
      }, harness.origin);
      expect(r).toMatch(/^blocked|^status 403/);
      expect(harness.calls.length).toBe(calls);
    } finally {
      await other.close();
    }
  });

  it('once the page has its call socket open, its calls go over it (one open channel, as Electron\'s IPC is)', async () => {
    const before = harness.socketCalls();
    await expect
      .poll(async () => {
        await page.evaluate(() => (globalThis as unknown as PageGlobals).api.windowHide({}));
        return harness.socketCalls();
      }, POLL)
      .toBeGreaterThan(before);
    const calls = harness.calls.length;
    const answer = await page.evaluate(() => (globalThis as unknown as PageGlobals).api.windowHide({}));
    expect(answer).toMatchObject({ ok: true });
    expect(harness.calls.length).toBe(calls + 1);
  });

  it('the call socket needs the token, this Host and no foreign Origin; a bad call gets an error, not a crash', async () => {
    const calls = harness.calls.length;
    const open = (query: string, headers: Record<string, string> = {}) =>
      new Promise<WebSocket | number>((resolve) => {
        const ws = new WebSocket(`ws://127.0.0.1:${port}/__calls${query}`, { headers });
        ws.once('open', () => resolve(ws));
        ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        ws.once('error', () => resolve(-1));
      });
    const token = `?token=${harness.token}`;
    expect(await open('')).toBe(403);
    expect(await open(`?token=${'f'.repeat(64)}`)).toBe(403);
    expect(await open(token, { origin: 'http://evil.example' })).toBe(403);
    expect(await open(token, { host: `evil.example:${port}` })).toBe(403);
    expect(harness.calls.length).toBe(calls);

    const ws = await open(token, { origin: harness.origin });
    if (typeof ws === 'number') throw new Error(`the page's own socket was refused: ${ws}`);
    try {
      const answers: unknown[] = [];
      ws.on('message', (data) => answers.push(JSON.parse(String(data))));
      ws.send(JSON.stringify({ id: 7, channel: 'window:hide', request: {} }));
      ws.send(JSON.stringify({ id: 8, channel: 'fs:read', request: {} }));
      ws.send('not json');
      await expect.poll(() => answers.length, POLL).toBe(3);
      expect(answers).toContainEqual({ id: 7, result: { ok: true, value: { hidden: true } } });
      expect(answers).toContainEqual({ id: 8, result: { ok: false, error: 'unknown channel fs:read', code: 'bad_request' } });
      expect(answers).toContainEqual(expect.objectContaining({ id: null, result: expect.objectContaining({ ok: false, code: 'bad_request' }) }));
      expect(harness.calls.length).toBe(calls + 1);
    } finally {
      ws.close();
    }
  });

  it('paths outside the build are not served; unknown channels are 404', async () => {
    const host = `127.0.0.1:${port}`;
    expect((await request(port, '/../../package.json', { headers: { host } })).status).toBe(404);
    expect((await request(port, '/%2e%2e/%2e%2e/package.json', { headers: { host } })).status).toBe(404);
    const unknown = await request(port, '/__api/fs:read', { method: 'POST', headers: { host, 'x-deskpilot-token': harness.token }, body: '{}' });
    expect(unknown.status).toBe(404);
    expect(existsSync(configFile)).toBe(true);
  });
});

import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli';
import { describeDesktop } from '../support/describe-desktop';
import { startDesktop, type Desktop } from '../support/desktop';
import { expectFrameNear } from '../support/expect-frame';
import { RawCdp } from '../support/raw-cdp';
import { waitFor } from '../support/wait-for';
import { frameOf } from '../support/x-observe';
import { dataOf, httpClient, textOf, type McpTestClient } from './mcp-client';
import { startCli, type RunningCli } from './running-cli';

// `deskpilot mcp --http` beside a running `deskpilot service`, on the real test desktop: the
// endpoint refuses what it must (no token, a wrong one, a web page's Origin, a rebound Host),
// the SDK's Client with the token drives the real windows and tabs, elicitation travels on
// the tool call's own stream, and desk changes the service publishes reach subscribers.

const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl-like', version: '1' } } };

/** A raw POST to the endpoint, with exactly these headers (Host included: fetch cannot set it). */
function post(url: string, headers: Record<string, string>, body: unknown = INIT): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, body: text }));
      // An accepted initialize answers on an event stream that stays open: the head is enough.
      if (res.statusCode === 200) {
        resolve({ status: 200, body: '' });
        res.destroy();
      }
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

describeDesktop('deskpilot mcp --http beside the warm service', () => {
  let desk: Desktop;
  let raw: RawCdp;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let service: RunningCli;
  let mcp: RunningCli;
  let url: string;
  let token: string;
  let client: McpTestClient;
  let answer: 'accept' | 'decline' = 'decline';
  let xtermId: string;
  const tokenFile = () => path.join(dir, 'config', 'mcp-token');

  const startHttp = (...extra: string[]) => startCli(['mcp', '--http', '--port', '0', ...extra], env, /bearer token[^\n]*\n/);
  const urlOf = (out: string) => /DeskPilot MCP server at (http:\/\/127\.0\.0\.1:\d+\/mcp), (through the running DeskPilot service|with the engine in this process)\n/.exec(out)?.[1];

  beforeAll(async () => {
    desk = await startDesktop({ apps: ['xterm'], chrome: true });
    raw = await RawCdp.connect(desk.chrome!.browserWsUrl);
    dir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-mcp-http-'));
    env = { ...desk.env, DESKPILOT_CONFIG_DIR: path.join(dir, 'config'), DESKPILOT_CHROME_URL: desk.chrome!.browserWsUrl, XDG_DATA_DIRS: '/usr/share' };
    // The service is wired from the environment; the MCP server then must not bring its own engine.
    service = await startCli(['service'], env, /listening on /);
    mcp = await startHttp();
    url = urlOf(mcp.stdout())!;
    expect(mcp.stdout()).toContain(`DeskPilot MCP server at ${url}, through the running DeskPilot service\n`);
    token = /bearer token \(shown this once; it is kept in [^)]+\): (\S+)\n/.exec(mcp.stdout())![1]!;
    client = await httpClient(url, token, { elicit: async () => ({ action: answer }) });
    const ctx = await runCli(['context', '--json', '--no-summaries'], { env });
    xtermId = (ctx.json.running_apps as Array<{ pid: number; windows: Array<{ id: string }> }>).find((a) => a.pid === desk.pids.apps.xterm)!.windows[0]!.id;
  });

  afterAll(async () => {
    await client?.close();
    await mcp?.stop();
    await service?.stop();
    await raw?.dispose();
    await desk?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('makes the token once, readable by this user only, and shows it this once', () => {
    expect(statSync(tokenFile()).mode & 0o777).toBe(0o600);
    expect(readFileSync(tokenFile(), 'utf8').trim()).toBe(token);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  describe('refusals', () => {
    it('no token, a wrong token: 401 with a Bearer challenge', async () => {
      const none = await post(url, {});
      expect(none.status).toBe(401);
      expect(JSON.parse(none.body).error.message).toMatch(/^missing bearer token/);
      const wrong = await post(url, { authorization: `Bearer ${token.slice(0, -1)}x` });
      expect(wrong.status).toBe(401);
      expect(JSON.parse(wrong.body).error.message).toBe('wrong bearer token');
      const right = await post(url, { authorization: `Bearer ${token}` });
      expect(right.status).toBe(200);
    });

    it("a web page's Origin and a Host that is not loopback are refused, even with the token", async () => {
      const auth = { authorization: `Bearer ${token}` };
      const page = await post(url, { ...auth, origin: 'https://evil.example' });
      expect(page.status).toBe(403);
      expect(JSON.parse(page.body).error.message).toBe('requests from web pages are refused (Origin https://evil.example)');
      expect((await post(url, { ...auth, origin: 'null' })).status).toBe(403);
      const port = new URL(url).port;
      const rebound = await post(url, { ...auth, host: `evil.example:${port}` });
      expect(rebound.status).toBe(403);
      expect(JSON.parse(rebound.body).error.message).toBe(`Host evil.example:${port} is not this computer's loopback address`);
      // This computer's own pages (a local inspector UI) may talk to it.
      expect((await post(url, { ...auth, origin: 'http://localhost:6274' })).status).toBe(200);
    });

    it('a tool call without the token does nothing', async () => {
      const before = await raw.titles();
      const call = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'open_url', arguments: { url: desk.pages.url('page', { title: 'Sneaky' }) } } };
      expect((await post(url, {}, call)).status).toBe(401);
      expect((await post(url, { 'mcp-session-id': 'made-up' }, call)).status).toBe(401);
      expect(await raw.titles()).toEqual(before);
    });

    it('refuses a non-loopback bind without --allow-non-loopback, and a bad port', async () => {
      const wide = await runCli(['mcp', '--http', '--host', '0.0.0.0', '--port', '0'], { env });
      expect(wide.code).toBe(2);
      expect(wide.stderr).toBe(
        '--host 0.0.0.0 is not a loopback address: anyone who reaches it and has the token could drive this desktop. Use 127.0.0.1, or pass --allow-non-loopback if you really mean it.\n',
      );
      const port = await runCli(['mcp', '--http', '--port', 'eighty'], { env });
      expect(port.code).toBe(2);
      expect(port.stderr).toBe('--port: must be a whole number from 0 to 65535 (0 picks a free port), not "eighty"\n');
    });
  });

  it('the SDK client with the token lists the tools and switches a real tab', async () => {
    const { tools } = await client.client.listTools();
    // The same tools as over stdio (mcp-stdio.test.ts checks the whole list and each one's annotations).
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['desktop_snapshot', 'search_tabs', 'switch_tab', 'close_tabs', 'place_app', 'do']));
    const page = desk.pages.url('page', { title: 'Over HTTP' });
    await raw.open(page);
    const list = dataOf(await client.call('search_tabs', { query: 'over http', ids: true }));
    const tab = list.tabs[0];
    const r = await client.call('switch_tab', { snapshot_id: list.snapshot_id, tab_index: tab.i });
    expect(r.isError).toBeFalsy();
    await raw.waitFor(async () => (await raw.evaluate(tab.id, 'document.visibilityState')) === 'visible');
  });

  it('place_app moves the real window', async () => {
    const r = await client.call('place_app', { app_name: 'XTerm', position: 'right_half', monitor: 'right' });
    expect(r.isError).toBeFalsy();
    expectFrameNear(frameOf(env, xtermId), [2880, 0, 3840, 1080]);
  });

  it('closing asks the user over HTTP, on the call\'s own stream: decline keeps the tab, accept closes it', async () => {
    await raw.open(desk.pages.url('page', { title: 'Ask First' }));
    const list = dataOf(await client.call('search_tabs', { query: 'ask first' }));
    const args = { snapshot_id: list.snapshot_id, tab_indices: [list.tabs[0].i] };
    answer = 'decline';
    const no = await client.call('close_tabs', args);
    expect(textOf(no)).toMatch(/^Cancelled: the user said no\./);
    expect(await raw.titles()).toContain('Ask First');
    answer = 'accept';
    const yes = await client.call('close_tabs', args);
    expect(textOf(yes)).toMatch(/^Closed 1 tab: tab \d+ "Ask First"/);
    expect(await raw.titles()).not.toContain('Ask First');
    expect(client.asked).toHaveLength(2);
  });

  it('a subscriber to the desktop resource hears changes the warm service publishes', async () => {
    let updated = 0;
    client.client.setNotificationHandler(ResourceUpdatedNotificationSchema, () => void updated++);
    await client.client.subscribeResource({ uri: 'deskpilot://desktop' });
    await raw.open(desk.pages.url('page', { title: 'Published' }));
    await waitFor('a resources/updated notification from the service', () => updated > 0);
    const read = await client.client.readResource({ uri: 'deskpilot://desktop' });
    expect((read.contents[0] as { text: string }).text).toContain('"Published"');
    await client.client.unsubscribeResource({ uri: 'deskpilot://desktop' });
  });

  it('sessions a client left without ending make room for new ones; a client still listening keeps its own', async () => {
    // More initializations than the server keeps sessions, each left behind at once.
    for (let i = 0; i < 40; i++) expect((await post(url, { authorization: `Bearer ${token}` })).status).toBe(200);
    const r = await client.call('list_presets');
    expect(r.isError).toBeFalsy();
  });

  it('when the warm service stops, the MCP server carries on in its own process', async () => {
    await service.stop();
    const before = frameOf(env, xtermId);
    // An action is not repeated on the new desk: it might have run before the service went.
    const acted = await client.call('place_app', { app_name: 'XTerm', bounds: [100, 100, 700, 500] });
    expect(acted.isError).toBe(true);
    expect(textOf(acted)).toMatch(/^DeskPilot failed: the DeskPilot service .*; it may or may not have run\. Look \(e\.g\. list_tabs or list_apps\) before trying again/);
    expect(frameOf(env, xtermId)).toEqual(before);
    // A read is simply answered, now by an engine in the MCP server's process.
    expect((await client.call('list_apps')).isError).toBeFalsy();
    const again = await client.call('place_app', { app_name: 'XTerm', bounds: [100, 100, 700, 500] });
    expect(again.isError).toBeFalsy();
    expectFrameNear(frameOf(env, xtermId), [100, 100, 700, 500]);
  });

  it('a restart keeps the token without showing it; --new-token replaces it and the old one stops working', async () => {
    await client.close();
    expect(await mcp.stop()).toBe(0);
    mcp = await startHttp();
    expect(mcp.stdout()).toContain(`bearer token: in ${tokenFile()} (not shown again; --new-token makes a new one)\n`);
    expect(mcp.stdout()).not.toContain(token);
    url = urlOf(mcp.stdout())!;
    expect((await post(url, { authorization: `Bearer ${token}` })).status).toBe(200);

    await mcp.stop();
    mcp = await startHttp('--new-token');
    url = urlOf(mcp.stdout())!;
    const renewed = /bearer token \(shown this once; it is kept in [^)]+\): (\S+)\n/.exec(mcp.stdout())![1]!;
    expect(renewed).not.toBe(token);
    expect((await post(url, { authorization: `Bearer ${token}` })).status).toBe(401);
    expect((await post(url, { authorization: `Bearer ${renewed}` })).status).toBe(200);
    token = renewed;
    client = await httpClient(url, token);
  });

  it('a token file others can read is refused, not trusted', async () => {
    await mcp.stop();
    chmodSync(tokenFile(), 0o644);
    try {
      const r = await runCli(['mcp', '--http', '--port', '0'], { env });
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`deskpilot mcp: ${tokenFile()}: others can read it (mode 644), so the token may be known; start with --new-token to replace it\n`);
    } finally {
      chmodSync(tokenFile(), 0o600);
    }
  });
});

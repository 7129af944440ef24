import http from 'node:http';
import { LoggingMessageNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { SyncConnection } from '../../src/platform/sync/sync-connection';
import { dataOf, stdioClient, textOf, type McpTestClient } from '../mcp/mcp-client';
import { startCli } from '../mcp/running-cli';
import { describeDesktop } from '../support/describe-desktop';
import type { Desktop } from '../support/desktop';
import type { RawCdp } from '../support/raw-cdp';
import { waitFor } from '../support/wait-for';
import { onlineWithDesk, startTwoDevices, stopTwoDevices, type TwoDevices } from './sync-rig';

// A call of `deskpilot mcp` on A aimed at device B, cancelled by the client (the SDK's Client
// sends notifications/cancelled when the call's signal aborts): the row waiting for B is
// withdrawn if B has not taken it, and what became of the call is told as a log message (the
// cancelled call itself gets no answer). Also the TTL seen through MCP: a B waking after it runs
// nothing, a B waking within it runs the command once. Real sync server, real device workers.

const A = 'work laptop';
const B = 'home desktop';

type Log = { cancelled_call?: string; ran?: boolean; message?: string; code?: string };

/** A page whose answer the test releases: a command opening it runs on B until then. */
async function startHeldPage(): Promise<{ url: string; hits(): number; release(): void; stop(): Promise<void> }> {
  let hits = 0;
  let released = false;
  const held = new Set<http.ServerResponse>();
  const answer = (res: http.ServerResponse) => res.end('<!doctype html><title>Released</title>Released');
  const server = http.createServer((req, res) => {
    // Chromium also asks for a favicon: only the page counts.
    if (req.url !== '/held') return void res.writeHead(404).end();
    hits++;
    if (released) answer(res);
    else held.add(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/held`,
    hits: () => hits,
    release: () => {
      released = true;
      for (const r of held) answer(r);
      held.clear();
    },
    stop: async () => {
      for (const r of held) r.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A POST whose response head is read (its body stream is left to the caller to end). */
function post(url: string, headers: Record<string, string>, body: unknown): Promise<{ headers: http.IncomingHttpHeaders; req: http.ClientRequest }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers }, (res) => resolve({ headers: res.headers, req }));
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

describeDesktop('cancelling an MCP call aimed at another device', () => {
  let rig: TwoDevices;
  let deskB: Desktop;
  let rawB: RawCdp;
  let obs: SyncConnection;
  let mcp: McpTestClient;
  const logs: Log[] = [];

  beforeAll(async () => {
    rig = await startTwoDevices(A, B);
    ({ deskB, rawB, obs } = rig);
    const allowed = await rig.b.cli(['devices', 'allow', A, '--without-asking']);
    if (allowed.code !== 0) throw new Error(`devices allow failed: ${allowed.stderr}`);
    // B publishes its desk once, then goes offline: A can prepare against what B published.
    await rig.b.startService();
    await onlineWithDesk(obs, B);
    await rig.b.stopService();
    mcp = await stdioClient(rig.a.env());
    mcp.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params.data as Log));
  }, 300_000);

  afterAll(async () => {
    await mcp?.close();
    await stopTwoDevices(rig ?? {});
  });

  const urls = async () => (await rawB.pages()).map((p) => p.url);
  const runRows = () =>
    obs.doc.rowIds().filter((id) => {
      const r = obs.doc.readRow(id);
      return r?.ok && r.row.action === 'run';
    });
  /** Calls a tool with a signal the test aborts; the promise rejects once the client cancelled it. */
  const cancellable = (client: McpTestClient, name: string, args: Record<string, unknown>) => {
    const ac = new AbortController();
    const call = client.client.callTool({ name, arguments: args }, undefined, { signal: ac.signal }) as Promise<CallToolResult>;
    call.catch(() => undefined);
    return { call, cancel: () => ac.abort('the user pressed stop') };
  };
  const bBack = async () => {
    await rig.b.startService();
    await onlineWithDesk(obs, B);
  };

  it('B offline: the cancelled open_url is withdrawn, the log says so, and B coming back runs nothing', async () => {
    const url = deskB.pages.url('page', { title: 'Cancelled While Offline' });
    const { call, cancel } = cancellable(mcp, 'open_url', { url, device: B });
    await waitFor('the row for B to be written', () => runRows().length === 1);
    cancel();
    await expect(call).rejects.toThrow();
    await waitFor('the row to be withdrawn', () => runRows().length === 0);
    const log = await waitFor('the log of the cancelled call', () => logs.find((l) => l.cancelled_call === 'open_url') ?? false);
    expect(log.ran).toBe(false);
    expect(log.code).toBe('cancelled');
    expect(log.message).toContain(`withdrawn before "${B}" ran it`);

    await bBack();
    // B has caught up with the document (it published afresh) and opened nothing.
    expect(await urls()).not.toContain(url);
    expect(rig.b.service!.output()).not.toContain('running command');
    await rig.b.stopService();
  });

  it('over HTTP, a client that drops its tools/call request has the row withdrawn; B coming back runs nothing', async () => {
    const server = await startCli(['mcp', '--http', '--port', '0'], rig.a.env(), /bearer token[^\n]*\n/);
    try {
      const url = /DeskPilot MCP server at (\S+),/.exec(server.stdout())![1]!;
      const token = /bearer token \(shown this once; it is kept in [^)]+\): (\S+)\n/.exec(server.stdout())![1]!;
      const headers: Record<string, string> = { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      const init = await post(url, headers, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'dropper', version: '1' } } });
      const session = { ...headers, 'mcp-session-id': init.headers['mcp-session-id'] as string, 'mcp-protocol-version': '2025-06-18' };
      init.req.destroy();
      (await post(url, session, { jsonrpc: '2.0', method: 'notifications/initialized' })).req.destroy();
      const page = deskB.pages.url('page', { title: 'Dropped Over HTTP' });
      const call = http.request(url, { method: 'POST', headers: session });
      call.on('error', () => undefined);
      call.end(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'open_url', arguments: { url: page, device: B } } }));
      await waitFor('the row for B to be written', () => runRows().length === 1);
      call.destroy();
      await waitFor('the row to be withdrawn', () => runRows().length === 0);
      await bBack();
      expect(await urls()).not.toContain(page);
      expect(rig.b.service!.output()).not.toContain('running command');
    } finally {
      await rig.b.stopService();
      await server.stop();
    }
  });

  it('B slow (it took the command): the cancelled call waits for B\'s answer, and the log says it ran', async () => {
    const page = await startHeldPage();
    try {
      await bBack();
      logs.length = 0;
      const { call, cancel } = cancellable(mcp, 'open_url', { url: page.url, device: B });
      await waitFor('B to start opening the page', () => page.hits() === 1);
      await waitFor('B to mark the row taken', () =>
        runRows().some((id) => {
          const r = obs.doc.readRow(id);
          return r?.ok === true && r.row.taken !== undefined;
        }),
      );
      cancel();
      await expect(call).rejects.toThrow();
      // Taken rows are not withdrawn: B finishes, and its answer is what the log tells.
      expect(runRows()).toHaveLength(1);
      page.release();
      const log = await waitFor('the log of the cancelled call', () => logs.find((l) => l.cancelled_call === 'open_url') ?? false);
      expect(log.ran).toBe(true);
      expect(log.message).toContain('open_url was cancelled too late: it had already run.');
      expect(log.message).toContain(`On "${B}"`);
      expect(log.message).toContain(page.url);
      await waitFor('the answered row to be deleted', () => runRows().length === 0);
      expect(page.hits()).toBe(1);
    } finally {
      await rig.b.stopService();
      await page.stop();
    }
  });

  it('a device waking after the TTL runs nothing; one waking within it runs the command once', async () => {
    const short = await stdioClient(rig.a.env({ DESKPILOT_SYNC_TTL_MS: '3000' }));
    try {
      const late = deskB.pages.url('page', { title: 'Woke Too Late' });
      const r = await short.call('open_url', { url: late, device: B });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toContain('did not answer within 3 s');
      expect(textOf(r)).toContain('it will not run from now on');
      await rig.b.startService({ DESKPILOT_SYNC_TTL_MS: '3000' });
      await waitFor('B to delete the expired row unrun', () => runRows().length === 0);
      await onlineWithDesk(obs, B);
      expect(rig.b.service!.output()).toContain('expired before it reached this device; not run');
      expect(await urls()).not.toContain(late);
      await rig.b.stopService();
    } finally {
      await short.close();
    }

    const inTime = deskB.pages.url('page', { title: 'Woke In Time' });
    const pending = mcp.call('open_url', { url: inTime, device: B });
    await waitFor('the row for B to be written', () => runRows().length === 1);
    await rig.b.startService();
    const done = await pending;
    expect(done.isError, textOf(done)).toBeFalsy();
    expect(dataOf(done).device.name).toBe(B);
    await rawB.waitFor(async () => (await urls()).includes(inTime), 'the tab on B');
    await waitFor('the answered row to be deleted', () => runRows().length === 0);
    expect((await urls()).filter((u) => u === inTime)).toHaveLength(1);
  });
});

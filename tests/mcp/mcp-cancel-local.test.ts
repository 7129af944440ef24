import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LoggingMessageNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeDesktop } from '../support/describe-desktop';
import { startDesktop, type Desktop } from '../support/desktop';
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai-server';
import { RawCdp } from '../support/raw-cdp';
import { gate, waitFor } from '../support/wait-for';
import { stdioClient } from './mcp-client';
import { startCli, type RunningCli } from './running-cli';

// A long local call cancelled by the MCP client: `do` waiting on the LLM planner (the scripted
// OpenAI-compatible server holds its answer) stops at once, in this process and through the
// warm service alike, and what the model would have planned never runs when its answer comes.

type Log = { cancelled_call?: string; code?: string; message?: string };

describeDesktop('cancelling a long local MCP call (do waiting on the LLM)', () => {
  let desk: Desktop;
  let raw: RawCdp;
  let dir: string;
  let llm: FakeOpenAi;
  let env: NodeJS.ProcessEnv;
  let service: RunningCli | null = null;

  beforeAll(async () => {
    desk = await startDesktop({ chrome: true });
    raw = await RawCdp.connect(desk.chrome!.browserWsUrl);
    llm = await startFakeOpenAi();
    dir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-mcp-cancel-'));
    env = {
      ...desk.env,
      DESKPILOT_CONFIG_DIR: path.join(dir, 'config'),
      DESKPILOT_CHROME_URL: desk.chrome!.browserWsUrl,
      DESKPILOT_LLM_BASE_URL: llm.baseURL,
      DESKPILOT_LLM_MODEL: 'scripted-model',
      DESKPILOT_LLM_TIMEOUT_MS: '120000',
    };
  });

  afterAll(async () => {
    await service?.stop();
    await llm?.stop();
    await raw?.dispose();
    await desk?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Cancels a `do` while the LLM holds its answer; the answer (open a page) comes only after the log says it was cancelled. */
  async function cancelWhilePlanning(where: string) {
    const url = desk.pages.url('page', { title: `Never Opened ${where}` });
    const held = gate();
    llm.script({ json: { commands: [{ type: 'open_url', url }], needs_clarification: false, clarification_reason: null }, after: held.opened });
    const mcp = await stdioClient(env);
    const logs: Log[] = [];
    mcp.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params.data as Log));
    try {
      expect(mcp.stderr()).toContain(where);
      const before = llm.requests.length;
      const ac = new AbortController();
      const call = mcp.client.callTool({ name: 'do', arguments: { text: 'make my browser show that page i keep forgetting about' } }, undefined, { signal: ac.signal }) as Promise<CallToolResult>;
      call.catch(() => undefined);
      await llm.waitForRequests(before + 1);
      ac.abort('the user pressed stop');
      await expect(call).rejects.toThrow();
      const log = await waitFor('the log of the cancelled do', () => logs.find((l) => l.cancelled_call === 'do') ?? false);
      // The engine in this process says it was the LLM request that was cancelled.
      expect(['cancelled', 'llm_cancelled']).toContain(log.code);
      held.open();
      // The planner's answer arrives now; a later call proves the server is past it, and nothing opened.
      expect((await mcp.call('list_tabs')).isError).toBeFalsy();
      expect((await raw.pages()).map((p) => p.url)).not.toContain(url);
    } finally {
      held.open();
      await mcp.close();
    }
  }

  it('in this process: the plan is aborted and nothing runs', async () => {
    await cancelWhilePlanning('with the engine in this process');
  });

  it('through the warm service: the call stops waiting for the plan, and nothing runs when it comes', async () => {
    service = await startCli(['service'], env, /listening on /);
    await cancelWhilePlanning('through the running DeskPilot service');
  });
});

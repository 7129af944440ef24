import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { stdioClient, type McpTestClient, callConfirmed, textOf } from '../mcp/mcp-client';
import { runCli } from '../support/cli';
import { describeDesktop } from '../support/describe-desktop';
import { startDesktop, type Desktop } from '../support/desktop';
import { frameOf } from '../support/x-observe';

// D8: MCP `undo` closes the tabs an undone action opened, yet it ran without asking and was
// annotated destructiveHint: false. The SDK's own client spawns the real `deskpilot mcp` over
// stdio on the real test desktop; the undone action is a move of xterm's window, read back
// with the X tools, so "nothing is undone" is checked on the desk itself.

describeDesktop('MCP undo asks first (D8)', () => {
  let desk: Desktop;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let plain: McpTestClient;
  let declining: McpTestClient;
  let xtermId: string;

  beforeAll(async () => {
    desk = await startDesktop({ apps: ['xterm'] });
    dir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-mcp-undo-'));
    env = { ...desk.env, DESKPILOT_CONFIG_DIR: dir };
    delete env.XDG_RUNTIME_DIR;
    plain = await stdioClient(env);
    declining = await stdioClient(env, { elicit: async () => ({ action: 'decline' }) });
    const ctx = await runCli(['context', '--json', '--no-summaries'], { env });
    xtermId = (ctx.json.running_apps as Array<{ pid: number; windows: Array<{ id: string }> }>).find((a) => a.pid === desk.pids.apps.xterm)!.windows[0]!.id;
  });

  afterAll(async () => {
    await plain?.close();
    await declining?.close();
    await desk?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is annotated destructive', async () => {
    const { tools } = await plain.client.listTools();
    const undo = tools.find((t) => t.name === 'undo');
    expect(undo?.annotations?.destructiveHint).toBe(true);
    expect(undo?.inputSchema.properties).toHaveProperty('confirm_token');
  });

  it('a client that cannot ask is refused with the question to put, and nothing is undone', async () => {
    await plain.call('place_app', { app_name: 'XTerm', bounds: [300, 300, 900, 800] });
    await plain.call('place_app', { app_name: 'XTerm', bounds: [2400, 400, 3000, 900] });
    const moved = frameOf(env, xtermId);
    const r = await plain.call('undo', { steps: 2 });
    expect(frameOf(env, xtermId)).toEqual(moved);
    expect(r.isError).toBe(true);
    expect(r.structuredContent).toMatchObject({ status: 'needs_confirmation' });
    expect(JSON.stringify(r.content)).toContain('Undo the last 2 actions');
    expect(textOf(r)).toContain('call undo again with the same arguments and confirm_token: "ct_');
  });

  it('a client that can ask puts the question to the user; a no cancels it', async () => {
    const moved = frameOf(env, xtermId);
    const r = await declining.call('undo', {});
    expect(frameOf(env, xtermId)).toEqual(moved);
    expect(declining.asked).toHaveLength(1);
    expect(declining.asked[0]).toContain('may close tabs');
    expect(r.structuredContent).toMatchObject({ status: 'cancelled' });
  });

  it('with the yes given (its confirm_token) it runs: the last move is put back', async () => {
    const moved = frameOf(env, xtermId);
    const r = await callConfirmed(plain, 'undo');
    expect(r.isError).toBeFalsy();
    expect(JSON.stringify(r.content)).toContain('Undid');
    expect(frameOf(env, xtermId)).not.toEqual(moved);
  });
});

import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeDesktop } from '../support/describe-desktop';
import { startDesktop, type Desktop } from '../support/desktop';
import { dataOf, stdioClient, textOf } from './mcp-client';
import { startCli, type RunningCli } from './running-cli';

// `deskpilot mcp` started the way MCP clients start it (the Inspector, Claude Desktop): an
// environment of only PATH and HOME (plus what the SDK's StdioClientTransport always passes:
// LOGNAME, SHELL, TERM, USER), so no DISPLAY and no XDG_RUNTIME_DIR. With the user's service
// running in the desktop session it finds that service (its socket is under the service's
// XDG_RUNTIME_DIR) and answers with that desk's windows; without one it says which variables
// the client must pass.

describeDesktop('deskpilot mcp with a minimal environment', () => {
  let desk: Desktop;
  let home: string;
  let service: RunningCli | null = null;
  /** Only what an MCP client passes. */
  let bare: NodeJS.ProcessEnv;

  beforeAll(async () => {
    desk = await startDesktop({ apps: ['xterm'], chrome: true });
    home = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-mcp-bare-'));
    const runtime = path.join(home, 'run');
    mkdirSync(runtime, { mode: 0o700 });
    // The desktop session's service: the default config folder under HOME, its socket under XDG_RUNTIME_DIR.
    const session: NodeJS.ProcessEnv = { ...desk.env, HOME: home, XDG_RUNTIME_DIR: runtime, DESKPILOT_CHROME_URL: desk.chrome!.browserWsUrl };
    for (const v of ['DESKPILOT_CONFIG_DIR', 'DESKPILOT_STATE_DIR', 'XDG_CONFIG_HOME', 'XDG_STATE_HOME', 'XDG_CACHE_HOME']) delete session[v];
    service = await startCli(['service'], session, /listening on /);
    expect(service.stdout()).toContain(runtime);
    bare = { PATH: process.env.PATH, HOME: home };
  });

  afterAll(async () => {
    await service?.stop();
    await desk?.stop();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it('finds the running service and lists that desk\'s windows', async () => {
    const mcp = await stdioClient(bare);
    try {
      expect(mcp.stderr()).toContain('through the running DeskPilot service');
      const r = await mcp.call('list_windows');
      expect(r.isError, textOf(r)).toBeFalsy();
      const apps = (dataOf(r).windows as Array<Record<string, unknown>>).map((w) => JSON.stringify(w));
      expect(apps.some((w) => /xterm/i.test(w)), textOf(r)).toBe(true);
    } finally {
      await mcp.close();
    }
  });

  it('without a service it names the variables to pass, on stderr and in the instructions the model reads', async () => {
    await service?.stop();
    service = null;
    const mcp = await stdioClient(bare);
    try {
      expect(mcp.stderr()).toContain('with the engine in this process');
      expect(mcp.stderr()).toContain('DISPLAY and WAYLAND_DISPLAY are not set');
      expect(mcp.stderr()).toContain('"env": {"DISPLAY": ":0", "XDG_RUNTIME_DIR": "/run/user/');
      expect(mcp.client.getInstructions()).toContain('Start `deskpilot service` in your desktop session');
    } finally {
      await mcp.close();
    }
  });
});

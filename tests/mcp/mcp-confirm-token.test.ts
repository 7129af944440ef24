import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeDesktop } from '../support/describe-desktop';
import { startDesktop, type Desktop } from '../support/desktop';
import { RawCdp } from '../support/raw-cdp';
import { dataOf, stdioClient, textOf, tokenOf } from './mcp-client';
import { startCli, type RunningCli } from './running-cli';

// The one confirmation protocol (issue 29.2) as a client that starts a new `deskpilot mcp` per
// call sees it (the Inspector's CLI mode does): the first process answers with what would run
// and a confirm_token, and a second process, started afresh, runs exactly that batch with the
// token — the batch is held by the warm service. Real desktop, real Chromium, real service.

describeDesktop('confirm_token across separate deskpilot mcp processes', () => {
  let desk: Desktop;
  let raw: RawCdp;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let service: RunningCli | null = null;

  beforeAll(async () => {
    desk = await startDesktop({ chrome: true });
    raw = await RawCdp.connect(desk.chrome!.browserWsUrl);
    dir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-mcp-token-'));
    env = { ...desk.env, DESKPILOT_CONFIG_DIR: path.join(dir, 'config'), DESKPILOT_CHROME_URL: desk.chrome!.browserWsUrl };
    service = await startCli(['service'], env, /listening on /);
  });

  afterAll(async () => {
    await service?.stop();
    await raw?.dispose();
    await desk?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const urls = async () => (await raw.pages()).map((p) => p.url);
  /** One call in a `deskpilot mcp` of its own, started and stopped around it. */
  const once = async (name: string, args: Record<string, unknown>) => {
    const c = await stdioClient(env);
    try {
      expect(c.stderr()).toContain('through the running DeskPilot service');
      return await c.call(name, args);
    } finally {
      await c.close();
    }
  };

  it('close_tabs: one process asks, a second one confirms with the token and closes exactly that tab', async () => {
    const url = desk.pages.url('page', { title: 'Close In Two Steps' });
    const id = await raw.open(url);
    const asked = await once('close_tabs', { tab_ids: [id] });
    expect(asked.isError).toBe(true);
    expect(dataOf(asked).status).toBe('needs_confirmation');
    expect(textOf(asked)).toContain('Close In Two Steps');
    expect(await urls()).toContain(url);

    const done = await once('close_tabs', { tab_ids: [id], confirm_token: tokenOf(asked) });
    expect(done.isError, textOf(done)).toBeFalsy();
    expect(textOf(done)).toContain('Close In Two Steps');
    await raw.waitFor(async () => !(await urls()).includes(url), 'the tab to close');
    // Used once: a third process bringing it again runs nothing.
    const again = await once('close_tabs', { tab_ids: [id], confirm_token: tokenOf(asked) });
    expect(textOf(again)).toMatch(/^Nothing was done: confirm_token is unknown, used or expired/);
  });

  it('do: the plan shown by one process runs from another (not planned again)', async () => {
    const url = desk.pages.url('page', { title: 'Walrus Facts' });
    await raw.open(url);
    const asked = await once('do', { text: 'close the walrus facts tab' });
    expect(dataOf(asked).status, textOf(asked)).toBe('needs_confirmation');
    expect(dataOf(asked).would_run[0]).toContain('Walrus Facts');
    const done = await once('do', { text: 'close the walrus facts tab', confirm_token: tokenOf(asked) });
    expect(done.isError, textOf(done)).toBeFalsy();
    await raw.waitFor(async () => !(await urls()).includes(url), 'the tab to close');
  });

  it('a tab closed meanwhile: the token is refused as the desk having changed, and nothing else closes', async () => {
    const keep = desk.pages.url('page', { title: 'Keep Me Open' });
    const gone = desk.pages.url('page', { title: 'Gone Meanwhile' });
    const keepId = await raw.open(keep);
    const goneId = await raw.open(gone);
    const asked = await once('close_tabs', { tab_ids: [keepId, goneId] });
    await raw.close(goneId);
    const refused = await once('close_tabs', { tab_ids: [keepId, goneId], confirm_token: tokenOf(asked) });
    expect(refused.isError).toBe(true);
    expect((dataOf(refused).error as { code: string }).code).toBe('desk_changed');
    expect(textOf(refused)).toMatch(/^Nothing was done: the desk changed since the user was asked: tab \d+ "Gone Meanwhile" \(127\.0\.0\.1\) is no longer open\. Call close_tabs again without confirm_token/);
    expect(await urls()).toContain(keep);
  });

  it('without the service, a token is held by the process that gave it: a new process finds none and says to ask again', async () => {
    await service?.stop();
    service = null;
    const url = desk.pages.url('page', { title: 'No Service Here' });
    const id = await raw.open(url);
    const first = await stdioClient(env);
    const second = await stdioClient(env);
    try {
      expect(first.stderr()).toContain('with the engine in this process');
      const asked = await first.call('close_tabs', { tab_ids: [id] });
      const elsewhere = await second.call('close_tabs', { tab_ids: [id], confirm_token: tokenOf(asked) });
      expect(textOf(elsewhere)).toMatch(/^Nothing was done: confirm_token is unknown, used or expired .* Call close_tabs again without confirm_token/);
      expect(await urls()).toContain(url);
      const done = await first.call('close_tabs', { tab_ids: [id], confirm_token: tokenOf(asked) });
      expect(done.isError, textOf(done)).toBeFalsy();
      await raw.waitFor(async () => !(await urls()).includes(url), 'the tab to close');
    } finally {
      await first.close();
      await second.close();
    }
  });
});

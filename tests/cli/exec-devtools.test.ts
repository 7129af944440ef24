import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli';
import { describeDesktop } from '../support/describe-desktop';
import { startDesktop, type Desktop } from '../support/desktop';
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai-server';
import { RawCdp } from '../support/raw-cdp';
import { startRedirectPages, type RedirectPages } from '../support/redirect-pages';

// DeskPilot's own commands cannot reach the browser's DevTools endpoint: the real CLI as a
// child process against a real Chromium, every effect checked through a separate CDP connection.

describeDesktop('the DevTools endpoint is refused to exec, run and presets (real Chromium)', () => {
  let desk: Desktop;
  let raw: RawCdp;
  let pages: RedirectPages;
  let configDir: string;
  let env: NodeJS.ProcessEnv;
  let port: number;
  let victims: string[];

  beforeAll(async () => {
    [desk, pages] = await Promise.all([startDesktop({ chrome: true }), startRedirectPages()]);
    raw = await RawCdp.connect(desk.chrome!.browserWsUrl);
    port = desk.chrome!.port;
    configDir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-devtools-'));
    env = { ...desk.env, DESKPILOT_CHROME_URL: `http://127.0.0.1:${port}`, DESKPILOT_CONFIG_DIR: configDir };
  });

  afterAll(async () => {
    await raw?.dispose();
    await Promise.all([desk?.stop(), pages?.stop()]);
    if (configDir) rmSync(configDir, { recursive: true, force: true });
  });

  // Two tabs of the user's that a hostile command would close.
  beforeEach(async () => {
    const before = await raw.pages();
    victims = [await raw.open(`${pages.base}/page?title=One`), await raw.open(`${pages.base}/page?title=Two`)];
    for (const p of before) await raw.close(p.targetId);
  });

  const open = async () => (await raw.pages()).map((p) => p.targetId).sort();
  const close = (id: string) => `http://127.0.0.1:${port}/json/close/${id}`;
  const reason = (url: string) => `refused: ${url} is DeskPilot's own DevTools endpoint; opening it would let a page control the browser`;
  const exec = (json: unknown, ...flags: string[]) => runCli(['exec', ...flags, JSON.stringify(json)], { env });

  it('exec open_url to /json/close/<id> exits 2 with the reason, and the tab is still open', async () => {
    const r = await exec({ type: 'open_url', url: close(victims[0]!) });
    expect(r.code).toBe(2);
    expect(r.json.status).toBe('invalid');
    expect(r.stderr).toContain(`commands[0].url: ${reason(close(victims[0]!))}`);
    expect(await open()).toEqual([...victims].sort());
  });

  it.each([
    ['localhost', (p: number, id: string) => `http://localhost:${p}/json/close/${id}`],
    ['0.0.0.0', (p: number, id: string) => `http://0.0.0.0:${p}/json/close/${id}`],
    ['a bare host:port', (p: number, id: string) => `127.0.0.1:${p}/json/close/${id}`],
  ])('the endpoint written as %s is refused the same way', async (_, make) => {
    const r = await exec({ type: 'open_url', url: make(port, victims[0]!) });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/commands\[0\]\.url: refused: .* is DeskPilot's own DevTools endpoint/);
    expect(await open()).toEqual([...victims].sort());
  });

  it('one refused address stops the whole batch: nothing runs, and --dry-run says so too', async () => {
    const batch = [{ type: 'open_url', url: `${pages.base}/page?title=Fine` }, { type: 'open_url', url: close(victims[1]!) }];
    const dry = await exec(batch, '--dry-run');
    expect(dry.code).toBe(2);
    expect(dry.stderr).toContain(`commands[1].url: ${reason(close(victims[1]!))}`);
    const r = await exec(batch);
    expect(r.code).toBe(2);
    expect(await open()).toEqual([...victims].sort());
  });

  it('exec open_url of a page that redirects (HTTP 302) to the endpoint fails with the reason; the tab stays open', async () => {
    const start = pages.url('302', close(victims[0]!));
    const r = await exec({ type: 'open_url', url: start });
    expect(r.code).toBe(1);
    expect(r.json.results[0]).toMatchObject({ ok: false, code: 'url_refused' });
    expect(r.stderr).toContain(`redirected to ${close(victims[0]!)}, which is DeskPilot's own DevTools endpoint`);
    await raw.waitFor(async () => (await raw.pages()).length === 2);
    expect(await open()).toEqual([...victims].sort());
  });

  it('a preset whose urls include the endpoint opens nothing there', async () => {
    writeFileSync(path.join(configDir, 'presets.json'), JSON.stringify({ version: 1, presets: [{ name: 'evil', placements: [], urls: [close(victims[0]!)] }] }));
    try {
      const r = await runCli(['presets', 'apply', 'evil'], { env });
      expect(r.code).toBe(1);
      expect(r.stdout + r.stderr).toContain(`did not open ${close(victims[0]!)}: ${reason(close(victims[0]!))}`);
      expect(await open()).toEqual([...victims].sort());
    } finally {
      rmSync(path.join(configDir, 'presets.json'), { force: true });
    }
  });

  describe('run --planner llm (scripted OpenAI-compatible server)', () => {
    let llm: FakeOpenAi;
    beforeEach(async () => {
      llm = await startFakeOpenAi();
      Object.assign(env, { DESKPILOT_LLM_BASE_URL: llm.baseURL, DESKPILOT_LLM_MODEL: 'scripted-model', DESKPILOT_LLM_TIMEOUT_MS: '10000' });
    });
    afterEach(async () => {
      await llm?.stop();
      for (const k of ['DESKPILOT_LLM_BASE_URL', 'DESKPILOT_LLM_MODEL', 'DESKPILOT_LLM_TIMEOUT_MS']) delete env[k];
    });

    it('an LLM batch that opens /json/close/<id> for two tabs closes nothing, with the reason, even with --yes', async () => {
      const envelope = { commands: victims.map((id) => ({ type: 'open_url', url: close(id) })), needs_clarification: false, clarification_reason: null };
      llm.script({ json: envelope });
      const r = await runCli(['run', '--planner', 'llm', '--yes', 'tidy up my tabs'], { env });
      expect(r.code).toBe(2);
      for (const id of victims) expect(r.stderr).toContain(reason(close(id)));
      expect(await open()).toEqual([...victims].sort());
    });

    it('a non-web address opens only when it is in the words, after a yes; one the LLM made up is refused', async () => {
      const words = 'open chrome://version please';
      llm.script({ json: { commands: [{ type: 'open_url', url: 'chrome://version' }], needs_clarification: false, clarification_reason: null } });
      const asked = await runCli(['run', '--planner', 'llm', words], { env });
      expect(asked.code).toBe(3);
      expect(asked.stderr).toContain('open chrome://version in a new tab (not a web address: opened only because you typed it)');
      expect(await open()).toEqual([...victims].sort());

      llm.script({ json: { commands: [{ type: 'open_url', url: 'chrome://version' }], needs_clarification: false, clarification_reason: null } });
      const yes = await runCli(['run', '--planner', 'llm', '--yes', words], { env });
      expect(yes.code).toBe(0);
      await raw.waitFor(async () => (await raw.pages()).some((p) => p.url === 'chrome://version/'));

      const madeUp = { commands: [{ type: 'open_url', url: 'file:///etc/passwd' }], needs_clarification: false, clarification_reason: null };
      llm.script({ json: madeUp }, { json: madeUp });
      const refused = await runCli(['run', '--planner', 'llm', '--yes', 'show me the password file'], { env });
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toContain('uses the "file:" scheme (it shows files from this computer)');
      expect((await raw.pages()).some((p) => p.url.startsWith('file:'))).toBe(false);
    });
  });
});

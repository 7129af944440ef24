import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { runCli } from '../support/cli';
import { describeDesktop } from '../support/describe-desktop';
import { startDesktop, type Desktop } from '../support/desktop';
import { RawCdp } from '../support/raw-cdp';

// The exec API end to end: the real CLI as a child process against a real Chromium,
// every effect checked through a separate CDP connection.

describeDesktop('deskpilot exec against a real Chromium', () => {
  let desk: Desktop;
  let raw: RawCdp;
  let configDir: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    desk = await startDesktop({ chrome: true });
    raw = await RawCdp.connect(desk.chrome!.browserWsUrl);
    configDir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-cli-'));
    env = { ...desk.env, DESKPILOT_CHROME_URL: desk.chrome!.browserWsUrl, DESKPILOT_CONFIG_DIR: configDir };
  });

  afterAll(async () => {
    await raw?.dispose();
    await desk?.stop();
    if (configDir) rmSync(configDir, { recursive: true, force: true });
  });

  /** Leaves exactly these tabs open (plus nothing else), in this order, in one window. */
  async function tabs(...titles: string[]): Promise<void> {
    const before = await raw.pages();
    for (const t of titles) await raw.open(desk.pages.url('page', { title: t, desc: `about ${t}` }));
    for (const p of before) await raw.close(p.targetId);
  }

  const exec = (json: unknown, ...flags: string[]) => runCli(['exec', ...flags, JSON.stringify(json)], { env });
  const indexOf = async (title: string): Promise<number> => {
    const ctx = await runCli(['context', '--json', '--no-summaries'], { env });
    const tab = (ctx.json.tabs as Array<{ title: string; index: number }>).find((t) => t.title === title);
    if (!tab) throw new Error(`no tab titled ${title}`);
    return tab.index;
  };

  beforeEach(async () => {
    await tabs('One', 'Two', 'Three', 'Four', 'Five', 'Six');
  });

  it('context --json shows every tab with the protocol tab fields, in tab-strip order', async () => {
    const r = await runCli(['context', '--json'], { env });
    expect(r.code).toBe(0);
    const snap = r.json;
    expect(snap.sources.chrome.ok).toBe(true);
    expect(snap.tabs.map((t: { title: string }) => t.title)).toEqual(['One', 'Two', 'Three', 'Four', 'Five', 'Six']);
    expect(snap.tabs.map((t: { index: number }) => t.index)).toEqual([1, 2, 3, 4, 5, 6]);
    const first = snap.tabs[0];
    expect(first).toMatchObject({ domain: '127.0.0.1', content_summary: 'about One', window_index: 1, local_index: 1 });
    expect(first.url).toBe(desk.pages.url('page', { title: 'One', desc: 'about One' }));
    expect(typeof first.target_id).toBe('string');
    expect(Number.isNaN(Date.parse(snap.taken_at))).toBe(false);
  });

  it('context without --json prints a readable table', async () => {
    const r = await runCli(['context', '--no-summaries'], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Chrome — Chromium/);
    expect(r.stdout).toMatch(/\n\s+3\s+1:3\s+Three\s+127\.0\.0\.1/);
  });

  it('close_tab [2,5] — the issue example — closes exactly tabs 2 and 5', async () => {
    const r = await exec({ commands: [{ type: 'close_tab', tab_indices: [2, 5] }], needs_clarification: false, clarification_reason: null });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.json.status).toBe('done');
    expect(r.json.results[0].message).toBe('Closed 2 tabs: tab 2 "Two" (127.0.0.1), tab 5 "Five" (127.0.0.1)');
    expect(await raw.titles()).toEqual(['Four', 'One', 'Six', 'Three']);
  });

  it('closes the tabs the planner saw even when others opened and closed in between', async () => {
    const snapFile = path.join(configDir, 'snap.json');
    writeFileSync(snapFile, (await runCli(['context', '--json', '--no-summaries'], { env })).stdout);
    // Indices shift: a tab before them closes, new ones open.
    await raw.close((await raw.pages()).find((p) => p.title === 'One')!.targetId);
    await raw.open(desk.pages.url('page', { title: 'Seven' }));
    const r = await exec({ type: 'close_tab', tab_indices: [3, 5] }, '--context', snapFile);
    expect(r.code).toBe(0);
    expect(await raw.titles()).toEqual(['Four', 'Seven', 'Six', 'Two']);
  });

  it('a tab that vanished after the snapshot is reported, never guessed, and the rest of the batch runs', async () => {
    const snapFile = path.join(configDir, 'snap.json');
    writeFileSync(snapFile, (await runCli(['context', '--json', '--no-summaries'], { env })).stdout);
    await raw.close((await raw.pages()).find((p) => p.title === 'Three')!.targetId);
    const url = desk.pages.url('page', { title: 'Eight' });
    const r = await exec([{ type: 'switch_tab', tab_index: 3 }, { type: 'open_url', url }], '--context', snapFile);
    expect(r.code).toBe(1);
    expect(r.json.status).toBe('failed');
    expect(r.json.results[0]).toMatchObject({ ok: false, message: 'tab 3 "Three" (127.0.0.1) was closed after the snapshot; nothing was switched' });
    expect(r.json.results[1]).toMatchObject({ ok: true, type: 'open_url' });
    expect(r.stderr).toContain('commands[0] (switch_tab) failed: tab 3 "Three"');
    await raw.waitFor(async () => (await raw.titles()).includes('Eight'));
    // The tab now at index 3 ("Four") was not touched: nothing got activated by mistake.
    expect(await raw.titles()).toEqual(['Eight', 'Five', 'Four', 'One', 'Six', 'Two']);

    const gone = await exec({ type: 'close_tab', tab_indices: [3, 4] }, '--context', snapFile);
    expect(gone.code).toBe(0);
    expect(gone.json.results[0].data).toEqual({ closed: [4], already_gone: [3] });
    expect(await raw.titles()).toEqual(['Eight', 'Five', 'One', 'Six', 'Two']);
  });

  it('switch_tab makes exactly that tab the visible one', async () => {
    const target = (await raw.pages()).find((p) => p.title === 'Two')!.targetId;
    expect(await raw.evaluate(target, 'document.visibilityState')).toBe('hidden');
    const r = await exec({ type: 'switch_tab', tab_index: await indexOf('Two') });
    expect(r.code).toBe(0);
    expect(r.json.results[0].message).toBe('Switched to tab 2 "Two" (127.0.0.1)');
    await raw.waitFor(async () => (await raw.evaluate(target, 'document.visibilityState')) === 'visible');
    const ctx = await runCli(['context', '--json', '--no-summaries'], { env });
    expect(ctx.json.tabs.filter((t: { is_active: boolean }) => t.is_active).map((t: { title: string }) => t.title)).toEqual(['Two']);
  });

  it('open_url normalizes the address and adds exactly one tab', async () => {
    const hostPort = new URL(desk.pages.base).host; // 127.0.0.1:port → http://
    const r = await exec({ type: 'open_url', url: `${hostPort}/page?title=Opened` });
    expect(r.code).toBe(0);
    expect(r.json.results[0].data.url).toBe(`http://${hostPort}/page?title=Opened`);
    await raw.waitFor(async () => (await raw.titles()).includes('Opened'));
    expect(await raw.titles()).toEqual(['Five', 'Four', 'One', 'Opened', 'Six', 'Three', 'Two']);
  });

  it('list_tabs answers with the current tabs', async () => {
    const r = await exec({ type: 'list_tabs' });
    expect(r.code).toBe(0);
    expect(r.json.results[0].message).toBe('6 tabs open in 1 window');
    expect(r.json.results[0].data.tabs.map((t: { title: string }) => t.title)).toEqual(['One', 'Two', 'Three', 'Four', 'Five', 'Six']);
  });

  it('--dry-run resolves and describes but changes nothing', async () => {
    const r = await exec({ type: 'close_tab', tab_indices: [1, 6] }, '--dry-run');
    expect(r.code).toBe(0);
    expect(r.json.status).toBe('dry_run');
    expect(r.json.plan).toEqual([
      { index: 0, type: 'close_tab', summary: 'close tab 1 "One" (127.0.0.1), tab 6 "Six" (127.0.0.1)', destructive: true, targets: ['tab 1 "One" (127.0.0.1)', 'tab 6 "Six" (127.0.0.1)'] },
    ]);
    expect(await raw.titles()).toEqual(['Five', 'Four', 'One', 'Six', 'Three', 'Two']);
  });

  it.each([
    ['negative index', { type: 'close_tab', tab_indices: [-1] }, 'commands[0].tab_indices[0]: must be a positive integer'],
    ['zero index', { type: 'switch_tab', tab_index: 0 }, 'commands[0].tab_index: must be a positive integer'],
    ['duplicate indices', { type: 'close_tab', tab_indices: [2, 2] }, 'commands[0].tab_indices[1]: duplicate tab index 2'],
    ['unknown type', { type: 'close_all_tabs' }, 'commands[0].type: must be one of'],
    ['extra field', { type: 'close_tab', tab_indices: [1], where: 'reddit' }, 'commands[0].where: unknown field'],
    ['javascript: URL', { type: 'open_url', url: 'javascript:alert(1)' }, 'commands[0].url: uses the "javascript:" scheme'],
    ['index past the end', { type: 'close_tab', tab_indices: [1, 99] }, 'commands[0].tab_indices[1]: tab 99 does not exist (open tabs are 1–6)'],
    ['one bad command spoils the batch', [{ type: 'close_tab', tab_indices: [1] }, { type: 'open_url', url: 'file:///etc/passwd' }], 'commands[1].url: uses the "file:" scheme'],
  ])('refuses %s with exit 2, naming the field, and leaves every tab as it was', async (_, input, message) => {
    const r = await exec(input);
    expect(r.code).toBe(2);
    expect(r.json.status).toBe('invalid');
    expect(r.stderr).toContain(message);
    expect(await raw.titles()).toEqual(['Five', 'Four', 'One', 'Six', 'Three', 'Two']);
  });

  it('refuses a 5 MB string from stdin and malformed JSON, changing nothing', async () => {
    const huge = JSON.stringify({ type: 'open_url', url: 'x'.repeat(5 * 1024 * 1024) });
    const r = await runCli(['exec', '-'], { env, stdin: huge });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('commands[0].url: must be at most 8192 characters\n');
    const bad = await runCli(['exec', '{"type": "list_tabs"'], { env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^input: is not valid JSON/);
    expect(await raw.titles()).toEqual(['Five', 'Four', 'One', 'Six', 'Three', 'Two']);
  });

  it('records each executed command in history.jsonl, shaped for the command queue', async () => {
    const historyFile = path.join(configDir, 'history.jsonl');
    rmSync(historyFile, { force: true });
    const r = await exec([{ type: 'list_tabs' }, { type: 'switch_tab', tab_index: 4 }]);
    expect(r.code).toBe(0);
    const records = readFileSync(historyFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(records.map((x) => x.type)).toEqual(['list_tabs', 'switch_tab']);
    expect(records[1]).toMatchObject({
      _v: 1,
      batchId: r.json.batch_id,
      payload: { type: 'switch_tab', tab_index: 4 },
      result: { ok: true, message: 'Switched to tab 4 "Four" (127.0.0.1)' },
    });
    expect(records[1].finishedAt).toBeGreaterThanOrEqual(records[1].createdAt);
    expect(records[0].deviceId).toBe(readFileSync(path.join(configDir, 'device-id'), 'utf8').trim());
  });

  it('a clarification runs nothing and exits 3', async () => {
    const r = await exec({ commands: [{ type: 'close_tab' }], needs_clarification: true, clarification_reason: 'Which reddit tab?' });
    expect(r.code).toBe(3);
    expect(r.json.status).toBe('clarification');
    expect(r.stderr).toBe('needs clarification: Which reddit tab?\n');
    expect(await raw.titles()).toEqual(['Five', 'Four', 'One', 'Six', 'Three', 'Two']);
  });

  it('Chrome not reachable: one sentence on how to connect it, exit 1, nothing run', async () => {
    const port = await closedPort();
    const r = await runCli(['exec', '{"type":"list_tabs"}'], { env: { ...env, DESKPILOT_CHROME_URL: `http://127.0.0.1:${port}` } });
    expect(r.code).toBe(1);
    expect(r.json.status).toBe('unavailable');
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^commands\[0\]: .*Chrome.*/);
    expect(lines[0]).toMatch(/deskpilot chrome launch|DESKPILOT_CHROME_URL|--chrome-url/);
    const status = await runCli(['chrome', 'status'], { env: { ...env, DESKPILOT_CHROME_URL: `http://127.0.0.1:${port}` } });
    expect(status.code).toBe(1);
    expect(status.stdout).toContain(`endpoint: http://127.0.0.1:${port} (from env)`);
    expect(status.stdout).toMatch(/not connected: /);
  });

  it('chrome status says where it is connected', async () => {
    const r = await runCli(['chrome', 'status'], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/connected: Chromium [\d.]+ .*6 tabs open/);
  });
});

/** A loopback port that nothing listens on. */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as { port: number };
  await new Promise((r) => srv.close(r));
  return port;
}

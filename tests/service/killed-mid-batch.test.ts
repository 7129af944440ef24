import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../support/cli';
import { describeDesktop } from '../support/describe-desktop';
import { startDesktop, type Desktop } from '../support/desktop';
import { RawCdp } from '../support/raw-cdp';
import { waitFor } from '../support/wait-for';
import { COMPANION_DIR, CompanionView } from '../tabs/companion-view';
import { spawnService, stopAllServices } from './service-process';

// Issue 24, D7: `kill -9` of the service mid-batch left the commands it had run without undo or
// history, and the next `undo` reverted the batch before. A real service on the test desktop
// (Chromium with the companion extension, which shows pinned and muted): a batch that pins a tab
// and then opens a page that does not answer is killed while it waits; after a restart, undo
// acts on that batch — it unpins, and says the batch stopped part-way — never on the one before.

describeDesktop('a service killed mid-batch (real service, real Chromium)', () => {
  let desk: Desktop;
  let raw: RawCdp;
  let view: CompanionView;
  let configDir: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    desk = await startDesktop({ extensions: [COMPANION_DIR] });
    raw = await RawCdp.connect(desk.chrome!.browserWsUrl);
    view = await CompanionView.connect(desk.chrome!.browserWsUrl);
    const before = await raw.pages();
    for (const t of ['One', 'Two']) await raw.open(desk.pages.url('page', { title: t }));
    for (const p of before) await raw.close(p.targetId);
    await view.waitForTab('Two', 'seen by the extension', () => true);
    configDir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-killed-'));
    env = { ...desk.env, DESKPILOT_CHROME_URL: desk.chrome!.browserWsUrl, DESKPILOT_CONFIG_DIR: configDir };
    delete env.XDG_RUNTIME_DIR;
  }, 120_000);

  afterAll(async () => {
    await stopAllServices();
    await view?.close();
    await raw?.dispose();
    await desk?.stop();
    if (configDir) rmSync(configDir, { recursive: true, force: true });
  });

  const indexOf = async (title: string) => {
    const tabs = (await runCli(['exec', JSON.stringify({ type: 'list_tabs' })], { env })).json.results[0].data.tabs as Array<{ index: number; title: string }>;
    return tabs.find((t) => t.title === title)!.index;
  };
  const historyTypes = () =>
    existsSync(path.join(configDir, 'history.jsonl'))
      ? readFileSync(path.join(configDir, 'history.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l).type as string)
      : [];

  it('undo after a restart acts on the killed batch (saying it stopped part-way), not on the batch before it', async () => {
    const svc = spawnService(env);
    await svc.listening;

    // The batch before: mute Two.
    const muted = await runCli(['exec', JSON.stringify({ type: 'mute_tabs', tab_indices: [await indexOf('Two')], muted: true })], { env });
    expect(muted.json?.status, muted.stderr).toBe('done');
    await view.waitForTab('Two', 'muted', (t) => t.muted === true);

    // The killed batch: pin One, then open a page that answers only after two minutes.
    const batch = [
      { type: 'pin_tabs', tab_indices: [await indexOf('One')], pinned: true },
      { type: 'open_url', url: desk.pages.url('slow', { ms: '120000', title: 'Never' }) },
    ];
    const running = runCli(['exec', JSON.stringify(batch)], { env });
    await view.waitForTab('One', 'pinned by the batch', (t) => t.pinned === true);
    await waitFor('the slow page to be requested', () => desk.pages.slowPending() > 0);
    svc.kill('SIGKILL');
    await svc.exited;
    await running;

    // What ran is in the history, though the batch never finished.
    expect(historyTypes()).toEqual(['list_tabs', 'mute_tabs', 'list_tabs', 'pin_tabs']);

    const again = spawnService(env);
    await again.listening;
    const undone = await runCli(['undo'], { env });
    expect(undone.code, undone.stderr).toBe(0);
    expect(undone.stdout).toContain('stopped part-way');
    expect(undone.stdout).toContain('Undid "pin tab 1 "One"');
    expect(undone.stdout).toContain('"One" (127.0.0.1) unpinned again');
    await view.waitForTab('One', 'unpinned by undo', (t) => t.pinned === false);
    // The batch before is untouched by that undo …
    expect((await view.byTitle('Two')).muted).toBe(true);
    // … and is the next one undone.
    const next = await runCli(['undo'], { env });
    expect(next.code, next.stderr).toBe(0);
    await view.waitForTab('Two', 'unmuted by the second undo', (t) => t.muted === false);
    await again.stop();
  }, 120_000);
});

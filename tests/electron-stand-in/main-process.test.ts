import CDP from 'chrome-remote-interface';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { IPC_CHANNELS } from '../../src/protocol/ipc-channels';
import { commandField } from '../harness/ui-browser';
import { describeDesktop } from '../support/describe-desktop';
import { startDesktop, type Desktop } from '../support/desktop';
import { RawCdp } from '../support/raw-cdp';
import { POLL, waitFor } from '../support/wait-for';
import { frameOf } from '../support/x-observe';
import { BLUR_GRACE_MS } from '../../src/main/blur-guard';
import { buildApp, type BuiltApp } from './build-app';
import { startStandIn, type StandInProcess } from './stand-in-process';

// The real main process — out/main/index.js as electron-vite builds it — started under the
// stand-in (fake) Electron runtime of this folder: its windows are real pages of the built
// renderer in a (headless) Chromium, with the real built preload in an isolated world and its
// IPC carried to the real IPC manager; tray, menu, hotkeys, screen (the test desktop's X
// monitors), safeStorage and app are the stand-in's, recorded and answered. What main does to
// the desktop — tabs of the fixture Chromium, the xterm window, config.json — is read back
// independently. A real Electron on a real desktop is still what proves the native parts (see
// the README, "Run the app").

const LAUNCHER_HOTKEY = 'Control+Alt+Space';

const readdirSafe = (d: string) => (existsSync(d) ? readdirSync(d) : []);
const VOICE_HOTKEY = 'Control+Alt+Shift+Space';

describeDesktop('the real main process under a stand-in (fake) Electron runtime', () => {
  let desk: Desktop;
  let app: BuiltApp;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let main: StandInProcess;
  let ui: Browser;
  let raw: RawCdp;

  beforeAll(async () => {
    [desk, app] = await Promise.all([startDesktop({ chrome: true, apps: ['xterm'] }), buildApp()]);
    dir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-stand-in-'));
    env = {
      ...desk.env,
      DESKPILOT_CONFIG_DIR: path.join(dir, 'config'),
      DESKPILOT_CHROME_URL: desk.chrome!.browserWsUrl,
      XDG_DATA_HOME: path.join(dir, 'data'),
      XDG_DATA_DIRS: '/usr/share',
      // The offline matcher only: no LLM from the developer's shell.
      DESKPILOT_LLM_MODEL: '',
      DESKPILOT_LLM_BASE_URL: '',
      DESKPILOT_STAND_IN_DIR: path.join(dir, 'stand-in'),
      DESKPILOT_STAND_IN_APP_PATH: app.dir,
    };
    // The service socket main serves goes to <config>/run (not a shared runtime folder).
    delete env.XDG_RUNTIME_DIR;
    raw = await RawCdp.connect(desk.chrome!.browserWsUrl);
    main = startStandIn(app.main, env);
    // Up: the tray is there and both windows have loaded their pages.
    const up = await waitFor('main to start (tray, popover and launcher loaded)', async () => {
      const s = await main.state().catch(() => null);
      return (s?.ready && s.tray && s.windows.length >= 2 && s.windows.every((w) => !w.loading) && s.endpoint) || undefined;
    });
    ui = await chromium.connectOverCDP(up);
  });

  afterAll(async () => {
    await ui?.close().catch(() => undefined);
    main?.kill();
    await raw?.dispose();
    await desk?.stop();
    app?.remove();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const page = async (view: string): Promise<Page> =>
    waitFor(`the ${view} page`, () => ui.contexts().flatMap((c) => c.pages()).find((p) => new URL(p.url()).searchParams.get('view') === view));
  const windowState = async (view: string) => (await main.state()).windows.find((w) => w.view === view);
  const calls = (api: string) => main.calls.filter((c) => c.api === api);
  const activeTab = async () => {
    const cdp = await CDP({ target: desk.chrome!.browserWsUrl, local: true });
    try {
      const { targetInfos } = (await cdp.send('Target.getTargets', { filter: [{ type: 'tab' }] } as never)) as unknown as {
        targetInfos: Array<{ title: string; embedderData?: { tabActive?: boolean } }>;
      };
      return targetInfos.find((t) => t.embedderData?.tabActive)?.title ?? null;
    } finally {
      await cdp.close();
    }
  };
  const setTabs = async (titles: string[]) => {
    const before = await raw.pages();
    for (const t of titles) await raw.open(desk.pages.url('page', { title: t }));
    for (const p of before) await raw.close(p.targetId);
  };

  it('start-up: one instance, the tray and its menu, both hotkeys, every IPC channel handled, and the popover says hello', async () => {
    const s = await main.state();
    expect(s.singleInstance).toBe(true);
    expect(s.tray).toEqual({ tooltip: 'DeskPilot', menu: ['Open DeskPilot', 'Settings…', '(separator)', 'Quit DeskPilot'] });
    expect(s.shortcuts).toEqual([LAUNCHER_HOTKEY, VOICE_HOTKEY]);
    expect(calls('ipcMain.handle').map((c) => c.args[0]).sort()).toEqual([...IPC_CHANNELS].sort());
    // Windows are built hidden, sandboxed and isolated, with the built preload.
    const created = calls('new BrowserWindow').map((c) => c.args[0] as { show: boolean; webPreferences: Record<string, unknown> });
    expect(created).toHaveLength(2);
    for (const o of created) {
      expect(o.show).toBe(false);
      expect(o.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, preload: path.join(app.dir, 'out/preload/index.js') });
    }
    // Started by hand (not at login): the popover opens once its page has loaded.
    await expect.poll(async () => (await windowState('popover'))?.visible, POLL).toBe(true);
    // The page got its window.api from the real preload through contextBridge, and main answered on it.
    const popover = await page('popover');
    const status = await popover.evaluate(() => (globalThis as unknown as { api: { appStatus(r: object): Promise<{ ok: boolean; value?: { chrome: { ok: boolean } } }> } }).api.appStatus({}));
    expect(status).toMatchObject({ ok: true, value: { chrome: { ok: true } } });
    // The preload's Node and Electron stay in its own world.
    expect(await popover.evaluate(() => [typeof (globalThis as Record<string, unknown>).require, typeof (globalThis as Record<string, unknown>).__deskpilotStandInIpc])).toEqual(['undefined', 'undefined']);
  });

  it('a second launch with the same user data exits at once and wakes the first, which shows its popover', async () => {
    const shows = calls('BrowserWindow.show').filter((c) => c.args[0] === 'popover').length;
    const second = startStandIn(app.main, env);
    expect(await second.exited).toBe(0);
    expect(second.calls.find((c) => c.api === 'app.requestSingleInstanceLock')?.args).toEqual([false]);
    expect(second.calls.some((c) => c.api === 'new BrowserWindow' || c.api === 'new Tray')).toBe(false);
    await expect.poll(() => calls('app second-instance').length, POLL).toBe(1);
    await expect.poll(() => calls('BrowserWindow.show').filter((c) => c.args[0] === 'popover').length, POLL).toBeGreaterThan(shows);
  });

  it('the launcher hotkey opens the launcher, focused on its field; words + Enter make that tab the active one in Chromium', async () => {
    await setTabs(['Reddit - front page', 'Hacker News', 'Reddit - r/node', 'Rust Docs']);
    await expect.poll(activeTab, POLL).toBe('Rust Docs');
    await main.request({ op: 'press', accelerator: LAUNCHER_HOTKEY });
    await expect.poll(async () => await windowState('launcher'), POLL).toMatchObject({ visible: true, focused: true });
    const launcher = await page('launcher');
    await expect.poll(() => launcher.evaluate(() => (globalThis as unknown as { document: { activeElement: { id: string } | null } }).document.activeElement?.id), POLL).toBe('command-input');
    const field = commandField(launcher);
    await field.pressSequentially('switch to hacker news');
    await launcher.locator('#live-list[data-settled="true"]').waitFor({ timeout: POLL.timeout });
    await field.press('Enter');
    await expect.poll(activeTab, POLL).toBe('Hacker News');
    await expect.poll(() => launcher.getByRole('list', { name: 'Results' }).textContent(), POLL).toMatch(/^✓.*Hacker News/);
    // The launcher's window took its content's height (window:fit through the IPC manager).
    const fits = calls('BrowserWindow.setBounds').filter((c) => c.args[0] === 'launcher');
    expect(fits.length).toBeGreaterThan(0);
    expect((await windowState('launcher'))!.bounds.height).toBeLessThan(420);
  });

  /** Main has handled this message (e.g. ui:modal {open: true}) from a page. */
  const handled = (channel: string, request: unknown) =>
    waitFor(`main to handle ${channel} ${JSON.stringify(request)}`, () => {
      const last = calls('ipc handled').filter((c) => c.args[0] === channel).at(-1);
      return !!last && JSON.stringify(last.args[1]) === JSON.stringify(request);
    });

  /** Main ignores a blur just after showing a window (blur-guard.ts): wait until that has passed. */
  const pastBlurGrace = async (view: string) => {
    const shownAt = calls('BrowserWindow.show').filter((c) => c.args[0] === view).at(-1)!.at;
    await waitFor('the blur grace after showing to pass', () => Date.now() > shownAt + BLUR_GRACE_MS + 50);
  };

  it('closing asks first through the real IPC manager; the launcher does not hide on blur while it asks', async () => {
    const launcher = await page('launcher');
    const field = commandField(launcher);
    await field.fill('close all reddit tabs');
    await field.press('Enter');
    const dialog = launcher.getByRole('alertdialog');
    await dialog.waitFor({ timeout: POLL.timeout });
    // The page told main a question is open (ui:modal): focus going elsewhere must not hide it.
    await handled('ui:modal', { open: true });
    await pastBlurGrace('launcher');
    await main.request({ op: 'blur', view: 'launcher' });
    expect(await windowState('launcher')).toMatchObject({ visible: true });
    expect((await raw.titles()).sort()).toEqual(['Hacker News', 'Reddit - front page', 'Reddit - r/node', 'Rust Docs']);
    await dialog.getByRole('button', { name: 'Close them' }).click();
    await expect.poll(async () => (await raw.titles()).sort(), POLL).toEqual(['Hacker News', 'Rust Docs']);
    await dialog.waitFor({ state: 'detached', timeout: POLL.timeout });
    // No question open: losing focus hides the launcher, as main's blur guard says.
    await handled('ui:modal', { open: false });
    await main.request({ op: 'blur', view: 'launcher' });
    expect(await windowState('launcher')).toMatchObject({ visible: false });
  });

  it('the preset button in the popover moves the real xterm back to where the preset was saved', async () => {
    const xterm = execFileSync('xdotool', ['search', '--onlyvisible', '--pid', String(desk.pids.apps.xterm)], { env: desk.env, encoding: 'utf8' }).trim().split('\n')[0]!;
    const home = frameOf(desk.env, xterm);
    await main.request({ op: 'tray-menu', label: 'Open DeskPilot' });
    const popover = await page('popover');
    await popover.getByRole('button', { name: 'Save current layout…' }).click();
    await popover.getByRole('textbox', { name: 'Preset name' }).fill('stand-in layout');
    await popover.getByRole('button', { name: 'Save layout' }).click();
    const apply = popover.getByRole('button', { name: 'Apply preset stand-in layout' });
    await apply.waitFor({ timeout: POLL.timeout });
    execFileSync('xdotool', ['windowmove', '--sync', xterm, home[0] >= 1920 ? '300' : '2400', '300'], { env: desk.env });
    await expect.poll(() => frameOf(desk.env, xterm)[0] >= 1920, POLL).toBe(home[0] < 1920);
    await apply.click();
    await expect.poll(() => frameOf(desk.env, xterm), POLL).toEqual(home);
  });

  it('settings from the tray menu: saved to config.json, and a new launcher hotkey is registered in place of the old one', async () => {
    await main.request({ op: 'tray-menu', label: 'Settings…' });
    await expect.poll(async () => (await windowState('settings'))?.visible, POLL).toBe(true);
    const settings = await page('settings');
    const hotkey = settings.getByRole('textbox', { name: 'Launcher hotkey' });
    await hotkey.fill('Control+Alt+K');
    await settings.getByRole('checkbox', { name: 'Confirm before closing tabs' }).uncheck();
    await settings.getByRole('button', { name: 'Save', exact: true }).click();
    await settings.getByRole('status').filter({ hasText: 'Saved' }).waitFor({ timeout: POLL.timeout });
    const config = JSON.parse(readFileSync(path.join(env.DESKPILOT_CONFIG_DIR!, 'config.json'), 'utf8'));
    expect(config).toMatchObject({ ui: { hotkeys: { launcher: 'Control+Alt+K' }, confirm: { close_tab: false } } });
    expect((await main.state()).shortcuts.sort()).toEqual(['Control+Alt+K', VOICE_HOTKEY].sort());
    expect(calls('globalShortcut.unregister').map((c) => c.args[0])).toContain(LAUNCHER_HOTKEY);
    await main.request({ op: 'press', accelerator: 'Control+Alt+K' });
    await expect.poll(async () => (await windowState('launcher'))?.visible, POLL).toBe(true);
  });

  it('quit from the tray menu: hotkeys released, the windows and their browser gone, the process ended; the next start takes over', async () => {
    const { endpoint } = await main.state();
    await main.request({ op: 'tray-menu', label: 'Quit DeskPilot' });
    expect(await main.exited).toBe(0);
    expect(calls('globalShortcut.unregister').map((c) => c.args[0])).toEqual(expect.arrayContaining(['Control+Alt+K', VOICE_HOTKEY]));
    // What was still registered as the process ended: nothing.
    expect(calls('process exit').at(-1)?.args).toEqual([0, []]);
    await expect.poll(() => fetch(`${endpoint}/json/version`).then(() => 'up', () => 'gone'), POLL).toBe('gone');
    expect(existsSync(path.join(env.DESKPILOT_STAND_IN_DIR!, 'SingletonLock'))).toBe(false);
    // The warm engine main served to the CLI was closed before the process ended: no socket left behind.
    expect(readdirSafe(path.join(env.DESKPILOT_CONFIG_DIR!, 'run'))).toEqual([]);

    // The lock was released: a new start is the first instance again.
    const next = startStandIn(app.main, env);
    try {
      await waitFor('the next start to hold the lock', async () => (await next.state().catch(() => null))?.singleInstance || undefined);
      expect(next.calls.find((c) => c.api === 'app.requestSingleInstanceLock')?.args).toEqual([true]);
    } finally {
      await next.request({ op: 'quit' }).catch(() => undefined);
      expect(await next.exited).toBe(0);
    }
  });
});

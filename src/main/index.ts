import { app, dialog, globalShortcut, ipcMain, safeStorage, session, systemPreferences } from 'electron';
import path from 'node:path';
import { wireAgent } from '../compose/agent-wiring';
import { loadConfig } from '../platform/config/load-config';
import { LLM_API_KEY, SettingsStore } from '../platform/config/settings-store';
import { wireEngine } from '../compose/wire-engine';
import { hostOrJoin } from '../compose/service-host';
import type { LazyRemote, RunningDeviceSync } from '../compose/device-sync';
import nwmWorkerPath from '../platform/windows/nwm/nwm-worker.js?modulePath';
import { AppWindows } from './app-windows';
import { autostartFile } from './autostart-linux';
import { launchChromeForApp } from './chrome-launcher';
import { FrontmostTracker } from './frontmost';
import { HotkeyManager } from './hotkeys';
import { hotkeyFeature, waylandRefusal, withFeature } from './wayland-hotkeys';
import { setModalOpen } from './native-dialogs';
import { registerIpc } from './ipc-manager';
import { LauncherWindow } from './launcher-window';
import { applyLoginItem, HIDDEN_FLAG, startCommand } from './login-item';
import { installPermissions } from './permissions';
import { PopoverWindow } from './popover-window';
import { screenMonitors } from './screen-monitors';
import { SafeStorageSecretStore } from './secret-store';
import { AppService } from '../app/app-service';
import { SettingsWindow } from './settings-window';
import { createTray, trayAnchor } from './tray';
import { voiceDeps } from './voice';
import { errorMessage } from '../engine/errors';
import { appLog, logToFolder } from './app-log';

// The Electron composition root: thin on purpose. Everything it wires is tested in plain
// Node (the service, the engine, and the Electron-free parts of the modules here); this file
// only connects them to windows, the tray, hotkeys and IPC.

const platform = process.platform;

// A second launch only wakes the first one; it must not wire a second engine.
const isFirstInstance = app.requestSingleInstanceLock();
if (!isFirstInstance) app.exit(0);

// Global hotkeys in a Wayland session go through the desktop portal (wayland-hotkeys.ts): the
// feature must be on before the app is ready, added to any features already asked for.
const hotkeyPortal = hotkeyFeature(platform, process.env);
if (hotkeyPortal) app.commandLine.appendSwitch('enable-features', withFeature(app.commandLine.getSwitchValue('enable-features'), hotkeyPortal));

let service: AppService | null = null;
let hotkeys: HotkeyManager | null = null;
let deviceSync: RunningDeviceSync | null = null;
let remoteDevices: LazyRemote | null = null;

app.on('window-all-closed', () => {
  // A tray app keeps running with no window open.
});

async function start(): Promise<void> {
  // Menu-bar app: no Dock icon (LSUIElement in electron-builder.yml does the same when packaged).
  if (platform === 'darwin') app.dock?.hide();

  const config = await loadConfig();
  logToFolder(config.dirs.state);
  const secrets = new SafeStorageSecretStore(path.join(config.configDir.value, 'secrets.json'), safeStorage, platform, appLog.warn);
  const settings = new SettingsStore(config.configFile, secrets);

  let windows: AppWindows | null = null;
  const loginItem = async (openAtLogin: boolean) => {
    // Unpackaged, the login item would start the bare Electron binary.
    if (!app.isPackaged) return;
    const argv = startCommand({ execPath: process.execPath, appImage: process.env.APPIMAGE, packaged: app.isPackaged, appPath: app.getAppPath() });
    await applyLoginItem(openAtLogin, { platform, app, autostart: { file: autostartFile(), argv } }).catch((e: unknown) =>
      appLog.error(`could not ${openAtLogin ? 'set' : 'remove'} launch at login: ${errorMessage(e)}`),
    );
  };

  // Hotkeys act on the windows, which are created once the engine is up.
  const hk = new HotkeyManager(
    globalShortcut,
    {
      launcher: async () => windows?.toggleLauncher(),
      voice: async () => windows?.voice(),
    },
    appLog.warn,
    (accelerator) => waylandRefusal(platform, process.env, accelerator),
  );
  hotkeys = hk;

  // The window the user was in, read through the engine's own window backend just before ours show.
  const frontmost: FrontmostTracker = new FrontmostTracker(() => svc.focusedApp(), process.pid);
  const svc: AppService = new AppService({
    // One host per desk: this app serves its engine on the DeskPilot socket (the CLI then uses
    // it), or uses the `deskpilot service` that already runs.
    desk: async () => {
      const config = await loadConfig();
      const opened = await hostOrJoin(config.configDir.value, async () =>
        wireEngine(config, {
          // X11 reads monitors itself; macOS/Windows take them from Electron's screen module.
          ...(platform === 'linux' ? {} : { monitors: screenMonitors }),
          nwmWorkerPath,
          llmApiKey: await secrets.get(LLM_API_KEY),
        }),
      );
      if (opened.note) appLog.info(opened.note);
      // The process that owns the desk runs its device worker (a running `deskpilot service` has its own),
      // with the sync credential from the keychain (or the file `deskpilot devices pair` wrote). Only
      // the host holds the device's claim (service-host.ts): an engine left alone (another process
      // owns this device, its socket out of reach) must not run the device's commands a second time.
      if (opened.role === 'host' && !deviceSync) {
        const [{ startDeviceSync }, { keychainCredentials }, { credentialFile }] = await Promise.all([
          import('../compose/device-sync'),
          import('../platform/sync/keychain-credential'),
          import('../platform/sync/credential-file'),
        ]);
        // Another device's request to close things here is asked in a native dialog (or answered with `deskpilot devices approve|deny`).
        const consents = opened.host?.consents;
        if (consents) (await import('./remote-consent-dialog')).showConsentDialogs(consents);
        deviceSync = await startDeviceSync(
          config,
          opened.desk,
          (line) => appLog.info(line),
          keychainCredentials(secrets, credentialFile(config.configDir.value)),
          consents,
        );
      }
      return opened.desk;
    },
    settings,
    hotkeys: () => hk.status(),
    settingsChanged: async (view) => {
      hk.apply(view.hotkeys);
      await loginItem(view.launch_at_login);
    },
    hideWindow: () => windows?.hideFocused() ?? false,
    modalChanged: setModalOpen,
    launchChrome: () => launchChromeForApp(),
    ...voiceDeps(secrets),
    frontmost: () => frontmost.current(),
    // Agent mode: the same Chrome discovery and LLM settings (config, env, the stored API key) as
    // the engine and the CLI, read again for every task so new settings apply.
    agent: async () => wireAgent(await loadConfig(), { llmApiKey: await secrets.get(LLM_API_KEY) }),
    // The launcher's device picker: one sync session, opened when first asked, keyed from the keychain.
    devices: async () => {
      if (!config.sync) return null;
      if (!remoteDevices) {
        const [{ lazyRemote }, { keychainCredentials }, { credentialFile }] = await Promise.all([
          import('../compose/device-sync'),
          import('../platform/sync/keychain-credential'),
          import('../platform/sync/credential-file'),
        ]);
        remoteDevices = lazyRemote(config, keychainCredentials(secrets, credentialFile(config.configDir.value)));
      }
      return remoteDevices.remote();
    },
    devicesNow: () => remoteDevices?.now() ?? null,
    emit: (event, payload) => windows?.broadcast(event, payload),
    fitWindow: (height) => windows?.launcher.fit(height) ?? false,
  });
  service = svc;
  // The engine starts warm: configuration and the Chrome connection are ready before the first command.
  await svc.start();

  const remember = () => frontmost.capture();
  const w = new AppWindows(new PopoverWindow(platform, remember), new LauncherWindow(platform, remember), new SettingsWindow(), platform);
  windows = w;
  registerIpc(ipcMain, svc.handlers(), (sender) => w.isOurs(sender));
  installPermissions(session.defaultSession, {
    isOurs: (c) => w.isOurs(c),
    platform,
    askMicrophone: () => systemPreferences.askForMediaAccess('microphone'),
  });

  const view = await settings.view();
  hk.apply(view.hotkeys);
  await loginItem(view.launch_at_login);

  const resources = app.isPackaged ? process.resourcesPath : path.join(__dirname, '../../resources');
  const openSettings = () => {
    if (platform === 'darwin') app.focus({ steal: true });
    w.settings.show();
  };
  const tray = createTray(resources, platform, {
    toggle: (anchor) => void w.togglePopover(anchor),
    open: (anchor) => void w.popover.show(anchor),
    settings: openSettings,
    quit: () => app.quit(),
  });
  const showPopover = () => void w.popover.show(trayAnchor(tray, platform));
  app.on('second-instance', showPopover);
  app.on('activate', showPopover);

  // Started by hand, say hello from the tray; started at login, stay quiet in it.
  const atLogin = process.argv.includes(HIDDEN_FLAG) || (platform === 'darwin' && app.getLoginItemSettings().wasOpenedAtLogin);
  if (!atLogin) w.popover.win.webContents.once('did-finish-load', showPopover);
}

if (isFirstInstance) {
  app
    .whenReady()
    .then(start)
    .catch((e: unknown) => {
      // A broken config.json must be said, not leave a tray-less process running.
      appLog.error(`could not start: ${errorMessage(e)}`);
      dialog.showErrorBox('DeskPilot could not start', errorMessage(e));
      app.exit(1);
    });
}

/** Longest a quit waits for the service to close (a stuck backend must not keep the app alive). */
const DISPOSE_TIMEOUT_MS = 5_000;
let disposed = false;

app.on('will-quit', (event) => {
  hotkeys?.release();
  if (disposed || !service) return;
  // Electron ends the process as soon as this handler returns: the quit waits until the service
  // has closed the engine and the socket it serves the CLI on, then goes on.
  event.preventDefault();
  const svc = service;
  // The device worker answers its last rows before the engine it runs them on closes.
  const closing = Promise.all([deviceSync?.stop(), remoteDevices?.close()])
    .catch(() => undefined)
    .then(() => svc.dispose())
    .catch(() => undefined);
  void Promise.race([closing, new Promise((resolve) => setTimeout(resolve, DISPOSE_TIMEOUT_MS).unref())]).then(() => {
    disposed = true;
    app.quit();
  });
});

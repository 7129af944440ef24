import { app, dialog, ipcMain, type BrowserWindow, type WebContents } from 'electron';
import path from 'node:path';
import { loadConfig } from '../platform/config/load-config';
import { wireEngine, type WiredEngine } from '../platform/wire-engine';
import { registerIpc } from './ipc-manager';
import { createMainWindow } from './main-window';
import nwmWorkerPath from '../platform/windows/nwm/nwm-worker.js?modulePath';
import { screenMonitors } from './screen-monitors';
import { createTray } from './tray';

// The Electron composition root: thin on purpose. Everything it wires is tested in plain
// Node; this file only connects it to windows, the tray and IPC.

// A second launch only wakes the first one; it must not wire a second engine.
const isFirstInstance = app.requestSingleInstanceLock();
if (!isFirstInstance) app.exit(0);

let win: BrowserWindow | null = null;
let wired: WiredEngine | null = null;

const show = (): BrowserWindow => {
  if (!win || win.isDestroyed()) win = createMainWindow();
  else win.show();
  win.focus();
  return win;
};

const isOurs = (sender: WebContents) => !!win && !win.isDestroyed() && sender === win.webContents;

app.on('second-instance', () => show());
app.on('window-all-closed', () => {
  // A tray app keeps running with no window open.
});

async function start(): Promise<void> {
  if (process.platform === 'darwin') app.dock?.hide();
  // The engine starts warm: configuration and the Chrome connection are ready before the first command.
  // X11 reads monitors itself; macOS/Windows take them from Electron's screen module.
  wired = await wireEngine(await loadConfig(), process.platform === 'linux' ? {} : { monitors: screenMonitors, nwmWorkerPath });
  const engine = wired.engine;
  registerIpc(
    ipcMain,
    {
      'context:get': (r) => engine.snapshot({ summaries: r.summaries }),
      'exec:run': (r) => engine.exec(r.input, { dryRun: r.dryRun }),
    },
    isOurs,
  );
  const resources = app.isPackaged ? process.resourcesPath : path.join(__dirname, '../../resources');
  createTray(resources, show, () => app.quit());
  show();
}

if (isFirstInstance) {
  app
    .whenReady()
    .then(start)
    .catch((e: unknown) => {
      // A broken config.json must be said, not leave a tray-less process running.
      dialog.showErrorBox('DeskPilot could not start', e instanceof Error ? e.message : String(e));
      app.exit(1);
    });
}

app.on('before-quit', () => {
  void wired?.dispose();
});

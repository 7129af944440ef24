import { BrowserWindow } from 'electron';
import path from 'node:path';
import { lockDown } from './window-security';

export function createMainWindow(): BrowserWindow {
  const win = new BrowserWindow({
    width: 720,
    height: 560,
    show: false,
    title: 'DeskPilot',
    autoHideMenuBar: true,
    webPreferences: {
      preload: path.join(__dirname, '../preload/index.js'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      // The launcher must open instantly, even after sitting hidden for hours.
      backgroundThrottling: false,
    },
  });
  lockDown(win.webContents);
  win.once('ready-to-show', () => win.show());
  if (process.env.ELECTRON_RENDERER_URL) void win.loadURL(process.env.ELECTRON_RENDERER_URL);
  else void win.loadFile(path.join(__dirname, '../renderer/index.html'));
  return win;
}

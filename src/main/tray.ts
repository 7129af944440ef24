import { Menu, Tray, nativeImage, type BrowserWindow } from 'electron';
import path from 'node:path';

export function createTray(resourcesDir: string, show: () => BrowserWindow, quit: () => void): Tray {
  const icon = nativeImage.createFromPath(path.join(resourcesDir, 'tray.png'));
  if (process.platform === 'darwin') icon.setTemplateImage(true);
  const tray = new Tray(icon);
  tray.setToolTip('DeskPilot');
  tray.on('click', () => show());
  tray.setContextMenu(
    Menu.buildFromTemplate([
      { label: 'Open DeskPilot', click: () => show() },
      { type: 'separator' },
      { label: 'Quit', click: quit },
    ]),
  );
  return tray;
}

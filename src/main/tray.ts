import { Menu, Tray, nativeImage, type BrowserWindow } from 'electron';
import path from 'node:path';

export function createTray(resourcesDir: string, show: () => BrowserWindow, quit: () => void): Tray {
  // macOS recolours "Template" images for light and dark menu bars; @2x is picked automatically.
  const file = process.platform === 'darwin' ? 'trayTemplate.png' : 'tray.png';
  const icon = nativeImage.createFromPath(path.join(resourcesDir, file));
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

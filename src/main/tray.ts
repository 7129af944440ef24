import { Menu, Tray, nativeImage, screen } from 'electron';
import path from 'node:path';
import { chooseAnchor, type Anchor } from './popover-position';

// The menu-bar / tray icon. Left click toggles the popover; right click opens a small menu.
// macOS ignores 'click' once a context menu is set, so there (and on Windows) the menu pops
// up from 'right-click'; Linux's StatusNotifierItem needs setContextMenu for its menu and
// still reports a left click as 'click'. Linux reports no tray bounds: the click position
// stands in for them.

export interface TrayActions {
  toggle(anchor: Anchor): void;
  open(anchor: Anchor): void;
  settings(): void;
  quit(): void;
}

export function createTray(resourcesDir: string, platform: NodeJS.Platform, actions: TrayActions): Tray {
  // macOS recolours "Template" images for light and dark menu bars; @2x is picked automatically.
  const icon = nativeImage.createFromPath(path.join(resourcesDir, platform === 'darwin' ? 'trayTemplate.png' : 'tray.png'));
  if (platform === 'darwin') icon.setTemplateImage(true);
  const tray = new Tray(icon);
  tray.setToolTip('DeskPilot');
  const menu = Menu.buildFromTemplate([
    // The menu sits by the icon, so the pointer still marks where the tray is (Linux).
    { label: 'Open DeskPilot', click: () => actions.open(chooseAnchor(trayBounds(tray, platform), platform === 'linux' ? screen.getCursorScreenPoint() : null)) },
    { label: 'Settings…', click: () => actions.settings() },
    { type: 'separator' },
    { label: 'Quit DeskPilot', click: () => actions.quit() },
  ]);
  // Windows sometimes reports empty bounds too; the pointer is then the best guess.
  tray.on('click', (_event, bounds) => actions.toggle(chooseAnchor(platform === 'linux' ? null : bounds, screen.getCursorScreenPoint())));
  if (platform === 'linux') tray.setContextMenu(menu);
  else tray.on('right-click', () => tray.popUpContextMenu(menu));
  return tray;
}

/** The tray icon's bounds where the OS reports them (macOS, Windows); null on Linux. */
export const trayBounds = (tray: Tray, platform: NodeJS.Platform) => (platform === 'linux' ? null : tray.getBounds());

/** Where the popover hangs when it opens without a click (second launch): the icon, or top-right. */
export const trayAnchor = (tray: Tray, platform: NodeJS.Platform): Anchor => chooseAnchor(trayBounds(tray, platform), null);

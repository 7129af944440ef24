import { BrowserWindow, type BrowserWindowConstructorOptions } from 'electron';
import { lockDown, secureWebPreferences } from './window-security';
import { BlurHider, loadView, type View } from './window-kit';

/**
 * The frameless, always-on-top, hide-on-blur window that the popover and the launcher both
 * are. Created hidden so that showing it later is instant.
 */
export function floatingWindow(
  view: View,
  size: { width: number; height: number },
  platform: NodeJS.Platform,
  extra: Pick<BrowserWindowConstructorOptions, 'movable'> & { webPreferences?: BrowserWindowConstructorOptions['webPreferences'] } = {},
): { win: BrowserWindow; blur: BlurHider } {
  const win = new BrowserWindow({
    ...size,
    show: false,
    frame: false,
    resizable: false,
    movable: extra.movable ?? true,
    minimizable: false,
    maximizable: false,
    fullscreenable: false,
    skipTaskbar: true,
    alwaysOnTop: true,
    title: 'DeskPilot',
    webPreferences: secureWebPreferences(extra.webPreferences),
  });
  if (platform === 'darwin') win.setVisibleOnAllWorkspaces(true, { visibleOnFullScreen: true });
  lockDown(win.webContents);
  const blur = new BlurHider(win);
  loadView(win, view);
  return { win, blur };
}

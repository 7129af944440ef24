import { BrowserWindow } from 'electron';
import { lockDown, secureWebPreferences } from './window-security';
import { loadView, sendEvent } from './window-kit';

// Settings get an ordinary window (?view=settings), not the popover: pasting an API key
// from a browser must not make it vanish on blur. Opened from the tray menu; closing destroys it.

export class SettingsWindow {
  private win: BrowserWindow | null = null;

  current(): BrowserWindow | null {
    return this.win && !this.win.isDestroyed() ? this.win : null;
  }

  show(): BrowserWindow {
    let win = this.current();
    if (!win) {
      win = new BrowserWindow({
        width: 640,
        height: 720,
        minWidth: 480,
        minHeight: 480,
        show: false,
        title: 'DeskPilot Settings',
        autoHideMenuBar: true,
        webPreferences: secureWebPreferences(),
      });
      lockDown(win.webContents);
      const created = win;
      created.once('ready-to-show', () => created.show());
      created.on('closed', () => {
        if (this.win === created) this.win = null;
      });
      loadView(created, 'settings');
      this.win = created;
    } else {
      win.show();
    }
    win.focus();
    sendEvent(win, 'ui:show');
    return win;
  }
}

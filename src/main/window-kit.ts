import type { BrowserWindow } from 'electron';
import path from 'node:path';
import type { IpcEvent, IpcEventPayloads } from '../protocol/ipc-channels';
import { shouldHideOnBlur } from './blur-guard';
import { isModalOpen, isNativeDialogOpen } from './native-dialogs';

// What the launcher, popover and settings windows share: which page they load, pushing
// events once the page is there, and hiding on blur behind blur-guard.ts's rules.

export type View = 'popover' | 'launcher' | 'settings';

/** The renderer page with ?view=… (the dev server in `electron-vite dev`, the built file otherwise). */
export function loadView(win: BrowserWindow, view: View): void {
  const dev = process.env.ELECTRON_RENDERER_URL;
  if (dev) {
    const url = new URL(dev);
    url.searchParams.set('view', view);
    void win.loadURL(url.toString());
  } else {
    void win.loadFile(path.join(__dirname, '../renderer/index.html'), { query: { view } });
  }
}

/** Sends a main → renderer push (with its payload, if it has one), after the page has loaded if it is still loading. */
export function sendEvent<E extends IpcEvent>(win: BrowserWindow, event: E, ...payload: IpcEventPayloads[E] extends undefined ? [] : [IpcEventPayloads[E]]): void {
  if (win.isDestroyed()) return;
  const contents = win.webContents;
  const send = () => contents.send(event, ...payload);
  if (contents.isLoading()) contents.once('did-finish-load', send);
  else send();
}

/** Tracks when a window was shown and hides it when it loses focus, unless the guard says no. */
export class BlurHider {
  private shownAt = 0;
  hiddenByBlurAt: number | null = null;

  constructor(
    win: BrowserWindow,
    private readonly now: () => number = Date.now,
  ) {
    win.on('blur', () => {
      const hide = shouldHideOnBlur({
        now: this.now(),
        shownAt: this.shownAt,
        visible: win.isVisible(),
        devToolsOpen: win.webContents.isDevToolsOpened(),
        nativeDialogOpen: isNativeDialogOpen(),
        modalOpen: isModalOpen(),
      });
      if (!hide) return;
      this.hiddenByBlurAt = this.now();
      win.hide();
    });
  }

  markShown(): void {
    this.shownAt = this.now();
    this.hiddenByBlurAt = null;
  }
}

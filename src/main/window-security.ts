import { shell, type BrowserWindowConstructorOptions, type WebContents } from 'electron';
import path from 'node:path';

// Every DeskPilot window: sandboxed, isolated, no Node, our preload only. No navigation away
// from the app and no new windows: web links open in the user's browser, everything else is
// dropped. The renderer's Content-Security-Policy is in src/renderer/index.html.

export function secureWebPreferences(extra: BrowserWindowConstructorOptions['webPreferences'] = {}): BrowserWindowConstructorOptions['webPreferences'] {
  return {
    preload: path.join(__dirname, '../preload/index.js'),
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    webviewTag: false,
    spellcheck: false,
    ...extra,
  };
}

export function lockDown(contents: WebContents): void {
  contents.on('will-navigate', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (/^https?:\/\//i.test(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
}

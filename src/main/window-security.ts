import { shell, type WebContents } from 'electron';

// No navigation away from the app and no new windows: web links open in the user's
// browser, everything else is dropped.
export function lockDown(contents: WebContents): void {
  contents.on('will-navigate', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (/^https?:\/\//i.test(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
}

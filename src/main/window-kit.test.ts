import { EventEmitter } from 'node:events';
import type { BrowserWindow } from 'electron';
import { describe, expect, it } from 'vitest';
import { BLUR_GRACE_MS } from './blur-guard';
import { withNativeDialog } from './native-dialogs';
import { BlurHider, sendEvent } from './window-kit';

/** A stand-in for a BrowserWindow: emits 'blur', records hide() and sends. */
function fakeWindow() {
  const contents = Object.assign(new EventEmitter(), {
    sent: [] as string[],
    loading: false,
    devTools: false,
    isLoading() {
      return this.loading;
    },
    isDevToolsOpened() {
      return this.devTools;
    },
    send(event: string) {
      this.sent.push(event);
    },
  });
  const win = Object.assign(new EventEmitter(), {
    visible: true,
    webContents: contents,
    isVisible() {
      return this.visible;
    },
    isDestroyed: () => false,
    hide() {
      this.visible = false;
    },
  });
  return { win, contents, bw: win as unknown as BrowserWindow };
}

describe('window kit (fake Electron objects)', () => {
  it('hides on blur after the grace period, not before, and remembers when', () => {
    let now = 1000;
    const { win, bw } = fakeWindow();
    const blur = new BlurHider(bw, () => now);
    blur.markShown();
    now += 50;
    win.emit('blur');
    expect(win.visible).toBe(true);
    now += BLUR_GRACE_MS;
    win.emit('blur');
    expect(win.visible).toBe(false);
    expect(blur.hiddenByBlurAt).toBe(now);
    blur.markShown();
    expect(blur.hiddenByBlurAt).toBeNull();
  });

  it('stays up while DevTools or a native dialog are open', async () => {
    let now = 0;
    const { win, contents, bw } = fakeWindow();
    new BlurHider(bw, () => now).markShown();
    now = 10_000;
    contents.devTools = true;
    win.emit('blur');
    expect(win.visible).toBe(true);
    contents.devTools = false;
    await withNativeDialog(async () => {
      win.emit('blur');
      expect(win.visible).toBe(true);
    });
    win.emit('blur');
    expect(win.visible).toBe(false);
  });

  it('sends a push once the page has loaded', () => {
    const { contents, bw } = fakeWindow();
    contents.loading = true;
    sendEvent(bw, 'ui:show');
    expect(contents.sent).toEqual([]);
    contents.emit('did-finish-load');
    expect(contents.sent).toEqual(['ui:show']);
    contents.loading = false;
    sendEvent(bw, 'ui:voice');
    expect(contents.sent).toEqual(['ui:show', 'ui:voice']);
  });
});

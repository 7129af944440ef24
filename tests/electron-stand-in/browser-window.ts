import { EventEmitter } from 'node:events';
import { pathToFileURL } from 'node:url';
import type * as Electron from 'electron';
import type { StandIn } from './electron-types';
import { recordCall } from './runtime';
import { StandInWebContents } from './web-contents';

// BrowserWindow: its page is real (page-host.ts); being shown, focused and where it is are the
// stand-in's own bookkeeping, with Electron's events ('show', 'hide', 'focus', 'blur',
// 'ready-to-show', 'closed') in Electron's order. The test can take focus away ('blur').

type Rect = Electron.Rectangle;

const windows: StandInBrowserWindow[] = [];
/** The window with focus (one at most), as the window system says. */
const focus: { window: StandInBrowserWindow | null } = { window: null };

export class StandInBrowserWindow
  extends EventEmitter
  implements
    StandIn<
      Electron.BrowserWindow,
      | 'show'
      | 'hide'
      | 'focus'
      | 'blur'
      | 'close'
      | 'destroy'
      | 'isVisible'
      | 'isFocused'
      | 'isDestroyed'
      | 'getBounds'
      | 'setBounds'
      | 'loadFile'
      | 'loadURL'
      | 'setVisibleOnAllWorkspaces'
      | 'getTitle'
    >
{
  readonly webContents: StandInWebContents;
  readonly options: Electron.BrowserWindowConstructorOptions;
  private visible: boolean;
  private destroyed = false;
  private bounds: Rect;
  private shownOnce = false;

  static getAllWindows(): StandInBrowserWindow[] {
    return windows.filter((w) => !w.destroyed);
  }

  static getFocusedWindow(): StandInBrowserWindow | null {
    return focus.window && !focus.window.destroyed && focus.window.visible ? focus.window : null;
  }

  constructor(options: Electron.BrowserWindowConstructorOptions = {}) {
    super();
    recordCall('new BrowserWindow', { ...options, webPreferences: { ...options.webPreferences } });
    this.options = options;
    this.visible = options.show !== false;
    this.bounds = { x: options.x ?? 0, y: options.y ?? 0, width: options.width ?? 800, height: options.height ?? 600 };
    this.webContents = new StandInWebContents(options.webPreferences?.preload);
    windows.push(this);
    this.webContents.once('did-finish-load', () => this.emit('ready-to-show'));
    if (this.visible) this.focus();
  }

  /** The view its page shows (?view=…), for the test. */
  view(): string | null {
    const url = this.webContents.getURL();
    return url ? new URL(url).searchParams.get('view') : null;
  }

  loadFile(filePath: string, options?: Electron.LoadFileOptions): Promise<void> {
    recordCall('BrowserWindow.loadFile', filePath, options);
    const url = pathToFileURL(filePath);
    const query = options?.query ?? {};
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
    return this.webContents.load(url.toString());
  }

  loadURL(url: string): Promise<void> {
    recordCall('BrowserWindow.loadURL', url);
    return this.webContents.load(url);
  }

  show(): void {
    recordCall('BrowserWindow.show', this.view());
    if (this.destroyed) return;
    const was = this.visible;
    this.visible = true;
    this.shownOnce = true;
    if (!was) this.emit('show');
    this.focus();
  }

  hide(): void {
    recordCall('BrowserWindow.hide', this.view());
    if (this.destroyed || !this.visible) return;
    if (focus.window === this) this.blur();
    this.visible = false;
    this.emit('hide');
  }

  focus(): void {
    if (this.destroyed) return;
    if (focus.window === this) return;
    const before = focus.window;
    focus.window = this;
    if (before && !before.destroyed) before.emit('blur');
    this.emit('focus');
  }

  /** Focus goes elsewhere (another app): Electron emits 'blur'. */
  blur(): void {
    if (focus.window !== this) return;
    focus.window = null;
    this.emit('blur');
  }

  isVisible(): boolean {
    return !this.destroyed && this.visible;
  }

  isFocused(): boolean {
    return !this.destroyed && focus.window === this;
  }

  isDestroyed(): boolean {
    return this.destroyed;
  }

  wasShown(): boolean {
    return this.shownOnce;
  }

  getBounds(): Rect {
    return { ...this.bounds };
  }

  setBounds(bounds: Partial<Rect>, animate?: boolean): void {
    recordCall('BrowserWindow.setBounds', this.view(), bounds, animate ?? false);
    this.bounds = { ...this.bounds, ...bounds };
  }

  setVisibleOnAllWorkspaces(visible: boolean, options?: Electron.VisibleOnAllWorkspacesOptions): void {
    recordCall('BrowserWindow.setVisibleOnAllWorkspaces', visible, options);
  }

  getTitle(): string {
    return this.options.title ?? '';
  }

  close(): void {
    recordCall('BrowserWindow.close', this.view());
    this.destroy();
  }

  destroy(): void {
    if (this.destroyed) return;
    if (focus.window === this) this.blur();
    this.destroyed = true;
    this.visible = false;
    void this.webContents.destroy();
    this.emit('closed');
  }
}

/** Every window, destroyed (app quit). */
export function destroyAllWindows(): void {
  for (const w of windows) w.destroy();
}

import { EventEmitter } from 'node:events';
import type * as Electron from 'electron';
import type { StandIn } from './electron-types';
import { PageHost } from './page-host';
import { recordCall } from './runtime';

// A window's webContents: its page (page-host.ts), main's pushes into it, and the events main
// listens to. Navigation away and new windows are what lockDown refuses; the stand-in's pages
// never navigate on their own, so those events are only recorded as listened to.

let nextId = 1;

type WindowOpenHandler = Parameters<Electron.WebContents['setWindowOpenHandler']>[0];

export class StandInWebContents
  extends EventEmitter
  implements StandIn<Electron.WebContents, 'send' | 'isLoading' | 'isDevToolsOpened' | 'setWindowOpenHandler' | 'isDestroyed' | 'getURL'>
{
  readonly id = nextId++;
  loading = false;
  destroyed = false;
  url = '';
  windowOpenHandler: WindowOpenHandler | null = null;
  readonly host: PageHost;

  constructor(preloadFile: string | undefined) {
    super();
    this.host = new PageHost(this, preloadFile);
  }

  send(channel: string, ...args: unknown[]): void {
    recordCall('webContents.send', this.id, channel);
    if (!this.destroyed) this.host.send(channel, args);
  }

  isLoading(): boolean {
    return this.loading;
  }

  isDevToolsOpened(): boolean {
    return false;
  }

  setWindowOpenHandler(handler: WindowOpenHandler): void {
    recordCall('webContents.setWindowOpenHandler', this.id);
    this.windowOpenHandler = handler;
  }

  isDestroyed(): boolean {
    return this.destroyed;
  }

  getURL(): string {
    return this.url;
  }

  /** Loading from the call on, as in Electron; 'did-finish-load' once the page's load event fired. */
  async load(url: string): Promise<void> {
    this.url = url;
    this.loading = true;
    try {
      await this.host.load(url);
    } finally {
      this.loading = false;
    }
    this.emit('did-finish-load');
  }

  async destroy(): Promise<void> {
    if (this.destroyed) return;
    this.destroyed = true;
    await this.host.close();
  }
}

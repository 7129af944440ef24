import type { CDPSession, Page } from 'playwright-core';
import { IPC_BINDING, IPC_REPLY, PRELOAD_WORLD, type ToMain, type ToPreload } from './page/names';
import { mainWorldScript, preloadWorldScript } from './page/scripts';
import { dispatchToMain } from './ipc-main';
import { uiBrowser } from './runtime';
import { fromWireNode, toWireNode } from './wire-node';
import type { StandInWebContents } from './web-contents';
import { errorMessage } from '../../src/engine/errors';

// One window's page in the UI Chromium, set up as Electron sets up a window with
// contextIsolation: before any of the page's scripts, the preload runs in an isolated world
// (with contextBridge and ipcRenderer) and what it exposes is defined in the main world. IPC
// from the preload world arrives here over a DevTools binding that only that world has, and
// goes to ipcMain; pushes (webContents.send) go back with Runtime.evaluate in that world.

export class PageHost {
  private page: Page | null = null;
  private cdp: CDPSession | null = null;
  /** The preload world of the current document (a new one per navigation). */
  private preloadContext: number | null = null;
  private readonly waiting: Array<() => void> = [];
  readonly ready: Promise<void>;

  constructor(
    private readonly contents: StandInWebContents,
    preloadFile: string | undefined,
  ) {
    this.ready = this.open(preloadFile);
  }

  private async open(preloadFile: string | undefined): Promise<void> {
    const { context } = await uiBrowser();
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    this.page = page;
    this.cdp = cdp;
    cdp.on('Runtime.executionContextCreated', ({ context: c }) => {
      const aux = c.auxData as { frameId?: string; isDefault?: boolean } | undefined;
      if (c.name !== PRELOAD_WORLD || aux?.isDefault) return;
      this.preloadContext = c.id;
      for (const run of this.waiting.splice(0)) run();
    });
    cdp.on('Runtime.bindingCalled', (e) => {
      if (e.name !== IPC_BINDING || e.executionContextId !== this.preloadContext) return;
      void this.fromPreload(fromWireNode(JSON.parse(e.payload)) as ToMain);
    });
    await cdp.send('Runtime.enable');
    await cdp.send('Page.enable');
    await cdp.send('Runtime.addBinding', { name: IPC_BINDING, executionContextName: PRELOAD_WORLD });
    await cdp.send('Page.addScriptToEvaluateOnNewDocument', { source: mainWorldScript() });
    if (preloadFile) await cdp.send('Page.addScriptToEvaluateOnNewDocument', { source: preloadWorldScript(preloadFile), worldName: PRELOAD_WORLD });
    page.on('close', () => this.contents.emit('destroyed'));
  }

  async load(url: string): Promise<void> {
    await this.ready;
    await this.page!.goto(url, { waitUntil: 'load' });
  }

  /** A push to the page (webContents.send), once its preload world exists. */
  send(channel: string, args: unknown[]): void {
    void this.toPreload({ kind: 'emit', channel, args });
  }

  async close(): Promise<void> {
    await this.ready.catch(() => undefined);
    await this.page?.close().catch(() => undefined);
  }

  private async fromPreload(m: ToMain): Promise<void> {
    if (m.kind === 'send') return void dispatchToMain(this.contents, m.channel, m.args, false);
    try {
      const value = await dispatchToMain(this.contents, m.channel, m.args, true);
      await this.toPreload({ kind: 'reply', id: m.id, ok: true, value });
    } catch (e) {
      await this.toPreload({ kind: 'reply', id: m.id, ok: false, error: errorMessage(e) });
    }
  }

  private async toPreload(m: ToPreload): Promise<void> {
    await this.ready;
    if (this.preloadContext === null) await new Promise<void>((resolve) => this.waiting.push(resolve));
    await this.cdp!.send('Runtime.evaluate', {
      expression: `globalThis[${JSON.stringify(IPC_REPLY)}](${JSON.stringify(JSON.stringify(toWireNode(m)))})`,
      contextId: this.preloadContext!,
    }).catch(() => undefined); // the page navigated or closed meanwhile
  }
}

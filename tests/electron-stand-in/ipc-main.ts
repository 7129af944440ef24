import { EventEmitter } from 'node:events';
import type * as Electron from 'electron';
import type { StandIn } from './electron-types';
import { recordCall } from './runtime';
import type { StandInWebContents } from './web-contents';

// ipcMain: main's handlers, called with what the pages' preloads send (page-host.ts) — the
// real messages of the real preload, after the same JSON-and-bytes copy Electron's structured
// clone makes of plain data.

type Handler = (event: Electron.IpcMainInvokeEvent, ...args: unknown[]) => unknown;

class StandInIpcMain extends EventEmitter implements StandIn<Electron.IpcMain, 'handle' | 'removeHandler'> {
  readonly handlers = new Map<string, Handler>();

  handle(channel: string, listener: Handler): void {
    recordCall('ipcMain.handle', channel);
    if (this.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    this.handlers.set(channel, listener);
  }

  removeHandler(channel: string): void {
    recordCall('ipcMain.removeHandler', channel);
    this.handlers.delete(channel);
  }
}

export const ipcMain = new StandInIpcMain();

/** A message from a page: an invoke is answered by its handler; a send goes to 'on' listeners. */
export async function dispatchToMain(sender: StandInWebContents, channel: string, args: unknown[], invoke: boolean): Promise<unknown> {
  // Main reads only the sender (the window check in ipc-manager.ts); the rest is Electron's shape.
  const event = { sender, frameId: 1, processId: sender.id, senderFrame: null, type: 'frame' } as unknown as Electron.IpcMainInvokeEvent;
  if (!invoke) {
    ipcMain.emit(channel, event, ...args);
    return undefined;
  }
  const handler = ipcMain.handlers.get(channel);
  if (!handler) throw new Error(`No handler registered for '${channel}'`);
  try {
    return await handler(event, ...args);
  } finally {
    // Answered: the test can wait for main to have taken a message in (ui:modal, window:fit …).
    recordCall('ipc handled', channel, args[0]);
  }
}

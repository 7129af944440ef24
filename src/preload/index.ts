import { contextBridge, ipcRenderer } from 'electron';
import { IPC_CHANNELS, IPC_EVENTS, methodName, type IpcEvent, type RendererEvents } from '../protocol/ipc-channels';
import type { RendererApi } from '../protocol/ipc';

// The renderer gets exactly one function per allow-listed channel, a subscription to the
// allow-listed pushes, and nothing else of Electron. Payloads are validated again in main;
// this side only forwards. Bundled on its own: it may require nothing but electron.

const api = Object.fromEntries(
  IPC_CHANNELS.map((channel) => [methodName(channel), (request: unknown) => ipcRenderer.invoke(channel, request)]),
) as RendererApi;

const allowed = new Set<string>(IPC_EVENTS);

const events: RendererEvents = {
  on(event: IpcEvent, listener: () => void) {
    if (!allowed.has(event)) throw new Error(`unknown event: ${String(event)}`);
    if (typeof listener !== 'function') throw new Error('listener must be a function');
    // The IpcRendererEvent (and with it ipcRenderer) never reaches the page.
    const forward = () => listener();
    ipcRenderer.on(event, forward);
    return () => {
      ipcRenderer.removeListener(event, forward);
    };
  },
};

contextBridge.exposeInMainWorld('api', api);
contextBridge.exposeInMainWorld('events', events);

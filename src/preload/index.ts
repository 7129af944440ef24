import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { IPC_CHANNELS, IPC_EVENTS, methodName, type IpcEvent, type IpcEventPayloads, type RendererEvents } from '../protocol/ipc-channels';
import type { RendererApi } from '../protocol/ipc';

// The renderer gets exactly one function per allow-listed channel, a subscription to the
// allow-listed pushes, and nothing else of Electron. Payloads are validated again in main;
// this side only forwards. Bundled on its own: it may require nothing but electron.

const api = Object.fromEntries(
  IPC_CHANNELS.map((channel) => [methodName(channel), (request: unknown) => ipcRenderer.invoke(channel, request)]),
) as RendererApi;

const allowed = new Set<string>(IPC_EVENTS);

const events: RendererEvents = {
  on<E extends IpcEvent>(event: E, listener: (payload: IpcEventPayloads[E]) => void) {
    if (!allowed.has(event)) throw new Error(`unknown event: ${String(event)}`);
    if (typeof listener !== 'function') throw new Error('listener must be a function');
    const call = listener as (payload?: unknown) => void;
    // The IpcRendererEvent (and with it ipcRenderer) never reaches the page; only the push's
    // one payload does ('agent:update' carries the run's state; the others carry nothing).
    const forward = (_e: IpcRendererEvent, ...args: unknown[]) => (args.length > 0 ? call(args[0]) : call());
    ipcRenderer.on(event, forward);
    return () => {
      ipcRenderer.removeListener(event, forward);
    };
  },
};

contextBridge.exposeInMainWorld('api', api);
contextBridge.exposeInMainWorld('events', events);

import { contextBridge, ipcRenderer } from 'electron';
import { IPC_CHANNELS, methodName } from '../protocol/ipc-channels';
import type { RendererApi } from '../protocol/ipc';

// The renderer gets exactly one function per allow-listed channel and nothing else of
// Electron. Payloads are validated again in main; this side only forwards.
const api = Object.fromEntries(
  IPC_CHANNELS.map((channel) => [methodName(channel), (request: unknown) => ipcRenderer.invoke(channel, request)]),
) as RendererApi;

contextBridge.exposeInMainWorld('api', api);

import type * as Electron from 'electron';
import type { StandIn } from '../electron-types';
import { BRIDGE_EVENTS, BridgeSide } from './bridge';
import { world } from './dom';
import { IPC_BINDING, IPC_REPLY, RUN_PRELOAD, type ToMain, type ToPreload } from './names';
import { fromWire, toWire } from './wire';

// Runs in the page's isolated world (as Electron runs a preload with contextIsolation), before
// the page's own scripts: Electron's `contextBridge` and `ipcRenderer` for the real built
// preload, which is then run with a `require` that knows only 'electron' (a sandboxed preload's
// require). ipcRenderer talks to the stand-in's main process through a DevTools binding that
// exists in this world only: the page's own scripts cannot reach it, as in Electron.

type Listener = (event: Electron.IpcRendererEvent, ...args: unknown[]) => void;

const bindingSend = (m: ToMain) => (world[IPC_BINDING] as (payload: string) => void)(JSON.stringify(toWire(m)));
const listeners = new Map<string, Set<Listener>>();
const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
let seq = 0;

class StandInIpcRenderer implements StandIn<Electron.IpcRenderer, 'invoke' | 'send' | 'on' | 'removeListener'> {
  invoke(channel: string, ...args: unknown[]): Promise<unknown> {
    const id = ++seq;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      bindingSend({ kind: 'invoke', id, channel, args });
    });
  }

  send(channel: string, ...args: unknown[]): void {
    bindingSend({ kind: 'send', channel, args });
  }

  on(channel: string, listener: Listener): this {
    let set = listeners.get(channel);
    if (!set) listeners.set(channel, (set = new Set()));
    set.add(listener);
    return this;
  }

  removeListener(channel: string, listener: Listener): this {
    listeners.get(channel)?.delete(listener);
    return this;
  }
}

export const ipcRenderer = new StandInIpcRenderer();

// Called by the main-process side with Runtime.evaluate in this world.
world[IPC_REPLY] = (json: string) => {
  const m = fromWire(JSON.parse(json)) as ToPreload;
  if (m.kind === 'emit') {
    // The event carries ipcRenderer itself as its sender, as Electron's does; no ports here.
    const event = { sender: ipcRenderer, ports: [] } as unknown as Electron.IpcRendererEvent;
    for (const l of [...(listeners.get(m.channel) ?? [])]) l(event, ...m.args);
    return;
  }
  const p = pending.get(m.id);
  if (!p) return;
  pending.delete(m.id);
  if (m.ok) p.resolve(m.value);
  else p.reject(new Error(m.error));
};

const bridge = new BridgeSide('preload');
const exposed = new Map<string, unknown>();

export const contextBridge = {
  exposeInMainWorld(apiKey: string, api: unknown): void {
    if (exposed.has(apiKey)) throw new Error(`Cannot bind an API on top of an existing property on the window object (${apiKey})`);
    const value = bridge.encode(api);
    exposed.set(apiKey, value);
    bridge.dispatch(BRIDGE_EVENTS.expose, { key: apiKey, value });
  },
} satisfies StandIn<Electron.ContextBridge, 'exposeInMainWorld'>;

// The main world may start listening after this world exposed its APIs: say them again.
world.document.addEventListener(BRIDGE_EVENTS.hello, () => {
  for (const [key, value] of exposed) bridge.dispatch(BRIDGE_EVENTS.expose, { key, value });
});

/** A sandboxed preload's require: 'electron' (what the preload may use of it), nothing else. */
function preloadRequire(name: string): unknown {
  if (name === 'electron') return { contextBridge, ipcRenderer };
  throw new Error(`module not found: ${name} (a sandboxed preload may require only electron)`);
}

world[RUN_PRELOAD] = (body: (require: (name: string) => unknown, module: { exports: unknown }, exports: unknown) => void) => {
  const module = { exports: {} };
  body(preloadRequire, module, module.exports);
};

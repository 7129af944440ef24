import { EventEmitter } from 'node:events';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { IPC_CHANNELS } from '../protocol/ipc-channels';
import type { RendererEvents } from '../protocol/ipc-channels';

// The preload runs in Electron's sandbox, which cannot run here: contextBridge and
// ipcRenderer are stand-ins that record what the preload exposes and forwards.
const exposed: Record<string, unknown> = {};
const ipc = Object.assign(new EventEmitter(), { invoke: vi.fn(async (channel: string, request: unknown) => ({ ok: true, value: { channel, request } })) });
vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (key: string, value: unknown) => (exposed[key] = value) },
  ipcRenderer: ipc,
}));

describe('preload (fake Electron objects)', () => {
  beforeAll(async () => {
    await import('./index');
  });

  it('exposes one method per channel that invokes exactly that channel', async () => {
    const api = exposed.api as Record<string, (r: unknown) => Promise<unknown>>;
    expect(Object.keys(api)).toHaveLength(IPC_CHANNELS.length);
    expect(await api.commandSubmit!({ text: 'hi' })).toEqual({ ok: true, value: { channel: 'command:submit', request: { text: 'hi' } } });
    expect(await api.windowHide!({})).toMatchObject({ value: { channel: 'window:hide' } });
  });

  it('subscribes to allow-listed pushes only, hides the IPC event, and unsubscribes', () => {
    const events = exposed.events as RendererEvents;
    const seen: unknown[][] = [];
    const off = events.on('ui:show', (...args: unknown[]) => seen.push(args));
    ipc.emit('ui:show', { sender: 'secret ipcRenderer' });
    expect(seen).toEqual([[]]);
    off();
    ipc.emit('ui:show', {});
    expect(seen).toHaveLength(1);
    expect(ipc.listenerCount('ui:show')).toBe(0);
    expect(() => events.on('ipc:anything' as never, () => {})).toThrow('unknown event: ipc:anything');
    expect(ipc.listenerCount('ipc:anything')).toBe(0);
  });

  it("forwards a push's one payload ('agent:update'), never the IPC event", () => {
    const events = exposed.events as RendererEvents;
    const seen: unknown[][] = [];
    const off = events.on('agent:update', (...args: unknown[]) => seen.push(args));
    const view = { runId: 'a1', status: 'running' };
    ipc.emit('agent:update', { sender: 'secret ipcRenderer' }, view, 'extra');
    expect(seen).toEqual([[view]]);
    off();
    expect(ipc.listenerCount('agent:update')).toBe(0);
  });
});

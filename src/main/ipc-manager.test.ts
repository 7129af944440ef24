import type { WebContents } from 'electron';
import { describe, expect, it } from 'vitest';
import { IPC_CHANNELS } from '../protocol/ipc-channels';
import { guardedHandlers, type IpcHandlers } from './ipc-manager';

// The Electron runtime cannot run here: senders are stand-in objects (a fake, named so),
// while the validation and dispatch code is the real one.
describe('IPC manager (fake Electron senders)', () => {
  const ours = { id: 1 } as unknown as WebContents;
  const stranger = { id: 2 } as unknown as WebContents;
  const seen: unknown[] = [];
  // Only the channels these tests call; the rest are never reached.
  const handlers = {
    'presets:delete': async (r: { name: string }) => {
      seen.push(r);
      return { deleted: true };
    },
    'chrome:launch': async () => {
      throw new Error('no Chrome is installed');
    },
  } as unknown as IpcHandlers;
  const invoke = guardedHandlers(handlers, (s) => s === ours);

  it('passes a valid request from our window to the handler', async () => {
    expect(await invoke['presets:delete']({ sender: ours }, { name: ' code space ' })).toEqual({ ok: true, value: { deleted: true } });
    expect(seen).toEqual([{ name: 'code space' }]);
  });

  it('refuses other senders without calling the handler', async () => {
    seen.length = 0;
    expect(await invoke['presets:delete']({ sender: stranger }, { name: 'x' })).toEqual({ ok: false, error: 'refused: unknown sender', code: 'refused' });
    expect(seen).toEqual([]);
  });

  it('refuses malformed payloads, naming the field', async () => {
    expect(await invoke['presets:delete']({ sender: ours }, { name: '', x: 1 })).toEqual({
      ok: false,
      error: 'name: must not be empty; x: unknown field',
      code: 'invalid_input',
      fields: [
        { path: 'name', message: 'must not be empty' },
        { path: 'x', message: 'unknown field' },
      ],
    });
    expect(seen).toEqual([]);
  });

  it('turns a handler failure into a message with its code', async () => {
    const r = await invoke['chrome:launch']({ sender: ours }, {});
    expect(r).toEqual({ ok: false, error: 'no Chrome is installed', code: 'failed' });
  });

  it('offers the renderer no channel that runs a raw batch or reads the whole desktop', () => {
    expect(IPC_CHANNELS).not.toContain('exec:run');
    expect(IPC_CHANNELS).not.toContain('context:get');
  });
});

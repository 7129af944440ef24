import type { WebContents } from 'electron';
import { describe, expect, it } from 'vitest';
import type { ContextSnapshot } from '../protocol/context';
import { guardedHandlers, type IpcHandlers } from './ipc-manager';

// The Electron runtime cannot run here: senders are stand-in objects (a fake, named so),
// while the validation and dispatch code is the real one.
describe('IPC manager (fake Electron senders)', () => {
  const ours = { id: 1 } as unknown as WebContents;
  const stranger = { id: 2 } as unknown as WebContents;
  const seen: unknown[] = [];
  // Only the channels these tests call; the rest are never reached.
  const handlers = {
    'context:get': async (r: { summaries: boolean }) => {
      seen.push(r);
      return { taken_at: 'now' } as unknown as ContextSnapshot;
    },
    'exec:run': async () => {
      throw new Error('Chrome is not reachable');
    },
  } as unknown as IpcHandlers;
  const invoke = guardedHandlers(handlers, (s) => s === ours);

  it('passes a valid request from our window to the handler', async () => {
    expect(await invoke['context:get']({ sender: ours }, { summaries: true })).toEqual({ ok: true, value: { taken_at: 'now' } });
    expect(seen).toEqual([{ summaries: true }]);
  });

  it('refuses other senders without calling the handler', async () => {
    seen.length = 0;
    expect(await invoke['context:get']({ sender: stranger }, { summaries: true })).toEqual({ ok: false, error: 'refused: unknown sender' });
    expect(seen).toEqual([]);
  });

  it('refuses malformed payloads, naming the field', async () => {
    expect(await invoke['context:get']({ sender: ours }, { summaries: 'yes', x: 1 })).toEqual({
      ok: false,
      error: 'summaries: Invalid input: expected boolean, received string; x: unknown field',
    });
    expect(seen).toEqual([]);
  });

  it('turns a handler failure into a message', async () => {
    const r = await invoke['exec:run']({ sender: ours }, { input: {}, dryRun: false });
    expect(r).toEqual({ ok: false, error: 'Chrome is not reachable' });
  });
});

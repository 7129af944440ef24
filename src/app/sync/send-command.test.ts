import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { SyncDoc } from '../../platform/sync/sync-doc';
import { testUser } from '../../../tests/sync/keyrings';
import { emptyReport } from '../../protocol/report';
import { sendCommand } from './send-command';

// The waiting side against a real Yjs document relayed to a second one (the "target").

function pair() {
  const a = new Y.Doc();
  const b = new Y.Doc();
  a.on('update', (u: Uint8Array, origin: unknown) => origin !== 'relay' && Y.applyUpdate(b, u, 'relay'));
  b.on('update', (u: Uint8Array, origin: unknown) => origin !== 'relay' && Y.applyUpdate(a, u, 'relay'));
  return { sender: new SyncDoc(a, s!.ring), target: new SyncDoc(b, t!.ring) };
}

const [s, t] = testUser(['sender', 'target']);
const TARGET = t!.id;
const batch = {
  v: 1 as const,
  id: 'batch-00000001',
  device_id: TARGET,
  prepared_at: '2026-01-01T00:00:00.000Z',
  snapshot_taken_at: '2026-01-01T00:00:00.000Z',
  commands: [{ type: 'list_tabs' as const, command: { type: 'list_tabs' as const } }],
  plan: [{ index: 0, type: 'list_tabs' as const, summary: 'list the tabs', destructive: false, targets: [] }],
  confirm: [],
};
const fields = { action: 'run' as const, deviceId: TARGET, from: s!.id, batch };

describe('sendCommand', () => {
  it('resolves with the target\'s answer and deletes the row once read', async () => {
    const { sender, target } = pair();
    target.onRows((ids) => {
      for (const id of ids) {
        const r = target.readRow(id);
        if (r?.ok && !r.row.taken) {
          target.setTaken(id, Date.now());
          target.setResult<'run'>(id, emptyReport('done', { batch_id: batch.id }));
        }
      }
    });
    const report = await sendCommand<'run'>(sender, fields, { ttlMs: 60_000 });
    expect(report).toMatchObject({ status: 'done', batch_id: batch.id });
    expect(target.rowIds()).toEqual([]);
  });

  it('rejects at the TTL when nobody took the row, saying the device may be offline, and leaves the row to expire', async () => {
    const { sender, target } = pair();
    await expect(sendCommand<'run'>(sender, fields, { ttlMs: 30, targetName: 'home desktop' })).rejects.toThrow(/"home desktop" did not answer within 0 s; it may be offline/);
    expect(target.rowIds()).toHaveLength(1);
  });

  it('gives a row the target took one more TTL, then says it may still be running there', async () => {
    const { sender, target } = pair();
    target.onRows((ids) =>
      ids.forEach((id) => {
        const r = target.readRow(id);
        if (r?.ok && !r.row.taken) target.setTaken(id, Date.now());
      }),
    );
    const err = await sendCommand<'run'>(sender, fields, { ttlMs: 30 }).catch((e: Error) => e);
    expect(String(err)).toContain('took the command but did not answer');
  });

  it('an abort deletes the row, so the target never sees it pending', async () => {
    const { sender, target } = pair();
    const ac = new AbortController();
    const sent = sendCommand<'run'>(sender, fields, { ttlMs: 60_000, signal: ac.signal });
    expect(target.rowIds()).toHaveLength(1);
    ac.abort();
    await expect(sent).rejects.toMatchObject({ code: 'cancelled' });
    expect(target.rowIds()).toEqual([]);
  });

  it('with answerIfTaken, an abort after the target took the row keeps it and resolves with the answer (what ran)', async () => {
    const { sender, target } = pair();
    let rowId = '';
    target.onRows((ids) =>
      ids.forEach((id) => {
        const r = target.readRow(id);
        if (r?.ok && !r.row.taken) target.setTaken((rowId = id), Date.now());
      }),
    );
    const ac = new AbortController();
    const sent = sendCommand<'run'>(sender, fields, { ttlMs: 60_000, signal: ac.signal, answerIfTaken: true });
    expect(rowId).not.toBe('');
    ac.abort();
    expect(target.rowIds()).toEqual([rowId]);
    target.setResult<'run'>(rowId, emptyReport('done', { batch_id: batch.id }));
    await expect(sent).resolves.toMatchObject({ status: 'done', batch_id: batch.id });
    expect(target.rowIds()).toEqual([]);
  });

  it('with answerIfTaken, an abort before the target took the row still withdraws it', async () => {
    const { sender, target } = pair();
    const ac = new AbortController();
    const sent = sendCommand<'run'>(sender, fields, { ttlMs: 60_000, signal: ac.signal, answerIfTaken: true });
    ac.abort();
    await expect(sent).rejects.toMatchObject({ code: 'cancelled' });
    expect(target.rowIds()).toEqual([]);
  });

  it('a row deleted before it was answered rejects at once', async () => {
    const { sender, target } = pair();
    target.onRows((ids) => ids.forEach((id) => target.readRow(id) && target.deleteRow(id)));
    await expect(sendCommand<'run'>(sender, fields, { ttlMs: 60_000 })).rejects.toThrow(/removed before it was answered/);
  });

  it('refuses to write a row that does not match the protocol', async () => {
    const { sender } = pair();
    await expect(sendCommand<'run'>(sender, { ...fields, deviceId: 'bad id!' }, {})).rejects.toThrow(/deviceId/);
    expect(sender.rowIds()).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { testUser } from '../../../tests/sync/keyrings';
import { waitFor } from '../../../tests/support/wait-for';
import { SyncDoc } from '../../platform/sync/sync-doc';
import type { Turn } from '../../protocol/planning';
import { emptyReport } from '../../protocol/report';
import { DeviceWorker } from '../device-worker';
import { sendCommand } from './send-command';

// D4: a target answered, but its answer reached the sender after the sender stopped waiting.
// Real Yjs documents with real keys; the relay between them holds the target's updates back, as
// a slow or stalled sync server would. The sender's desk behind its worker is a fake (it only
// records what is remembered).

const [s, t] = testUser(['work laptop', 'home desktop']);
const batch = {
  v: 1 as const,
  id: 'batch-00000001',
  device_id: t!.id,
  prepared_at: '2026-01-01T00:00:00.000Z',
  snapshot_taken_at: '2026-01-01T00:00:00.000Z',
  commands: [{ type: 'list_tabs' as const, command: { type: 'list_tabs' as const } }],
  plan: [{ index: 0, type: 'list_tabs' as const, summary: 'list the tabs', destructive: false, targets: [] }],
  confirm: [],
};

function heldPair() {
  const a = new Y.Doc();
  const b = new Y.Doc();
  const held: Uint8Array[] = [];
  a.on('update', (u: Uint8Array, origin: unknown) => origin !== 'relay' && Y.applyUpdate(b, u, 'relay'));
  b.on('update', (u: Uint8Array, origin: unknown) => origin !== 'relay' && held.push(u));
  return { sender: new SyncDoc(a, s!.ring), target: new SyncDoc(b, t!.ring), release: () => held.splice(0).forEach((u) => Y.applyUpdate(a, u, 'relay')) };
}

describe('an answer that comes after the sender stopped waiting', () => {
  it('the sender says the command may have run (not "will not run"), and its worker records the late answer when it comes', async () => {
    const { sender, target, release } = heldPair();
    // The target takes and answers at once; the relay holds both back.
    target.onRows((ids) =>
      ids.forEach((id) => {
        const r = target.readRow(id);
        if (r?.ok && !r.row.taken && r.row.result === undefined) {
          target.setTaken(id, Date.now());
          target.setResult<'run'>(id, emptyReport('done', { batch_id: batch.id, results: [{ index: 0, type: 'list_tabs', ok: true, message: 'Listed 3 tabs' }] as never }));
        }
      }),
    );
    let createdAt = 0;
    target.onRows((ids) => ids.forEach((id) => (createdAt ||= (target.readRow(id) as { row?: { createdAt: number } } | null)?.row?.createdAt ?? 0)));
    const err = await sendCommand<'run'>(sender, { action: 'run', deviceId: t!.id, from: s!.id, batch }, { ttlMs: 40, targetName: 'home desktop' }).catch((e: Error) => e);
    expect(String(err)).toContain('may have run there');
    expect(String(err)).not.toContain('will not run)');

    // The sender's own worker (its service) is there when the answer finally arrives.
    const remembered: Turn[] = [];
    const log: string[] = [];
    const desk = {
      run: async () => emptyReport('done'),
      snapshot: async () => {
        throw new Error('fake desk: not published');
      },
      prepare: async () => {
        throw new Error('fake desk');
      },
      remember: async (turn: Turn) => void remembered.push(turn),
    };
    const worker = new DeviceWorker({
      desk: desk as never,
      link: { doc: sender, synced: () => true, onSynced: () => {}, onRefused: () => {}, setOnline: () => {} },
      journal: { has: () => false, add: async () => {} },
      deviceId: s!.id,
      name: 'work laptop',
      platform: 'linux',
      version: 'test',
      ttlMs: 40,
      // Its clock says the answer comes after the sender gave up (2 TTLs) and before the row's
      // maximum age (10 TTLs), however slow this machine is.
      clock: () => createdAt + 200,
      log: (line) => log.push(line),
    });
    worker.start();
    try {
      release();
      await waitFor('the late answer to be recorded', () => remembered.length === 1);
      expect(log.join('\n')).toMatch(/late answer from "home desktop" to command .*: done — Listed 3 tabs/);
      expect(remembered[0]!.outcome).toBe('done: Listed 3 tabs');
      expect(sender.rowIds()).toEqual([]);
    } finally {
      await worker.stop();
    }
  });
});

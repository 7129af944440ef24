import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { testUser } from '../../../tests/sync/keyrings';
import { waitFor } from '../../../tests/support/wait-for';
import { SyncDoc } from '../../platform/sync/sync-doc';
import { RemoteDevices } from './remote-devices';

// Who asked on the sender travels in the row, encrypted and signed with the batch: the target reads
// it (to show as who asked), the document holds only ciphertext. Real Yjs documents and keys.

describe('who asked', () => {
  it('is in the row the target opens, and nowhere readable in the document', async () => {
    const [s, t] = testUser(['work laptop', 'home desktop']);
    const doc = new Y.Doc();
    const sender = new SyncDoc(doc, s!.ring);
    const target = new SyncDoc(doc, t!.ring);
    const remote = new RemoteDevices({ doc: sender, deviceId: s!.id, onlineDevices: () => new Set(), flushed: async () => {} });
    const device = sender.trustedDevices().find((d) => d.id === t!.id)!;
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
    const ac = new AbortController();
    const sent = remote.run(device, batch, ac.signal, 'someone at "work laptop" typed "list my tabs on the home desktop"').catch(() => null);
    const id = await waitFor('the row', () => target.rowIds()[0]);
    const read = target.readRow(id);
    expect(read).toMatchObject({ ok: true, row: { action: 'run', asked_by: 'someone at "work laptop" typed "list my tabs on the home desktop"' } });
    expect(JSON.stringify(doc.toJSON())).not.toContain('list my tabs');
    ac.abort();
    await sent;
  });
});

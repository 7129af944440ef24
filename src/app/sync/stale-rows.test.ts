import { afterEach, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { testUser } from '../../../tests/sync/keyrings';
import { SyncDoc } from '../../platform/sync/sync-doc';
import { emptyReport } from '../../protocol/report';
import { ROW_VERSION, type CommandRow } from '../../protocol/sync';
import { DeviceWorker, STALE_MARGIN_TTLS } from '../device-worker';

// Issue 29.4: a row nobody took within its TTL is removed by whichever device sees it (not only
// by its target, which may stay offline for days), and never a row that can still run or was
// taken. Real Yjs documents and real keys, three devices: A sends, B is the target (offline:
// no worker), C only watches. C's desk is a fake (nothing here runs on it) and C's clock is set
// by the test, so "past the TTL" does not depend on this machine's speed.

const [a, b, c] = testUser(['work laptop', 'home desktop', 'old tower']);
const TTL = 1_000;
const CREATED = 1_700_000_000_000;
/** The first moment of C's clock at which an untaken row may go. */
const STALE = CREATED + (1 + STALE_MARGIN_TTLS) * TTL;

/** Three documents kept in step, as the sync server would. */
function linkedDocs(n: number): Y.Doc[] {
  const docs = Array.from({ length: n }, () => new Y.Doc());
  for (const d of docs) d.on('update', (u: Uint8Array, origin: unknown) => origin !== 'relay' && docs.filter((o) => o !== d).forEach((o) => Y.applyUpdate(o, u, 'relay')));
  return docs;
}

/** A's, B's and C's views of one user's document. */
function threeDesks() {
  const [da, db, dc] = linkedDocs(3);
  return { sender: new SyncDoc(da!, a!.ring), target: new SyncDoc(db!, b!.ring), seer: new SyncDoc(dc!, c!.ring) };
}

const rowTo = (id: string, createdAt = CREATED): CommandRow => ({ v: ROW_VERSION, id, action: 'publish', deviceId: b!.id, from: a!.id, createdAt });

const workers: DeviceWorker[] = [];
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.stop()));
});

function watcher(doc: SyncDoc, clock: () => number, log: string[], who = c!): DeviceWorker {
  const desk = { run: async () => emptyReport('done'), snapshot: async () => Promise.reject(new Error('fake desk')), prepare: async () => Promise.reject(new Error('fake desk')) };
  const w = new DeviceWorker({
    desk: desk as never,
    link: { doc, synced: () => true, onSynced: () => {}, onRefused: () => {}, setOnline: () => {} },
    journal: { has: () => false, add: async () => {} },
    deviceId: who.id,
    name: who.name,
    platform: 'linux',
    version: 'test',
    ttlMs: TTL,
    publishEveryMs: 3_600_000,
    heartbeatMs: 3_600_000,
    clock,
    log: (line) => log.push(line),
  });
  workers.push(w);
  return w;
}

describe('stale rows are cleaned by any device', () => {
  it('C removes A\'s row to offline B once it is past its TTL by the margin, and not a moment before', () => {
    const { sender, target, seer } = threeDesks();
    sender.addRow(rowTo('row-live-0001'));
    expect(seer.readRow('row-live-0001')?.ok).toBe(true);

    // Past the TTL, within the margin: B (with a clock behind C's) could still take it.
    const log: string[] = [];
    watcher(seer, () => STALE, log).start();
    expect(seer.rowIds()).toEqual(['row-live-0001']);
    expect(log.filter((l) => l.includes('removed'))).toEqual([]);

    // Past TTL + margin: removed, everywhere, and said.
    const later: string[] = [];
    watcher(seer, () => STALE + 1, later).start();
    expect(seer.rowIds()).toEqual([]);
    expect(target.rowIds()).toEqual([]);
    expect(later.join('\n')).toMatch(/removed command row-live-0001 from "work laptop" to "home desktop": nobody took it within its TTL/);
  });

  it('a row its target took (even by an unverified mark) or answered is left for its sender, however old by C\'s clock (below the maximum age)', () => {
    const { sender, target, seer } = threeDesks();
    sender.addRow(rowTo('row-taken-001'));
    target.setTaken('row-taken-001', CREATED + 10);
    sender.addRow(rowTo('row-answer-01'));
    target.setTaken('row-answer-01', CREATED + 10);
    target.setResult<'publish'>('row-answer-01', { taken_at: new Date(CREATED).toISOString() });
    // A taken mark nobody can verify (written by a hostile hand): it may have been taken, so it stays too.
    sender.addRow(rowTo('row-forged-01'));
    const raw = seer.rawRow('row-forged-01') as Record<string, unknown>;
    seer.writeWire({ ...raw, taken: { at: CREATED + 10, sig: 'x'.repeat(86) } });
    expect(seer.readRow('row-forged-01')).toMatchObject({ ok: true, takenUnverified: true });

    const log: string[] = [];
    watcher(seer, () => CREATED + 9 * TTL, log).start();
    expect(seer.rowIds().sort()).toEqual(['row-answer-01', 'row-forged-01', 'row-taken-001']);
    expect(log.filter((l) => l.includes('removed'))).toEqual([]);
  });

  it('a row created later than C\'s clock says (another clock ahead of C\'s) is not removed', () => {
    const { sender, seer } = threeDesks();
    sender.addRow(rowTo('row-ahead-001', CREATED + 5 * TTL));
    watcher(seer, () => CREATED, []).start();
    expect(seer.rowIds()).toEqual(['row-ahead-001']);
  });

  it('its sender keeps its own untaken row up to the maximum age: an answer may still be on its way (D4)', () => {
    const [da] = linkedDocs(1);
    const sender = new SyncDoc(da!, a!.ring);
    sender.addRow(rowTo('row-mine-0001'));
    watcher(sender, () => CREATED + 9 * TTL, [], a!).start();
    expect(sender.rowIds()).toEqual(['row-mine-0001']);
  });
});

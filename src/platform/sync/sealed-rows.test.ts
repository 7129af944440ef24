import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { testUser } from '../../../tests/sync/keyrings';
import { emptyReport } from '../../protocol/report';
import type { CommandRow, WireRow } from '../../protocol/sync';
import { newDeviceKeys, signWith, unwrapWith, verifyWith, wrapTo } from './device-keys';
import { aeadOpen, aeadSeal, canonical, newSymmetricKey } from './seal';
import { openRow, sealRow } from './sealed-rows';
import { SyncDoc } from './sync-doc';

// The crypto of the queue with real keys: each protection is shown to hold by changing one byte
// (or one field) and seeing the row refused.

const flip = (b64: string, at = 5) => {
  const buf = Buffer.from(b64, 'base64url');
  buf[at % buf.length]! ^= 0x01;
  return buf.toString('base64url');
};

const batch = {
  v: 1 as const,
  id: 'batch-00000001',
  device_id: 'device-0002',
  prepared_at: '2026-01-01T00:00:00.000Z',
  snapshot_taken_at: '2026-01-01T00:00:00.000Z',
  commands: [{ type: 'list_tabs' as const, command: { type: 'list_tabs' as const } }],
  plan: [{ index: 0, type: 'list_tabs' as const, summary: 'list the secret tabs', destructive: false, targets: [] }],
  confirm: [],
};

describe('crypto helpers (node:crypto)', () => {
  it('AES-256-GCM: one byte changed in the ciphertext, the nonce, the additional data or the key is refused', () => {
    const key = newSymmetricKey();
    const ad = canonical('test', ['a', 1]);
    const s = aeadSeal(key, Buffer.from('hello'), ad);
    expect(aeadOpen(key, s, ad)?.toString()).toBe('hello');
    expect(aeadOpen(key, { ...s, ct: flip(s.ct) }, ad)).toBeNull();
    expect(aeadOpen(key, { ...s, nonce: flip(s.nonce) }, ad)).toBeNull();
    expect(aeadOpen(key, s, canonical('test', ['a', 2]))).toBeNull();
    expect(aeadOpen(newSymmetricKey(), s, ad)).toBeNull();
    // Two seals of the same text differ (a fresh nonce each time).
    expect(aeadSeal(key, Buffer.from('hello'), ad).ct).not.toBe(s.ct);
  });

  it('Ed25519: a changed byte in the data or the signature, or another key, fails', () => {
    const k = newDeviceKeys();
    const data = canonical('test', ['x']);
    const sig = signWith(k, data);
    expect(verifyWith(k.signPub, data, sig)).toBe(true);
    expect(verifyWith(k.signPub, canonical('test', ['y']), sig)).toBe(false);
    expect(verifyWith(k.signPub, data, flip(sig))).toBe(false);
    expect(verifyWith(newDeviceKeys().signPub, data, sig)).toBe(false);
    expect(verifyWith('not a key', data, sig)).toBe(false);
  });

  it('X25519 wrapping opens only for its recipient, and not once changed', () => {
    const to = newDeviceKeys();
    const ad = canonical('wrap', [1]);
    const w = wrapTo(to.boxPub, Buffer.from('document key'), ad);
    expect(unwrapWith(to, w, ad)?.toString()).toBe('document key');
    expect(unwrapWith(newDeviceKeys(), w, ad)).toBeNull();
    expect(unwrapWith(to, { ...w, ct: flip(w.ct) }, ad)).toBeNull();
    expect(unwrapWith(to, { ...w, eph: newDeviceKeys().boxPub }, ad)).toBeNull();
  });
});

describe('signed, encrypted rows', () => {
  const [a, b, c] = testUser(['work laptop', 'home desktop', 'spare laptop']);
  const row: CommandRow = { v: 2, id: 'row-00000001', action: 'run', deviceId: b!.id, from: a!.id, createdAt: 1000, batch, asked_by: 'typed "open secret" in a terminal' };

  it('a row from a trusted device opens on the target with its batch and who asked; nothing readable is in it', () => {
    const w = sealRow(a!.ring, row);
    expect(JSON.stringify(w)).not.toContain('list_tabs');
    expect(JSON.stringify(w)).not.toContain('secret tabs');
    expect(JSON.stringify(w)).not.toContain('open secret');
    expect(openRow(b!.ring, w.id, w)).toMatchObject({ ok: true, row: { ...row }, takenUnverified: false, resultProblem: null });
  });

  it('every field changed, or the row signed by a key the target does not trust, is refused', () => {
    const w = sealRow(a!.ring, row);
    const refused = (x: unknown) => {
      const r = openRow(b!.ring, 'row-00000001', x);
      expect(r.ok, JSON.stringify(x).slice(0, 80)).toBe(false);
      return r.ok ? '' : r.problem;
    };
    expect(refused({ ...w, ct: flip(w.ct) })).toContain('signature');
    expect(refused({ ...w, nonce: flip(w.nonce) })).toContain('signature');
    expect(refused({ ...w, sig: flip(w.sig) })).toContain('signature');
    expect(refused({ ...w, to: c!.id })).toContain('signature');
    expect(refused({ ...w, created_at: w.created_at + 1 })).toContain('signature');
    // Sent "as a" but signed by a stranger's key (a stolen connection credential does not carry a's key).
    const stranger = newDeviceKeys();
    const forged = sealRow({ ...a!.ring, keys: stranger }, row);
    expect(refused(forged)).toContain(`not "work laptop"'s`);
    // From a device nobody paired.
    expect(refused({ ...w, from: 'device-9999' })).toContain('does not trust');
    const { sig: _s, ...unsigned } = w;
    expect(refused(unsigned)).toContain('row.sig');
  });

  it('a row under a retired document key, or from a removed device, is refused', () => {
    const w = sealRow(a!.ring, row);
    const t = b!.store.get();
    b!.store.set({ ...t, keys: [{ ...t.keys[0]!, retired_at: 5 }, { epoch: 2, key: Buffer.alloc(32, 7).toString('base64url'), retired_at: null }], current_epoch: 2 });
    expect(openRow(b!.ring, w.id, w)).toMatchObject({ ok: false, problem: expect.stringContaining('epoch 1, which is retired') });
    b!.store.set(t);
    const { [a!.id]: removed, ...rest } = t.devices;
    b!.store.set({ ...t, devices: rest, removed: [{ id: a!.id, sign_pub: removed!.sign_pub, removed_at: 9, removed_by: b!.id }] });
    expect(openRow(b!.ring, w.id, w)).toMatchObject({ ok: false, problem: expect.stringContaining('which was removed') });
    b!.store.set(t);
  });

  it('the sender believes a result only when the target signed it; a taken mark not signed by the target is only "unverified"', () => {
    const docA = new SyncDoc(new Y.Doc(), a!.ring);
    const docB = new SyncDoc(docA.doc, b!.ring);
    const docC = new SyncDoc(docA.doc, c!.ring);
    docA.addRow(row);
    // c (trusted, but not the target) answers in b's place: not believed.
    docC.setResult<'run'>(row.id, emptyReport('done', { batch_id: batch.id }));
    docC.setTaken(row.id, 1001);
    expect(docA.readRow(row.id)).toMatchObject({ ok: true, takenUnverified: true, resultProblem: 'its answer is not signed by "home desktop"' });
    expect((docA.readRow(row.id) as { row: CommandRow }).row.result).toBeUndefined();
    docB.setTaken(row.id, 1002);
    docB.setResult<'run'>(row.id, emptyReport('done', { batch_id: batch.id }));
    expect(docA.readRow(row.id)).toMatchObject({ ok: true, row: { taken: { at: 1002 }, result: { status: 'done' } }, takenUnverified: false, resultProblem: null });
    const raw = docA.rawRow(row.id) as WireRow;
    docA.doc.getMap<Y.Map<unknown>>('commands').get(row.id)!.set('result', { ...raw.result!, ct: flip(raw.result!.ct) });
    expect(docA.readRow(row.id)).toMatchObject({ ok: true, resultProblem: 'its answer is not signed by "home desktop"' });
  });
});

import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { testUser } from '../../../tests/sync/keyrings';
import { newDeviceKeys } from './device-keys';
import { addNotice, applyNotices, identityOf, noticesOf, removalNotice } from './trust-notices';
import { currentKeyIn, trustFile, TRUST_FILE } from './trust-store';

// Trust lists and the signed notices that change them, with real keys: a desk follows only
// devices it trusts, a removed key is never trusted again, and a removal's new document key
// reaches the devices that stay and no other.

describe('signed notices', () => {
  it('a removal by a trusted device drops the device, retires the old key and gives the new one to those who stay only', () => {
    const [a, b, c] = testUser(['work laptop', 'home desktop', 'spare laptop']);
    const doc = new Y.Doc();
    const { notice, trust } = removalNotice(a!.keys, a!.store.get(), identityOf(a!.store.get(), c!.id), 100);
    noticesOf(doc).set(notice.id, notice);
    a!.store.set(trust);
    const onB = applyNotices(doc, b!.ring, b!.store, 200);
    expect(onB.lines.join('\n')).toContain('"work laptop" removed "spare laptop"');
    const tb = b!.store.get();
    expect(Object.keys(tb.devices)).not.toContain(c!.id);
    expect(tb.current_epoch).toBe(2);
    expect(tb.keys.find((k) => k.epoch === 1)!.retired_at).toBe(200);
    // b got the same new key as a.
    expect(currentKeyIn(tb, 2)!.equals(currentKeyIn(trust, 2)!)).toBe(true);
    // c (removed) learns it was removed, and gets no key.
    const onC = applyNotices(doc, c!.ring, c!.store, 200);
    expect(onC.removedSelf).toBe(true);
    expect(c!.store.get().current_epoch).toBe(1);
    // Applying again changes nothing.
    expect(applyNotices(doc, b!.ring, b!.store, 300).lines).toEqual([]);
  });

  it('a notice from a device this desk does not trust, or with a changed byte, or re-adding a removed key, is ignored', () => {
    const [a, b, c] = testUser(['work laptop', 'home desktop', 'spare laptop']);
    const stranger = newDeviceKeys();
    const doc = new Y.Doc();
    const newcomer = { id: 'device-new-0001', name: 'newcomer', sign_pub: newDeviceKeys().signPub, box_pub: newDeviceKeys().boxPub };
    // Signed by a key b does not know, claiming to be a.
    const forged = addNotice(stranger, a!.id, newcomer, 10);
    noticesOf(doc).set(forged.id, forged);
    // Signed by a, one field changed after.
    const changed = { ...addNotice(a!.keys, a!.id, newcomer, 11), device: { ...newcomer, name: 'renamed' } };
    noticesOf(doc).set(changed.id, changed);
    applyNotices(doc, b!.ring, b!.store, 20);
    expect(Object.keys(b!.store.get().devices)).not.toContain(newcomer.id);

    // c removed by a; then c's own notice re-adding itself, and a's old "add" again: c stays out.
    const t = b!.store.get();
    const removal = removalNotice(a!.keys, a!.store.get(), identityOf(t, c!.id), 30).notice;
    noticesOf(doc).set(removal.id, removal);
    const selfAdd = addNotice(c!.keys, c!.id, identityOf(t, c!.id), 40);
    noticesOf(doc).set(selfAdd.id, selfAdd);
    const replay = addNotice(a!.keys, a!.id, identityOf(t, c!.id), 50);
    noticesOf(doc).set(replay.id, replay);
    applyNotices(doc, b!.ring, b!.store, 60);
    expect(Object.keys(b!.store.get().devices)).not.toContain(c!.id);
    expect(b!.store.get().removed.map((r) => r.id)).toContain(c!.id);
  });
});

describe('the trust list file', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-trust-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, TRUST_FILE);

  it('is written 0600, read back, and refused — never reset — when others can read it or it is damaged', async () => {
    const [a] = testUser(['work laptop']);
    const store = trustFile(dir);
    expect(store.read()).toBeNull();
    await store.create(a!.store.get());
    expect(store.get()).toEqual(a!.store.get());
    chmodSync(file, 0o644);
    expect(() => trustFile(dir).get()).toThrow(/others can read it \(mode 644\)/);
    chmodSync(file, 0o600);
    const good = readFileSync(file, 'utf8');
    writeFileSync(file, good.replace('"current_epoch": 1', '"current_epoch": "one"'));
    expect(() => trustFile(dir).get()).toThrow(/current_epoch.*damaged; it is left as it is/);
    await expect(trustFile(dir).create(a!.store.get())).rejects.toThrow(/damaged/);
    await expect(trustFile(dir).update((t) => t)).rejects.toThrow(/damaged/);
    expect(readFileSync(file, 'utf8')).toContain('"current_epoch": "one"');
    writeFileSync(file, good);
    // Another process changing the file is seen at once.
    const mine = trustFile(dir);
    expect(mine.get().current_epoch).toBe(1);
    await trustFile(dir).update((t) => ({ ...t, devices: { ...t.devices, [a!.id]: { ...t.devices[a!.id]!, act_without_asking: true } } }));
    expect(mine.get().devices[a!.id]!.act_without_asking).toBe(true);
  });
});

import * as Y from 'yjs';
import { ContextSnapshot } from '../../protocol/context';
import { DeviceRow, PublishedTab, SealedValue, WireRow, type CommandRow, type RowResult } from '../../protocol/sync';
import { formatFieldError, zodErrors } from '../../protocol/validation';
import { canonical, openJson, sealJson } from './seal';
import { openRow, sealResult, sealRow, signTaken, type Keyring, type OpenedRow } from './sealed-rows';
import { currentKeyIn, isRemoved, trustedSenderIn, type TrustedSender } from './trust-store';

// The layout of a user's document, and typed access to it. Everything read from it is
// checked with the protocol's schemas: another device (or another version, or the server) wrote it.
//
//   devices            Y.Map<deviceId, DeviceRow>                  plaintext: who is there (no trust)
//   commands           Y.Map<rowId, Y.Map<field, value>>           WireRow fields: signed, encrypted
//   snap:<deviceId>    Y.Map<part, SealedValue>                    the snapshot's parts but its tabs
//   tabs:<deviceId>    Y.Map<targetId, SealedValue>                one entry per tab
//   order:<deviceId>   Y.Array<targetId>                           the tab order, edited, never rewritten
//   notices            Y.Map<noticeId, TrustNotice>                signed: devices added and removed
//   pairing            Y.Map<offerId, Y.Map<field, value>>         invites (the server reads them) and
//                                                                  the sealed key exchange of pairing
//
// So a change to one tab sends that tab, and a tab closed sends a deletion — never the whole
// list. Rows and snapshots need this device's Keyring (its keys and trust list); the layout
// alone (devices, raw rows) does not.

export type ReadRow = OpenedRow;

const PUBLISH_ORIGIN = 'deskpilot-publish';

const partAd = (deviceId: string, kind: 'part' | 'tab', key: string, epoch: number) => canonical('deskpilot snapshot v2', [deviceId, kind, key, epoch]);

export class SyncDoc {
  constructor(
    readonly doc: Y.Doc,
    private readonly keyring: Keyring | null = null,
  ) {}

  private get devicesMap(): Y.Map<unknown> {
    return this.doc.getMap('devices');
  }

  private get commandsMap(): Y.Map<Y.Map<unknown>> {
    return this.doc.getMap('commands');
  }

  private get ring(): Keyring {
    if (!this.keyring) throw new Error('this sync session has no device keys (it is pairing)');
    return this.keyring;
  }

  // ---- devices

  devices(): DeviceRow[] {
    const out: DeviceRow[] = [];
    for (const value of this.devicesMap.values()) {
      const parsed = DeviceRow.safeParse(value);
      if (parsed.success) out.push(parsed.data);
    }
    return out.sort((a, b) => a.name.localeCompare(b.name));
  }

  device(id: string): DeviceRow | null {
    const parsed = DeviceRow.safeParse(this.devicesMap.get(id));
    return parsed.success ? parsed.data : null;
  }

  /**
   * The devices this desk trusts (named as it paired them, whatever the document says), with what
   * their rows say of them, and the ones it removed (marked removed); the document's own rows and
   * removal marks decide nothing here.
   */
  trustedDevices(): DeviceRow[] {
    const t = this.ring.trust();
    const out: DeviceRow[] = [];
    for (const [id, d] of Object.entries(t.devices)) {
      if (isRemoved(t, id, d.sign_pub)) continue;
      const row = this.device(id);
      out.push({ v: 1, id, name: d.name, platform: row?.platform ?? '?', version: row?.version ?? '?', last_seen: row?.last_seen ?? 0 });
    }
    for (const r of t.removed) {
      const row = this.device(r.id);
      if (!t.devices[r.id]) out.push({ v: 1, id: r.id, name: row?.name ?? r.id, platform: row?.platform ?? '?', version: row?.version ?? '?', last_seen: row?.last_seen ?? 0, removed_at: r.removed_at });
    }
    return out.sort((a, b) => a.name.localeCompare(b.name));
  }

  /** The sender of a row when this desk trusts it (for the remote gate); null otherwise. */
  trustedSender(id: string): TrustedSender | null {
    return trustedSenderIn(this.ring.trust(), id);
  }

  /** Writes a device row; a removal already recorded is kept (only pairing again lifts it, on the server). */
  putDevice(row: DeviceRow): void {
    const checked = DeviceRow.parse(row);
    const before = this.device(row.id);
    const removed = before?.removed_at ?? checked.removed_at;
    this.devicesMap.set(row.id, { ...checked, ...(removed !== undefined ? { removed_at: removed } : {}) });
  }

  /** Writes a device row as it is pairing: a removal recorded before is lifted (the server let it in with a fresh invite). */
  pairDevice(row: DeviceRow): void {
    this.devicesMap.set(row.id, DeviceRow.parse(row));
  }

  /** Marks a device removed for the server (which then refuses its connection). */
  markRemoved(id: string, at: number): void {
    const before = this.device(id);
    if (before) this.devicesMap.set(id, { ...before, removed_at: at });
  }

  /** Calls `fn` when a device row changes; returns the unsubscribe. */
  onDevices(fn: () => void): () => void {
    const handler = () => fn();
    this.devicesMap.observe(handler);
    return () => this.devicesMap.unobserve(handler);
  }

  // ---- command rows

  rowIds(): string[] {
    return [...this.commandsMap.keys()];
  }

  hasRow(id: string): boolean {
    return this.commandsMap.has(id);
  }

  /** The row as stored, unchecked (for tests and for the server's view). */
  rawRow(id: string): unknown {
    const m = this.commandsMap.get(id);
    return m instanceof Y.Map ? m.toJSON() : m;
  }

  /** The row verified against this desk's trust list and decrypted, or why it is not believed. */
  readRow(id: string): ReadRow | null {
    if (!this.commandsMap.has(id)) return null;
    return openRow(this.ring, id, this.rawRow(id));
  }

  /** Seals and signs the row as this device, then writes it. */
  addRow(row: CommandRow): void {
    this.writeWire(sealRow(this.ring, row));
  }

  /** Writes a row exactly as given (what a hostile writer could do: tests use it). */
  writeWire(w: WireRow | Record<string, unknown>): void {
    this.doc.transact(() => {
      const m = new Y.Map<unknown>();
      for (const [k, v] of Object.entries(w)) if (v !== undefined) m.set(k, v);
      this.commandsMap.set(String(w.id), m);
    });
  }

  private wire(id: string): { m: Y.Map<unknown>; w: WireRow } | null {
    const m = this.commandsMap.get(id);
    if (!(m instanceof Y.Map)) return null;
    const parsed = WireRow.safeParse(m.toJSON());
    return parsed.success ? { m, w: parsed.data } : null;
  }

  /** Marks the row taken, signed by this device (the target). */
  setTaken(id: string, at: number): boolean {
    const found = this.wire(id);
    if (!found) return false;
    found.m.set('taken', signTaken(this.ring, found.w, at));
    return true;
  }

  /** Answers the row: the result encrypted under the row's document key and signed by this device. */
  setResult<A extends CommandRow['action']>(id: string, result: RowResult<A>): boolean {
    const found = this.wire(id);
    if (!found) return false;
    found.m.set('result', sealResult(this.ring, found.w, result));
    return true;
  }

  deleteRow(id: string): void {
    if (this.commandsMap.has(id)) this.commandsMap.delete(id);
  }

  /** Calls `fn` with the ids of the rows added, changed or deleted; returns the unsubscribe. */
  onRows(fn: (ids: Set<string>) => void): () => void {
    const map = this.commandsMap;
    const handler = (events: Array<Y.YEvent<Y.AbstractType<unknown>>>) => {
      const ids = new Set<string>();
      for (const e of events) {
        if (e.target === map) for (const k of (e as Y.YMapEvent<unknown>).keysChanged) ids.add(k);
        else if (typeof e.path[0] === 'string') ids.add(e.path[0]);
      }
      if (ids.size) fn(ids);
    };
    map.observeDeep(handler);
    return () => map.unobserveDeep(handler);
  }

  // ---- published snapshots (encrypted per part and per tab, so the per-tab diffing stays)

  /** What each published entry opened to, by its ciphertext: publishing compares 300 tabs every few seconds. */
  private readonly opened = new Map<string, { nonce: string; ct: string; e: number; value: unknown }>();

  private sealer(deviceId: string) {
    const t = this.ring.trust();
    const epoch = t.current_epoch;
    const key = currentKeyIn(t, epoch);
    if (!key) throw new Error('this desk has no current document key');
    return {
      seal: (kind: 'part' | 'tab', k: string, value: unknown) => {
        const sealed = { e: epoch, ...sealJson(key, value, partAd(deviceId, kind, k, epoch)) };
        this.opened.set(`${deviceId}\0${kind}\0${k}`, { nonce: sealed.nonce, ct: sealed.ct, e: epoch, value });
        return sealed;
      },
      /** The value, or undefined when it is not sealed with the current key (or does not open). */
      open: (kind: 'part' | 'tab', k: string, stored: unknown): unknown => {
        // The same nonce and ciphertext under the same key, device and place open to the same value.
        const id = `${deviceId}\0${kind}\0${k}`;
        const seen = this.opened.get(id);
        const o = stored as Partial<SealedValue> | null | undefined;
        if (seen && typeof o === 'object' && o !== null && o.e === epoch && seen.e === epoch && seen.nonce === o.nonce && seen.ct === o.ct) return seen.value;
        const s = SealedValue.safeParse(stored);
        if (!s.success || s.data.e !== epoch) return undefined;
        const value = openJson(key, s.data, partAd(deviceId, kind, k, epoch));
        if (value !== undefined) this.opened.set(id, { nonce: s.data.nonce, ct: s.data.ct, e: epoch, value });
        return value;
      },
    };
  }

  /** Publishes `snap` as `deviceId`'s desk, writing only what differs from what is there. */
  publishSnapshot(deviceId: string, snap: ContextSnapshot): void {
    const parts = this.doc.getMap<unknown>(`snap:${deviceId}`);
    const tabs = this.doc.getMap<unknown>(`tabs:${deviceId}`);
    const order = this.doc.getArray<string>(`order:${deviceId}`);
    const { seal, open } = this.sealer(deviceId);
    const same = (kind: 'part' | 'tab', key: string, stored: unknown, value: unknown) => JSON.stringify(open(kind, key, stored)) === JSON.stringify(value);
    this.doc.transact(() => {
      let changed = false;
      const { tabs: snapTabs, taken_at, ...rest } = snap;
      for (const [key, value] of Object.entries(rest)) {
        if (value === undefined) continue;
        if (!same('part', key, parts.get(key), value)) {
          parts.set(key, seal('part', key, value));
          changed = true;
        }
      }
      for (const key of [...parts.keys()]) {
        if (key !== 'taken_at' && !(key in rest)) {
          parts.delete(key);
          changed = true;
        }
      }
      const wanted = new Set<string>();
      for (const tab of snapTabs) {
        const { index: _i, local_index: _l, target_id, content_summary: _c, ...published } = tab;
        wanted.add(target_id);
        if (!same('tab', target_id, tabs.get(target_id), published)) {
          tabs.set(target_id, seal('tab', target_id, published));
          changed = true;
        }
      }
      for (const key of [...tabs.keys()]) {
        if (!wanted.has(key)) {
          tabs.delete(key);
          changed = true;
        }
      }
      if (editOrder(order, snapTabs.map((t) => t.target_id))) changed = true;
      // The time moves only with the content: an unchanged desk sends nothing.
      if (changed || open('part', 'taken_at', parts.get('taken_at')) === undefined) parts.set('taken_at', seal('part', 'taken_at', taken_at));
    }, PUBLISH_ORIGIN);
  }

  /** The desk `deviceId` published, decrypted and rebuilt as a snapshot (content summaries are not published). */
  readSnapshot(deviceId: string): { snapshot: ContextSnapshot | null; problem: string | null } {
    const parts = this.doc.getMap<unknown>(`snap:${deviceId}`);
    if (!parts.has('taken_at')) return { snapshot: null, problem: 'it has published nothing yet' };
    const { open } = this.sealer(deviceId);
    const tabsMap = this.doc.getMap<unknown>(`tabs:${deviceId}`);
    const order = this.doc.getArray<string>(`order:${deviceId}`).toArray();
    const perWindow = new Map<number, number>();
    const tabs: unknown[] = [];
    const seen = new Set<string>();
    for (const targetId of order) {
      const t = PublishedTab.safeParse(open('tab', targetId, tabsMap.get(targetId)));
      if (!t.success || seen.has(targetId)) continue;
      seen.add(targetId);
      const local = (perWindow.get(t.data.window_index) ?? 0) + 1;
      perWindow.set(t.data.window_index, local);
      tabs.push({ ...t.data, index: tabs.length + 1, local_index: local, target_id: targetId, content_summary: null });
    }
    const raw: Record<string, unknown> = { tabs };
    for (const [key, stored] of parts.entries()) {
      const value = open('part', key, stored);
      if (value === undefined) return { snapshot: null, problem: 'its published desk is not sealed with the current document key (it has not published since the key changed)' };
      raw[key] = value;
    }
    const parsed = ContextSnapshot.safeParse(raw);
    if (parsed.success) return { snapshot: parsed.data, problem: null };
    const why = zodErrors(parsed.error, raw, ['snapshot']).slice(0, 3).map(formatFieldError).join('; ');
    return { snapshot: null, problem: `its published desk does not match this version of DeskPilot (${why})` };
  }

  /** Calls `fn` when `deviceId` publishes; returns the unsubscribe. */
  onSnapshot(deviceId: string, fn: () => void): () => void {
    const parts = this.doc.getMap<unknown>(`snap:${deviceId}`);
    const handler = () => fn();
    parts.observe(handler);
    return () => parts.unobserve(handler);
  }
}

/** Turns `order` into `next` with one deletion and one insertion between the common ends. */
function editOrder(order: Y.Array<string>, next: string[]): boolean {
  const prev = order.toArray();
  let start = 0;
  while (start < prev.length && start < next.length && prev[start] === next[start]) start++;
  let end = 0;
  while (end < prev.length - start && end < next.length - start && prev[prev.length - 1 - end] === next[next.length - 1 - end]) end++;
  const del = prev.length - start - end;
  const ins = next.slice(start, next.length - end);
  if (del === 0 && ins.length === 0) return false;
  if (del > 0) order.delete(start, del);
  if (ins.length > 0) order.insert(start, ins);
  return true;
}

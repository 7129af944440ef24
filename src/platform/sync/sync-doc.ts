import * as Y from 'yjs';
import { ContextSnapshot } from '../../protocol/context';
import { CommandRow, DeviceRow, PublishedTab, type RowResult } from '../../protocol/sync';
import { formatFieldError, zodErrors } from '../../protocol/validation';

// The layout of a user's document, and typed access to it. Everything read from it is
// checked with the protocol's schemas: another device (or another version) wrote it.
//
//   devices            Y.Map<deviceId, DeviceRow>
//   commands           Y.Map<rowId, Y.Map<field, value>>   one nested map per row, so marking
//                                                           it taken or answering it writes one field
//   snap:<deviceId>    Y.Map<part, JSON>                   the snapshot's parts but its tabs
//   tabs:<deviceId>    Y.Map<targetId, PublishedTab>       one entry per tab
//   order:<deviceId>   Y.Array<targetId>                   the tab order, edited, never rewritten
//
// So a change to one tab sends that tab, and a tab closed sends a deletion — never the
// whole list.

export type ReadRow = { ok: true; row: CommandRow } | { ok: false; id: string; deviceId: string | null; problem: string };

const PUBLISH_ORIGIN = 'deskpilot-publish';

export class SyncDoc {
  constructor(readonly doc: Y.Doc) {}

  private get devicesMap(): Y.Map<unknown> {
    return this.doc.getMap('devices');
  }

  private get commandsMap(): Y.Map<Y.Map<unknown>> {
    return this.doc.getMap('commands');
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

  /** Writes a device row; a removal already recorded is kept (only pairing again lifts it, on the server). */
  putDevice(row: DeviceRow): void {
    const checked = DeviceRow.parse(row);
    const before = this.device(row.id);
    const removed = before?.removed_at ?? checked.removed_at;
    this.devicesMap.set(row.id, { ...checked, ...(removed !== undefined ? { removed_at: removed } : {}) });
  }

  /** Writes a device row as it is pairing: a removal recorded before is lifted (the server checked the user secret). */
  pairDevice(row: DeviceRow): void {
    this.devicesMap.set(row.id, DeviceRow.parse(row));
  }

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

  readRow(id: string): ReadRow | null {
    const m = this.commandsMap.get(id);
    if (!m) return null;
    const raw = m instanceof Y.Map ? m.toJSON() : m;
    const parsed = CommandRow.safeParse(raw);
    if (parsed.success) return { ok: true, row: parsed.data };
    const deviceId = typeof raw === 'object' && raw !== null && typeof (raw as { deviceId?: unknown }).deviceId === 'string' ? (raw as { deviceId: string }).deviceId : null;
    const problem = zodErrors(parsed.error, raw, ['row']).slice(0, 3).map(formatFieldError).join('; ');
    return { ok: false, id, deviceId, problem };
  }

  addRow(row: CommandRow): void {
    const checked = CommandRow.parse(row);
    this.doc.transact(() => {
      const m = new Y.Map<unknown>();
      for (const [k, v] of Object.entries(checked)) if (v !== undefined) m.set(k, v);
      this.commandsMap.set(checked.id, m);
    });
  }

  setTaken(id: string, at: number): boolean {
    const m = this.commandsMap.get(id);
    if (!(m instanceof Y.Map)) return false;
    m.set('taken', { at });
    return true;
  }

  setResult<A extends CommandRow['action']>(id: string, result: RowResult<A>): boolean {
    const m = this.commandsMap.get(id);
    if (!(m instanceof Y.Map)) return false;
    m.set('result', result);
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

  // ---- published snapshots

  /** Publishes `snap` as `deviceId`'s desk, writing only what differs from what is there. */
  publishSnapshot(deviceId: string, snap: ContextSnapshot): void {
    const parts = this.doc.getMap<unknown>(`snap:${deviceId}`);
    const tabs = this.doc.getMap<unknown>(`tabs:${deviceId}`);
    const order = this.doc.getArray<string>(`order:${deviceId}`);
    this.doc.transact(() => {
      let changed = false;
      const { tabs: snapTabs, taken_at, ...rest } = snap;
      for (const [key, value] of Object.entries(rest)) {
        if (value === undefined) continue;
        if (JSON.stringify(parts.get(key)) !== JSON.stringify(value)) {
          parts.set(key, value);
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
        if (JSON.stringify(tabs.get(target_id)) !== JSON.stringify(published)) {
          tabs.set(target_id, published);
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
      if (changed || !parts.has('taken_at')) parts.set('taken_at', taken_at);
    }, PUBLISH_ORIGIN);
  }

  /** The desk `deviceId` published, rebuilt as a snapshot (content summaries are not published). */
  readSnapshot(deviceId: string): { snapshot: ContextSnapshot | null; problem: string | null } {
    const parts = this.doc.getMap<unknown>(`snap:${deviceId}`);
    if (!parts.has('taken_at')) return { snapshot: null, problem: 'it has published nothing yet' };
    const tabsMap = this.doc.getMap<unknown>(`tabs:${deviceId}`);
    const order = this.doc.getArray<string>(`order:${deviceId}`).toArray();
    const perWindow = new Map<number, number>();
    const tabs: unknown[] = [];
    const seen = new Set<string>();
    for (const targetId of order) {
      const t = PublishedTab.safeParse(tabsMap.get(targetId));
      if (!t.success || seen.has(targetId)) continue;
      seen.add(targetId);
      const local = (perWindow.get(t.data.window_index) ?? 0) + 1;
      perWindow.set(t.data.window_index, local);
      tabs.push({ ...t.data, index: tabs.length + 1, local_index: local, target_id: targetId, content_summary: null });
    }
    const raw = { ...parts.toJSON(), tabs };
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

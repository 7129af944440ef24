import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ExecutionRecord } from '../../protocol/record';
import { loadDeviceId } from './device-id';
import { HistoryFile } from './history-file';

const record = (i: number): ExecutionRecord => ({
  _v: 1,
  id: `r${i}`,
  batchId: 'b1',
  deviceId: 'device-1',
  type: 'switch_tab',
  payload: { type: 'switch_tab', tab_index: i },
  createdAt: 1000 + i,
  finishedAt: 1001 + i,
  result: { ok: true, message: `Switched to tab ${i}` },
});

describe('HistoryFile (real files)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-history-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('appends JSON lines and reads the newest back, skipping torn or foreign lines', async () => {
    const h = new HistoryFile(path.join(dir, 'sub', 'history.jsonl'));
    expect(await h.recent(5)).toEqual([]);
    await h.append([record(1), record(2)]);
    appendFileSync(h.file, '{"torn": \n');
    await h.append([record(3)]);
    expect(readFileSync(h.file, 'utf8').trim().split('\n')).toHaveLength(4);
    expect((await h.recent(2)).map((r) => r.id)).toEqual(['r2', 'r3']);
    expect((await h.recent(10)).map((r) => r.id)).toEqual(['r1', 'r2', 'r3']);
  });

  it('loadDeviceId creates one id and keeps returning it', async () => {
    const a = await loadDeviceId(dir);
    expect(a).toMatch(/^[0-9a-f-]{36}$/);
    expect(await loadDeviceId(dir)).toBe(a);
  });
});

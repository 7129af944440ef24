import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigFile } from '../../src/platform/config/config-file';
import { PresetFile } from '../../src/protocol/preset';
import { ExecutionRecord } from '../../src/protocol/record';
import { UndoFile } from '../../src/protocol/undo';
import { PresetFileStore } from '../../src/platform/storage/preset-file';
import { runWritersAtOnce, startNode, WRITER } from './run-writers';
import { historyRecord, SETTINGS_PATCHES } from './state-writer';

// Many real DeskPilot processes updating the same state file at the same moment (the app,
// a CLI in a terminal, a script): every update must be kept and every file stay valid.
// Each test may start ten Node processes on a busy machine, hence the long timeouts.

const SLOW = 300_000;

describe('state files shared by concurrent processes (real processes, real files)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-xproc-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const names = (writers: number, each: number) => Array.from({ length: writers * each }, (_, i) => `w${Math.floor(i / each)}-${i % each}`).sort();
  const leftovers = () => readdirSync(dir).filter((f) => /\.(tmp|lock)$/.test(f));

  it('keeps every preset saved by ten processes at once', { timeout: SLOW }, async () => {
    await runWritersAtOnce('presets', dir, 10, 4);
    const file = PresetFile.parse(JSON.parse(readFileSync(path.join(dir, 'presets.json'), 'utf8')));
    expect(file.presets.map((p) => p.name).sort()).toEqual(names(10, 4));
    expect(leftovers()).toEqual([]);
  });

  it('keeps every undo entry pushed by ten processes at once', { timeout: SLOW }, async () => {
    await runWritersAtOnce('undo', dir, 10, 4);
    const file = UndoFile.parse(JSON.parse(readFileSync(path.join(dir, 'undo.json'), 'utf8')));
    expect(file.entries.map((e) => e.batchId).sort()).toEqual(names(10, 4));
    expect(leftovers()).toEqual([]);
  });

  it('keeps every turn appended by five processes at once (the file keeps ten)', { timeout: SLOW }, async () => {
    await runWritersAtOnce('turns', dir, 5, 2);
    const file = JSON.parse(readFileSync(path.join(dir, 'turns.json'), 'utf8')) as { turns: Array<{ text: string }> };
    expect(file.turns.map((t) => t.text).sort()).toEqual(names(5, 2));
    expect(leftovers()).toEqual([]);
  });

  it('keeps every setting applied by ten processes at once', { timeout: SLOW }, async () => {
    await runWritersAtOnce('settings', dir, SETTINGS_PATCHES.length, 1);
    const file = ConfigFile.parse(JSON.parse(readFileSync(path.join(dir, 'config.json'), 'utf8')));
    expect(file).toEqual({
      chrome: { url: 'http://127.0.0.1:9222' },
      llm: { base_url: 'http://localhost:11434/v1', model: 'qwen2.5:7b', mode: 'json_object' },
      ui: { confirm: { close_tab: false, close_app: false }, launch_at_login: true },
      voice: { enabled: true, model: 'whisper-large', base_url: 'http://localhost:8000/v1' },
    });
    expect(leftovers()).toEqual([]);
  });

  it('keeps every record appended by ten processes while history.jsonl is trimmed, with no torn line', { timeout: SLOW }, async () => {
    // Just past the size at which an append trims the file to its newest records.
    const file = path.join(dir, 'history.jsonl');
    const line = JSON.stringify(historyRecord('old', 0)) + '\n';
    writeFileSync(file, line.repeat(Math.ceil((4 * 1024 * 1024) / line.length) + 1));
    await runWritersAtOnce('history', dir, 10, 3);
    const lines = readFileSync(file, 'utf8').split('\n');
    expect(lines.pop()).toBe('');
    const records = lines.map((l, i) => {
      const parsed = ExecutionRecord.safeParse(JSON.parse(l));
      if (!parsed.success) throw new Error(`line ${i + 1} is not a record: ${l.slice(0, 200)}`);
      return parsed.data;
    });
    expect(records.length).toBeLessThanOrEqual(2000 + 30);
    expect(records.filter((r) => r.id !== 'old').map((r) => r.id).sort()).toEqual(names(10, 3));
    expect(leftovers()).toEqual([]);
  });
});

describe('a lock left by a killed process (real processes, real files)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-stale-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('goes stale and is taken over: the next update waits, then succeeds', { timeout: SLOW }, async () => {
    const file = path.join(dir, 'presets.json');
    const holder = startNode(WRITER, ['hold', file]);
    await holder.printed('locked');
    expect(statSync(`${file}.lock`).isDirectory()).toBe(true);
    holder.child.kill('SIGKILL');
    expect((await holder.exited).signal).toBe('SIGKILL');
    expect(existsSync(`${file}.lock`)).toBe(true); // nobody removed it

    await new PresetFileStore(file).save({ name: 'after the crash', placements: [], urls: [] });
    expect((await new PresetFileStore(file).list()).map((p) => p.name)).toEqual(['after the crash']);
    expect(existsSync(`${file}.lock`)).toBe(false);
  });
});

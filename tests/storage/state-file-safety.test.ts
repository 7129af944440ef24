import { execFileSync } from 'node:child_process';
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SafeStorageSecretStore, type SafeStorageLike } from '../../src/main/secret-store';
import { loadConfig } from '../../src/platform/config/load-config';
import { SettingsStore } from '../../src/platform/config/settings-store';
import { loadDeviceId } from '../../src/platform/storage/device-id';
import { HistoryFile } from '../../src/platform/storage/history-file';
import { PresetFileStore } from '../../src/platform/storage/preset-file';
import { TurnFileStore } from '../../src/platform/storage/turn-file';
import { UndoFileStore } from '../../src/platform/storage/undo-file';
import { historyRecord } from './state-writer';
import { errorMessage } from '../../src/engine/errors';

// Every file DeskPilot keeps in its config dir, put in a bad state for real: corrupt content,
// a directory, a named pipe (FIFO), a byte order mark. Each operation must say which file is
// wrong and why, leave the file exactly as it was (and no temp file beside it), and never
// hang. Turns only feed follow-ups, so their store says so (its warn callback) instead of
// failing the command. secrets.json's encryption is Electron's: a fake safeStorage here.

const fakeSafeStorage = {
  isAsyncEncryptionAvailable: async () => true,
  getSelectedStorageBackend: () => 'gnome_libsecret',
  encryptStringAsync: async (plain: string) => Buffer.from(`ENC:${plain}`),
  decryptStringAsync: async (enc: Buffer) => ({ result: enc.toString().slice(4), shouldReEncrypt: false }),
} as unknown as SafeStorageLike;
const noSecrets = { get: async () => null, set: async () => undefined };
const undoEntry = { batchId: 'b1', at: 1, label: 'move', windows: [], focused: null, irreversible: [] };
const turn = { at: Date.now(), text: 'hi', envelope: { commands: [] }, outcome: 'ok' };

interface Operation {
  file: string;
  what: string;
  /** Resolves with the problem it reported (a rejection or a warning), or null if it reported none. */
  run(dir: string): Promise<string | null>;
}

const reported = async (work: () => Promise<unknown>): Promise<string | null> => {
  try {
    await work();
    return null;
  } catch (e) {
    return errorMessage(e);
  }
};
/** For the stores that warn rather than throw: the first warning, or null. */
const warned = async (work: (warn: (m: string) => void) => Promise<unknown>): Promise<string | null> => {
  const warnings: string[] = [];
  const thrown = await reported(() => work((m) => warnings.push(m)));
  return thrown ?? warnings[0] ?? null;
};

const OPERATIONS: Operation[] = [
  { file: 'config.json', what: 'loading the configuration', run: (d) => reported(() => loadConfig({ configDir: d }, {})) },
  {
    file: 'config.json',
    what: 'saving a setting',
    run: (d) => reported(() => new SettingsStore(path.join(d, 'config.json'), noSecrets, 'linux', {}).apply({ launch_at_login: true })),
  },
  { file: 'presets.json', what: 'listing presets', run: (d) => reported(() => new PresetFileStore(path.join(d, 'presets.json')).list()) },
  {
    file: 'presets.json',
    what: 'saving a preset',
    run: (d) => reported(() => new PresetFileStore(path.join(d, 'presets.json')).save({ name: 'x', placements: [], urls: [] })),
  },
  { file: 'undo.json', what: 'pushing an undo entry', run: (d) => reported(() => new UndoFileStore(path.join(d, 'undo.json')).push(undoEntry)) },
  { file: 'undo.json', what: 'undoing', run: (d) => reported(() => new UndoFileStore(path.join(d, 'undo.json')).pop(1)) },
  { file: 'turns.json', what: 'reading recent turns', run: (d) => warned((w) => new TurnFileStore(path.join(d, 'turns.json'), Date.now, w).recent(5)) },
  { file: 'turns.json', what: 'remembering a turn', run: (d) => warned((w) => new TurnFileStore(path.join(d, 'turns.json'), Date.now, w).append(turn)) },
  {
    file: 'history.jsonl',
    what: 'recording an execution',
    run: (d) => reported(() => new HistoryFile(path.join(d, 'history.jsonl')).append([historyRecord('r1', 1)])),
  },
  { file: 'history.jsonl', what: 'reading history', run: (d) => reported(() => new HistoryFile(path.join(d, 'history.jsonl')).recent(5)) },
  { file: 'device-id', what: 'loading the device id', run: (d) => reported(() => loadDeviceId(d)) },
  {
    file: 'secrets.json',
    what: 'storing a key',
    run: (d) => reported(() => new SafeStorageSecretStore(path.join(d, 'secrets.json'), fakeSafeStorage, 'linux', () => undefined).set('k', 'v')),
  },
  {
    file: 'secrets.json',
    what: 'reading a key',
    run: (d) => warned((w) => new SafeStorageSecretStore(path.join(d, 'secrets.json'), fakeSafeStorage, 'linux', w).get('k')),
  },
];

/** What a state file looks like on disk: its kind and, for a file, its bytes. */
function shapeOf(p: string): string {
  const s = lstatSync(p);
  if (s.isFIFO()) return 'fifo';
  if (s.isDirectory()) return `directory: ${readdirSync(p).join(',')}`;
  return `file: ${readFileSync(p, 'latin1')}`;
}

describe('state files in a bad state (real files, a real FIFO; fake safeStorage for secrets.json)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-bad-state-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const expectReportedAndKept = async (op: Operation, reason: RegExp) => {
    const file = path.join(dir, op.file);
    const before = shapeOf(file);
    const problem = await op.run(dir);
    expect(problem, `${op.what} with a bad ${op.file}`).not.toBeNull();
    expect(problem).toContain(file);
    expect(problem).toMatch(reason);
    expect(shapeOf(file)).toBe(before);
    expect(readdirSync(dir).filter((f) => f !== op.file)).toEqual([]);
  };

  describe.each(OPERATIONS)('$what ($file)', (op) => {
    it('refuses a named pipe in its place, without hanging', async () => {
      execFileSync('mkfifo', [path.join(dir, op.file)]);
      await expectReportedAndKept(op, /is a named pipe \(FIFO\), not a file/);
    });

    it('refuses a directory in its place, and leaves no temp file', async () => {
      mkdirSync(path.join(dir, op.file));
      writeFileSync(path.join(dir, op.file, 'inside'), 'x');
      await expectReportedAndKept(op, /is a directory, not a file/);
    });

    it('reports corrupt content and never replaces it', async () => {
      writeFileSync(path.join(dir, op.file), op.file === 'history.jsonl' ? '\u0000\u0001 not records' : '{"version": 1, "pres');
      if (op.file === 'history.jsonl') {
        // Lines that do not parse are skipped by design (a torn write); the file is only ever appended to.
        expect(await op.run(dir)).toBeNull();
        expect(readFileSync(path.join(dir, op.file), 'utf8').startsWith('\u0000\u0001 not records')).toBe(true);
        return;
      }
      await expectReportedAndKept(op, op.file === 'device-id' ? /does not hold a device id/ : /is not valid JSON|not a DeskPilot secrets file/);
    });
  });

  it('reads every JSON state file and the device id despite a UTF-8 byte order mark', async () => {
    const bom = '\uFEFF';
    writeFileSync(path.join(dir, 'config.json'), bom + JSON.stringify({ chrome: { url: 'http://127.0.0.1:9222' } }));
    writeFileSync(path.join(dir, 'presets.json'), bom + JSON.stringify({ version: 1, presets: [{ name: 'code', placements: [], urls: [] }] }));
    writeFileSync(path.join(dir, 'undo.json'), bom + JSON.stringify({ version: 1, entries: [undoEntry] }));
    writeFileSync(path.join(dir, 'turns.json'), bom + JSON.stringify({ version: 1, turns: [turn] }));
    writeFileSync(path.join(dir, 'history.jsonl'), bom + JSON.stringify(historyRecord('r1', 1)) + '\n');
    writeFileSync(path.join(dir, 'device-id'), bom + 'abcdef12-device\n');
    writeFileSync(path.join(dir, 'secrets.json'), bom + JSON.stringify({ version: 1, secrets: { k: Buffer.from('ENC:v').toString('base64') } }));

    expect((await loadConfig({ configDir: dir }, {})).chromeUrl.value).toBe('http://127.0.0.1:9222');
    expect((await new SettingsStore(path.join(dir, 'config.json'), noSecrets, 'linux', {}).apply({ launch_at_login: true })).chrome.url).toBe('http://127.0.0.1:9222');
    expect((await new PresetFileStore(path.join(dir, 'presets.json')).list()).map((p) => p.name)).toEqual(['code']);
    expect((await new UndoFileStore(path.join(dir, 'undo.json')).pop(1)).map((e) => e.batchId)).toEqual(['b1']);
    const warnings: string[] = [];
    expect((await new TurnFileStore(path.join(dir, 'turns.json'), Date.now, (m) => warnings.push(m)).recent(5)).map((t) => t.text)).toEqual(['hi']);
    expect(warnings).toEqual([]);
    expect((await new HistoryFile(path.join(dir, 'history.jsonl')).recent(5)).map((r) => r.id)).toEqual(['r1']);
    expect(await loadDeviceId(dir)).toBe('abcdef12-device');
    expect(await new SafeStorageSecretStore(path.join(dir, 'secrets.json'), fakeSafeStorage, 'linux', (m) => warnings.push(m)).get('k')).toBe('v');
    expect(warnings).toEqual([]);
  });

  it('processes starting together on a fresh config dir agree on one device id', async () => {
    const ids = await Promise.all(Array.from({ length: 5 }, () => loadDeviceId(dir)));
    expect(new Set(ids).size).toBe(1);
    expect(readFileSync(path.join(dir, 'device-id'), 'utf8')).toBe(`${ids[0]}\n`);
  });

  it('ends a torn last history line before appending, so the next record is kept', async () => {
    const h = new HistoryFile(path.join(dir, 'history.jsonl'));
    writeFileSync(h.file, JSON.stringify(historyRecord('r1', 1)) + '\n{"_v":1,"id":"torn');
    await h.append([historyRecord('r2', 2)]);
    expect((await h.recent(5)).map((r) => r.id)).toEqual(['r1', 'r2']);
  });

  it.skipIf(process.platform === 'win32')('keeps the permissions a user gave a state file when it is updated', async () => {
    const file = path.join(dir, 'presets.json');
    writeFileSync(file, JSON.stringify({ version: 1, presets: [] }), { mode: 0o600 });
    chmodSync(file, 0o600);
    await new PresetFileStore(file).save({ name: 'private', placements: [], urls: [] });
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('writes through a symlinked state file instead of replacing the link', async () => {
    mkdirSync(path.join(dir, 'dotfiles'));
    const real = path.join(dir, 'dotfiles', 'presets.json');
    writeFileSync(real, JSON.stringify({ version: 1, presets: [] }));
    execFileSync('ln', ['-s', real, path.join(dir, 'presets.json')]);
    await new PresetFileStore(path.join(dir, 'presets.json')).save({ name: 'linked', placements: [], urls: [] });
    expect(lstatSync(path.join(dir, 'presets.json')).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(real, 'utf8')).presets.map((p: { name: string }) => p.name)).toEqual(['linked']);
  });
});

import path from 'node:path';
import { createInterface } from 'node:readline';
import type { SettingsPatch } from '../../src/protocol/ipc';
import type { ExecutionRecord } from '../../src/protocol/record';
import { SettingsStore } from '../../src/platform/config/settings-store';
import { withFileLock } from '../../src/platform/storage/file-lock';
import { HistoryFile } from '../../src/platform/storage/history-file';
import { PresetFileStore } from '../../src/platform/storage/preset-file';
import { TurnFileStore } from '../../src/platform/storage/turn-file';
import { UndoFileStore } from '../../src/platform/storage/undo-file';

// One DeskPilot process updating a state file through the real store classes. The tests
// start many at once: each loads everything, prints "ready", waits for "go" on stdin (so
// all of them update at the same moment rather than as they happen to finish loading),
// runs its updates and exits 0.
//
//   node --import tsx state-writer.ts <presets|undo|turns|history|settings> <config dir> <writer id> <updates>
//
// `hold <file>` instead takes the file's lock, prints "locked" and keeps it until killed.

/** One distinct setting per writer, so a lost update shows as a missing field. */
export const SETTINGS_PATCHES: SettingsPatch[] = [
  { chrome: { url: 'http://127.0.0.1:9222' } },
  { llm: { base_url: 'http://localhost:11434/v1' } },
  { llm: { model: 'qwen2.5:7b' } },
  { llm: { mode: 'json_object' } },
  { confirm: { close_tab: false } },
  { confirm: { close_app: false } },
  { launch_at_login: true },
  { voice: { enabled: true } },
  { voice: { model: 'whisper-large' } },
  { voice: { base_url: 'http://localhost:8000/v1' } },
];

export const historyRecord = (id: string, i: number): ExecutionRecord => ({
  _v: 1,
  id,
  batchId: `batch-${id}`,
  deviceId: 'device-1',
  type: 'switch_tab',
  payload: { type: 'switch_tab', tab_index: i + 1 },
  createdAt: 1000 + i,
  finishedAt: 1001 + i,
  result: { ok: true, message: `Switched to tab ${i}` },
});

async function update(kind: string, dir: string, id: string, k: number): Promise<void> {
  const name = `w${id}-${k}`;
  switch (kind) {
    case 'presets':
      return new PresetFileStore(path.join(dir, 'presets.json')).save({ name, placements: [], urls: [] });
    case 'undo':
      return new UndoFileStore(path.join(dir, 'undo.json')).push({ batchId: name, at: k, label: name, windows: [], focused: null, irreversible: [] });
    case 'turns':
      return new TurnFileStore(path.join(dir, 'turns.json')).append({ at: Date.now(), text: name, envelope: { commands: [] }, outcome: 'ok' });
    case 'history':
      return new HistoryFile(path.join(dir, 'history.jsonl')).append([historyRecord(name, k)]);
    case 'settings': {
      const secrets = { get: async () => null, set: async () => undefined };
      await new SettingsStore(path.join(dir, 'config.json'), secrets, 'linux', {}).apply(SETTINGS_PATCHES[Number(id)]!);
      return;
    }
    default:
      throw new Error(`unknown kind ${kind}`);
  }
}

async function main(): Promise<void> {
  const [kind, dir, id, count] = process.argv.slice(2) as [string, string, string, string];
  if (kind === 'hold') {
    setInterval(() => undefined, 60_000);
    return withFileLock(dir, () => {
      process.stdout.write('locked\n');
      return new Promise<never>(() => undefined);
    });
  }
  const lines = createInterface({ input: process.stdin });
  const go = new Promise<void>((resolve) => lines.once('line', () => resolve()));
  process.stdout.write('ready\n');
  await go;
  lines.close();
  for (let k = 0; k < Number(count); k++) await update(kind, dir, id, k);
}

if (require.main === module) {
  main().then(
    () => process.exit(0),
    (e: unknown) => {
      process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
      process.exit(1);
    },
  );
}

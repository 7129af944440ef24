import { appendFile, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { HistoryStore } from '../../engine/ports';
import { ExecutionRecord } from '../../protocol/record';

// Execution records as JSON lines: appending is atomic enough for one writer and a
// crash loses at most the last line. The file is trimmed to its newest records once it
// grows past a limit, so it never grows without bound.

const MAX_BYTES = 4 * 1024 * 1024;
const KEEP_RECORDS = 2000;

export class HistoryFile implements HistoryStore {
  constructor(readonly file: string) {}

  async append(records: ReadonlyArray<ExecutionRecord>): Promise<void> {
    if (records.length === 0) return;
    await mkdir(path.dirname(this.file), { recursive: true });
    await appendFile(this.file, records.map((r) => JSON.stringify(r)).join('\n') + '\n', 'utf8');
    const { size } = await stat(this.file);
    if (size > MAX_BYTES) await this.trim();
  }

  /** Newest last. Lines that do not parse (a torn write, a hand edit) are skipped. */
  async recent(limit: number): Promise<ExecutionRecord[]> {
    const lines = await this.lines();
    const out: ExecutionRecord[] = [];
    for (let i = lines.length - 1; i >= 0 && out.length < limit; i--) {
      const record = parseLine(lines[i]!);
      if (record) out.push(record);
    }
    return out.reverse();
  }

  private async lines(): Promise<string[]> {
    try {
      return (await readFile(this.file, 'utf8')).split('\n').filter((l) => l.trim() !== '');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw e;
    }
  }

  private async trim(): Promise<void> {
    const lines = await this.lines();
    await writeFile(this.file, lines.slice(-KEEP_RECORDS).join('\n') + '\n', 'utf8');
  }
}

function parseLine(line: string): ExecutionRecord | null {
  try {
    const parsed = ExecutionRecord.safeParse(JSON.parse(line));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

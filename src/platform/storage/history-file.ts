import type { HistoryStore } from '../../engine/ports';
import { ExecutionRecord } from '../../protocol/record';
import { withFileLock } from './file-lock';
import { appendStateText, readStateText, writeStateText } from './state-file';

// Execution records as JSON lines. Appends hold the file's lock, so records from several
// processes never interleave; once the file grows past a limit it is trimmed to its newest
// records, under the same lock and by writing a new file renamed over the old one, so no
// append is lost to the trim and a reader never sees half a file.

const MAX_BYTES = 4 * 1024 * 1024;
const KEEP_RECORDS = 2000;

export class HistoryFile implements HistoryStore {
  constructor(readonly file: string) {}

  async append(records: ReadonlyArray<ExecutionRecord>): Promise<void> {
    if (records.length === 0) return;
    await withFileLock(this.file, async () => {
      const size = await appendStateText(this.file, records.map((r) => JSON.stringify(r) + '\n').join(''));
      if (size > MAX_BYTES) await this.trim();
    });
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
    return ((await readStateText(this.file)) ?? '').split('\n').filter((l) => l.trim() !== '');
  }

  private async trim(): Promise<void> {
    const lines = await this.lines();
    await writeStateText(this.file, lines.slice(-KEEP_RECORDS).join('\n') + '\n');
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

import { mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';

// What an earlier DeskPilot process learnt about one run of Chrome, for the next process: a
// CLI call without the warm service is a new process, and without this it would attach to
// every tab again to find its page (tab-map.ts: about 2 ms of Chrome's time and three messages
// per tab), read every page again for its summary, and evaluate in pages to learn the brand.
// The browser's websocket URL names one launch of Chrome, so entries of an earlier launch are
// never used. Every entry is checked against the live targets before use, exactly like the
// in-memory caches it seeds, so a stale one costs a fresh look, never a wrong tab. A cache only
// DeskPilot writes, in its private chrome-run folder: one that cannot be read or parsed is
// replaced, and writing never fails a command.

const MAX_ENTRIES = 5000;
const Id = z.string().min(1).max(200);

export class BrowserRunCache<V> {
  private readonly schema: z.ZodType<{ v: 1; browser: string; entries: Record<string, V> }>;

  constructor(
    private readonly file: string,
    value: z.ZodType<V>,
  ) {
    this.schema = z.strictObject({ v: z.literal(1), browser: z.string().min(1).max(500), entries: z.record(Id, value) });
  }

  /** The entries saved for this browser run; none when the file is missing, unreadable, or of another run. */
  async load(browserWsUrl: string): Promise<Array<[string, V]>> {
    try {
      const parsed = this.schema.safeParse(JSON.parse(await readFile(this.file, 'utf8')));
      if (!parsed.success || parsed.data.browser !== browserWsUrl) return [];
      return Object.entries(parsed.data.entries).slice(0, MAX_ENTRIES);
    } catch {
      return [];
    }
  }

  /** Replaces the file in one rename, so a process reading meanwhile sees the old or the new entries, never half. */
  async save(browserWsUrl: string, entries: Iterable<[string, V]>): Promise<void> {
    const out: Record<string, V> = {};
    let n = 0;
    for (const [key, value] of entries) if (n++ < MAX_ENTRIES) out[key] = value;
    const tmp = `${this.file}.${process.pid}.tmp`;
    try {
      await mkdir(path.dirname(this.file), { recursive: true, mode: 0o700 });
      await writeFile(tmp, JSON.stringify({ v: 1, browser: browserWsUrl, entries: out }), { mode: 0o600 });
      await rename(tmp, this.file);
    } catch {
      // Only a cache: the next process looks again.
      await unlink(tmp).catch(() => undefined);
    }
  }
}

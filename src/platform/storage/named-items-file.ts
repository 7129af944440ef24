import { z } from 'zod';
import { echo } from '../../protocol/echo';
import { formatFieldError, zodErrors } from '../../protocol/validation';
import { withFileLock } from './file-lock';
import { readJsonFile, writeJsonFile } from './json-file';

// A config-dir file holding a list of named items under one key (presets.json's "presets",
// tab-collections.json's "collections"): names compare case-insensitively, saving replaces an
// item of the same name, and every change holds the file's lock.
//
// One bad record (edited by hand, written by another version) never costs the others: it is
// skipped and said once, and kept in the file exactly as it was through every later save and
// delete, for the user to mend. A name used twice serves the first and skips the repeat the same
// way. Only a file that is not JSON, or not this file's shape at all, fails whole — and it is
// reported, never overwritten.

type Raw = { version: 1 } & Record<string, unknown[]>;

export class NamedItemsFile<T extends { name: string }, K extends string> {
  private readonly said = new Set<string>();
  private readonly envelope: z.ZodType<Raw>;

  constructor(
    readonly file: string,
    private readonly itemSchema: z.ZodType<T>,
    private readonly key: K,
    /** Where a skipped record is said (stderr in the CLI, the log in the app). */
    private readonly warn: (message: string) => void = (m) => console.warn(`deskpilot: ${m}`),
  ) {
    this.envelope = z.strictObject({ version: z.literal(1), [key]: z.array(z.unknown()) }) as unknown as z.ZodType<Raw>;
  }

  async list(): Promise<T[]> {
    return this.usable(await this.read());
  }

  save(item: T): Promise<void> {
    return withFileLock(this.file, async () => {
      const data = await this.read();
      const items = this.records(data);
      const i = items.findIndex((raw) => this.isUsableNamed(raw, item.name));
      if (i >= 0) items[i] = item;
      else items.push(item);
      await writeJsonFile(this.file, { ...data, [this.key]: items });
    });
  }

  delete(name: string): Promise<boolean> {
    return withFileLock(this.file, async () => {
      const data = await this.read();
      const all = this.records(data);
      const kept = all.filter((raw) => !this.isUsableNamed(raw, name));
      if (kept.length === all.length) return false;
      await writeJsonFile(this.file, { ...data, [this.key]: kept });
      return true;
    });
  }

  private read(): Promise<Raw> {
    return readJsonFile(this.file, this.envelope, { version: 1, [this.key]: [] } as Raw);
  }

  /** The stored records as they are (the envelope's schema makes the key present). */
  private records(data: Raw): unknown[] {
    return [...(data[this.key] ?? [])];
  }

  /** The records that parse, first of each name; the others are said once and left alone. */
  private usable(data: Raw): T[] {
    const seen = new Set<string>();
    return this.records(data).flatMap((raw, i) => {
      const parsed = this.itemSchema.safeParse(raw);
      if (!parsed.success) {
        this.say(`${this.file}: ${this.key}[${i}] is skipped (${zodErrors(parsed.error, raw, [this.key, i]).map(formatFieldError).join('; ')})`);
        return [];
      }
      const name = parsed.data.name.toLowerCase();
      if (seen.has(name)) {
        this.say(`${this.file}: ${this.key}[${i}] is skipped (duplicate name "${echo(parsed.data.name)}"; the first one is used)`);
        return [];
      }
      seen.add(name);
      return [parsed.data];
    });
  }

  /** Whether a stored record is a usable item with this name: save and delete touch only those. */
  private isUsableNamed(raw: unknown, name: string): boolean {
    const parsed = this.itemSchema.safeParse(raw);
    return parsed.success && parsed.data.name.toLowerCase() === name.toLowerCase();
  }

  private say(message: string): void {
    if (this.said.has(message)) return;
    this.said.add(message);
    this.warn(message);
  }
}

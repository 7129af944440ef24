import type { z } from 'zod';
import { withFileLock } from './file-lock';
import { readJsonFile, writeJsonFile } from './json-file';

// A config-dir file holding a list of named items under one key (presets.json's "presets",
// tab-collections.json's "collections"): names compare case-insensitively, saving replaces an
// item of the same name, and every change holds the file's lock. A broken file is reported,
// never overwritten.

export class NamedItemsFile<T extends { name: string }, K extends string> {
  constructor(
    readonly file: string,
    private readonly schema: z.ZodType<{ version: 1 } & Record<K, T[]>>,
    private readonly key: K,
  ) {}

  async list(): Promise<T[]> {
    return (await this.read())[this.key];
  }

  save(item: T): Promise<void> {
    return withFileLock(this.file, async () => {
      const data = await this.read();
      const items = data[this.key];
      const i = items.findIndex((p) => p.name.toLowerCase() === item.name.toLowerCase());
      if (i >= 0) items[i] = item;
      else items.push(item);
      await writeJsonFile(this.file, data);
    });
  }

  delete(name: string): Promise<boolean> {
    return withFileLock(this.file, async () => {
      const data = await this.read();
      const kept = data[this.key].filter((p) => p.name.toLowerCase() !== name.toLowerCase());
      if (kept.length === data[this.key].length) return false;
      await writeJsonFile(this.file, { ...data, [this.key]: kept });
      return true;
    });
  }

  private read() {
    return readJsonFile(this.file, this.schema, { version: 1, [this.key]: [] } as { version: 1 } & Record<K, T[]>);
  }
}

import type { PresetStore } from '../../engine/ports';
import { PresetFile, type Preset } from '../../protocol/preset';
import { withFileLock } from './file-lock';
import { readJsonFile, writeJsonFile } from './json-file';

/** presets.json in the config dir. A broken file is reported, never overwritten. */
export class PresetFileStore implements PresetStore {
  constructor(readonly file: string) {}

  async list(): Promise<Preset[]> {
    return (await this.read()).presets;
  }

  save(preset: Preset): Promise<void> {
    return withFileLock(this.file, async () => {
      const data = await this.read();
      const i = data.presets.findIndex((p) => p.name.toLowerCase() === preset.name.toLowerCase());
      if (i >= 0) data.presets[i] = preset;
      else data.presets.push(preset);
      await writeJsonFile(this.file, data);
    });
  }

  delete(name: string): Promise<boolean> {
    return withFileLock(this.file, async () => {
      const data = await this.read();
      const kept = data.presets.filter((p) => p.name.toLowerCase() !== name.toLowerCase());
      if (kept.length === data.presets.length) return false;
      await writeJsonFile(this.file, { ...data, presets: kept });
      return true;
    });
  }

  private read() {
    return readJsonFile(this.file, PresetFile, { version: 1 as const, presets: [] });
  }
}

import type { PresetStore } from '../../engine/ports';
import { Preset } from '../../protocol/preset';
import { NamedItemsFile } from './named-items-file';

/** presets.json in the config dir. A broken file is reported, never overwritten. */
export class PresetFileStore extends NamedItemsFile<Preset, 'presets'> implements PresetStore {
  constructor(file: string, warn?: (message: string) => void) {
    super(file, Preset, 'presets', warn);
  }
}

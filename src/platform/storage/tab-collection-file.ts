import type { TabCollectionStore } from '../../engine/ports';
import { TabCollection } from '../../protocol/tab-collection';
import { NamedItemsFile } from './named-items-file';

/** tab-collections.json in the config dir: the saved sets of tabs. */
export class TabCollectionFileStore extends NamedItemsFile<TabCollection, 'collections'> implements TabCollectionStore {
  constructor(file: string, warn?: (message: string) => void) {
    super(file, TabCollection, 'collections', warn);
  }
}

import type { ContextSnapshot } from '../protocol/context';
import type { Turn } from '../protocol/planning';
import type { BatchFront } from './batch-front';
import type { ChromeBackend, PresetStore, QuestionAnswerer, RecentPlaces, TabCollectionStore, UndoStore } from './ports';
import type { UndoCollector } from './undo-collector';
import type { WindowOpsPorts } from './window-ops';

// What running one command is given: the ports it acts through and the batch's shared state.
// Its own file so the operations (tab-ops, window-ops) and execute.ts need not import each other.

export interface ExecutionPorts extends WindowOpsPorts {
  chrome: () => Promise<ChromeBackend>;
  presets: PresetStore;
  undo: UndoStore;
  /** Open questions; null when no LLM is configured (countable ones are answered locally). */
  answerer: QuestionAnswerer | null;
  /** Saved sets of tabs; absent where there is no config directory. */
  tabCollections?: TabCollectionStore;
  /** Opens recent files and projects; absent where none are read. */
  recent?: RecentPlaces;
}

export interface ExecContext {
  ports: ExecutionPorts;
  /** The snapshot questions are answered from, taken only when a question needs it. */
  snap: () => Promise<ContextSnapshot>;
  undo: UndoCollector;
  /** What ends the batch in front (see batch-front.ts); absent: nothing is raised or focused for placements. */
  front?: BatchFront;
  /** The recent turns, oldest first, so an open question can refer to them ("and which of those is oldest?"). */
  turns?: () => Promise<readonly Turn[]>;
}

import { create } from 'zustand';
import type { DeskIndex, PlanPreview } from '../../../protocol/launcher';
import { isAgentText } from '../lib/agent-text';
import { call } from '../lib/api';
import { afterNextPaint } from '../live/after-paint';
import { INITIAL_KEYS, listKey, type KeyPress, type ListKeysState } from '../live/keyboard';
import { prepareIndex, type PreparedIndex } from '../live/match';
import { actionLabel, buildRows, type LiveList, type LiveRow } from '../live/rows';
import { useAgentStore } from './agent-store';
import { useCommandStore } from './command-store';
import { useInputStore } from './input-store';
import { runText } from './run-text';

// The launcher's live list: the desk index (fetched once per show, replaced when main pushes
// a changed desk), the rows for the words being typed — computed right here on each key
// press, so the list is painted in the same frame — and the offline matcher's preview of the
// words, asked for once that frame is painted (it arrives from main a moment later and fills
// in the plan row). One preview request is in flight at a time; only the newest words are
// asked about next.

interface LiveState {
  index: DeskIndex | null;
  prepared: PreparedIndex | null;
  preview: PlanPreview | null;
  /** The words the list is for: set by typing; null when the field's text came from elsewhere. */
  listFor: string | null;
  list: LiveList;
  keys: ListKeysState;
  /** Enter was pressed before the words' preview arrived: it runs once the preview is there. */
  enterWaiting: string | null;
  loadIndex(): Promise<void>;
  receiveIndex(index: DeskIndex): void;
  /** The person typed: list what these words would act on. */
  typed(text: string): void;
  hide(): void;
  /** A key in the field; true when the list used it. */
  key(press: KeyPress): boolean;
  /** Runs a row's action (0: its own), as Enter, a click or ⌘number does. */
  runRow(row: number, action: number): void;
  highlight(row: number): void;
}

const EMPTY: LiveList = { rows: [], more: 0 };

let previewInFlight = false;
/** The words the request in flight is about. */
let previewFor: string | null = null;
let previewQueued: string | null = null;

export const useLiveStore = create<LiveState>((set, get) => {
  /** The rows for the current state; the highlighted row stays the same row when rows move. */
  function recompute(): void {
    const { listFor, index, prepared, preview, list, keys } = get();
    const next = listFor && listFor.trim() ? buildRows(listFor, index, prepared, preview) : EMPTY;
    let highlight = keys.highlight;
    // The default (first) row stays the default; a row the person moved to stays chosen.
    if (highlight > 0) {
      const key = list.rows[highlight]?.key;
      const at = next.rows.findIndex((r) => r.key === key);
      highlight = at >= 0 ? at : 0;
    }
    set({ list: next, keys: { highlight: Math.min(highlight, Math.max(0, next.rows.length - 1)), menu: keys.menu && highlight === keys.highlight ? keys.menu : null } });
  }

  async function requestPreview(text: string): Promise<void> {
    if (previewInFlight) {
      previewQueued = text;
      return;
    }
    previewInFlight = true;
    previewFor = text;
    try {
      const held = get().index?.id;
      const r = await call((api) => api.launcherPreview(held ? { text, index: held } : { text }));
      if (r.ok) {
        set({ preview: r.value });
        // Main planned on a newer snapshot than this list's: its index came along (the push may lag).
        const newer = r.value.newer;
        if (newer && newer.id !== get().index?.id) get().receiveIndex(newer);
        else recompute();
      }
      const waiting = get().enterWaiting;
      if (waiting !== null && waiting === get().listFor && (!r.ok || r.value.text === waiting.trim())) {
        set({ enterWaiting: null });
        get().runRow(get().keys.highlight, 0);
      }
    } finally {
      previewInFlight = false;
      previewFor = null;
      const q = previewQueued;
      previewQueued = null;
      if (q !== null && q === get().listFor) void requestPreview(q);
    }
  }

  /** The preview is for these words (the service reads them trimmed) on the list's index. */
  const settledFor = (text: string) => {
    const { preview, index } = get();
    return !!preview && !!index && preview.text === text.trim() && preview.index === index.id;
  };

  return {
    index: null,
    prepared: null,
    preview: null,
    listFor: null,
    list: EMPTY,
    keys: INITIAL_KEYS,
    enterWaiting: null,

    async loadIndex() {
      const r = await call((api) => api.launcherIndex({}));
      if (r.ok) get().receiveIndex(r.value);
    },

    receiveIndex(index) {
      // The same index twice (pushed, and along with a preview): nothing to redo.
      if (get().index?.id === index.id) return;
      set({ index, prepared: prepareIndex(index) });
      recompute();
      const text = get().listFor;
      if (text && text.trim() && !settledFor(text)) void requestPreview(text);
    },

    typed(text) {
      const agent = useAgentStore.getState();
      // A web task for the agent is not matched against the desk.
      if (agent.mode || isAgentText(text)) return get().hide();
      // New words replace a finished result (a question left unanswered is dropped with it);
      // nothing to replace on most key presses, and then nothing re-renders for it.
      const command = useCommandStore.getState();
      if (command.phase.kind !== 'idle') command.reset();
      set({ listFor: text, keys: INITIAL_KEYS, enterWaiting: null });
      recompute();
      // Unless other words were typed meanwhile, or these were asked about already (Enter, a new index).
      if (text.trim()) afterNextPaint(() => get().listFor === text && !settledFor(text) && previewFor !== text && void requestPreview(text));
    },

    hide() {
      set({ listFor: null, list: EMPTY, keys: INITIAL_KEYS, enterWaiting: null });
    },

    key(press) {
      const { list, keys, listFor } = get();
      if (!listFor || list.rows.length === 0 || useInputStore.getState().text !== listFor) return false;
      const result = listKey(keys, { rows: list.rows.length, actions: (i) => (list.rows[i]?.kind === 'item' ? list.rows[i].actions.length : 0) }, press);
      set({ keys: result.state });
      if (result.effect) {
        const { row, action } = result.effect;
        // Enter before the preview came: which row is first depends on it (words the matcher
        // does not know put the matching things first). It is on its way; run when it lands.
        if (press.key === 'Enter' && row === 0 && !settledFor(listFor)) {
          set({ enterWaiting: listFor });
          if (!previewInFlight) void requestPreview(listFor);
        } else {
          get().runRow(row, action);
        }
      }
      return result.handled;
    },

    runRow(rowIndex, action) {
      const { list, index, listFor } = get();
      const row: LiveRow | undefined = list.rows[rowIndex];
      if (!row) return;
      if (row.kind === 'plan') {
        get().hide();
        runText(row.text);
        return;
      }
      const a = row.actions[action];
      if (!a || !index) return;
      get().hide();
      useAgentStore.getState().dismiss();
      void useCommandStore.getState().run({
        kind: 'item',
        label: actionLabel(row, a),
        request: { index: index.id, item: row.ref, action: a.action },
        typed: listFor ?? '',
      });
    },

    highlight(row) {
      const { keys, list } = get();
      if (row === keys.highlight || row < 0 || row >= list.rows.length) return;
      set({ keys: { highlight: row, menu: null } });
    },
  };
});

// Text the person did not type here (cleared after a run, recalled with ↑, filled by voice or an
// example) is not what the list was made for: the list goes away.
useInputStore.subscribe((s) => {
  const { listFor, hide } = useLiveStore.getState();
  if (listFor !== null && s.text !== listFor) hide();
});

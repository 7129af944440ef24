import { create } from 'zustand';
import type { SettingsView } from '../../../protocol/ipc';
import { call } from '../lib/api';
import { useAnnouncer } from './announcer-store';
import { buildPatch, isEmptyPatch, toDraft, type FieldKey, type SettingsDraft } from '../lib/settings-draft';
import { mapFieldErrors, type MappedErrors } from '../lib/settings-errors';

// The settings form: what main has (`saved`), what the person typed (`draft`), and what
// main said about the last save. Nothing claims "Saved" unless main said ok.

type SaveState = 'idle' | 'saving' | 'saved' | 'failed';

interface SettingsState {
  saved: SettingsView | null;
  draft: SettingsDraft | null;
  loadError: string | null;
  save: SaveState;
  errors: MappedErrors;
  keyNote: { ok: boolean; message: string } | null;
  removingKey: boolean;
  load(): Promise<void>;
  setField<K extends FieldKey>(key: K, value: SettingsDraft[K]): void;
  submit(): Promise<void>;
  revert(): void;
  removeKey(): Promise<void>;
}

const NO_ERRORS: MappedErrors = { fields: {}, general: [] };

export const useSettingsStore = create<SettingsState>((set, get) => ({
  saved: null,
  draft: null,
  loadError: null,
  save: 'idle',
  errors: NO_ERRORS,
  keyNote: null,
  removingKey: false,

  async load() {
    const r = await call((api) => api.settingsGet({}));
    if (r.ok) set({ saved: r.value, draft: toDraft(r.value), loadError: null, errors: NO_ERRORS, save: 'idle' });
    else set({ loadError: r.error });
  },

  setField(key, value) {
    const { draft, errors } = get();
    if (!draft) return;
    const fields = { ...errors.fields };
    delete fields[key];
    set({ draft: { ...draft, [key]: value }, errors: { ...errors, fields }, save: get().save === 'saved' ? 'idle' : get().save });
  },

  async submit() {
    const { draft, saved } = get();
    if (!draft || !saved || get().save === 'saving') return;
    const patch = buildPatch(draft, saved);
    if (isEmptyPatch(patch)) {
      set({ save: 'saved', errors: NO_ERRORS });
      return;
    }
    set({ save: 'saving' });
    const r = await call((api) => api.settingsSet({ patch }));
    if (!r.ok) {
      set({ save: 'failed', errors: mapFieldErrors(r.fields ?? [{ path: '', message: r.error }]) });
      return;
    }
    if (!r.value.ok) {
      set({ save: 'failed', errors: mapFieldErrors(r.value.errors) });
      return;
    }
    const view = r.value.settings;
    // Fields edited while saving keep their new text; everything else shows what main stored.
    const now = get().draft ?? draft;
    const fresh = toDraft(view);
    const merged = { ...fresh };
    for (const k of Object.keys(fresh) as FieldKey[]) {
      if (k !== 'llm.api_key' && now[k] !== draft[k]) (merged as Record<FieldKey, unknown>)[k] = now[k];
    }
    set({ saved: view, draft: merged, save: 'saved', errors: NO_ERRORS });
  },

  revert() {
    const { saved } = get();
    if (saved) set({ draft: toDraft(saved), errors: NO_ERRORS, save: 'idle' });
  },

  async removeKey() {
    if (get().removingKey) return;
    set({ removingKey: true, keyNote: null });
    const r = await call((api) => api.settingsSet({ patch: { llm: { api_key: '' } } }));
    if (r.ok && r.value.ok) {
      const view = r.value.settings;
      const draft = get().draft;
      set({ saved: view, draft: draft ? { ...draft, 'llm.api_key': '' } : toDraft(view), removingKey: false, keyNote: { ok: true, message: 'The key was removed.' } });
      useAnnouncer.getState().say('The API key was removed.');
    } else {
      const message = !r.ok ? r.error : r.value.ok ? '' : r.value.errors.map((e) => e.message).join('; ');
      set({ removingKey: false, keyNote: { ok: false, message: `The key was not removed: ${message}` } });
      useAnnouncer.getState().say(`The key was not removed: ${message}`);
    }
  },
}));

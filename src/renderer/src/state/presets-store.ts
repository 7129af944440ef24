import { create } from 'zustand';
import type { Preset } from '../../../protocol/preset';
import type { IpcResult } from '../../../protocol/ipc';
import { call } from '../lib/api';

interface PresetsState {
  presets: Preset[];
  loaded: boolean;
  error: string | null;
  refresh(): Promise<void>;
  save(name: string): Promise<IpcResult<Preset>>;
  remove(name: string): Promise<IpcResult<{ deleted: boolean }>>;
}

let seq = 0;

export const usePresetsStore = create<PresetsState>((set, get) => ({
  presets: [],
  loaded: false,
  error: null,
  async refresh() {
    const mine = ++seq;
    const r = await call((api) => api.presetsList({}));
    if (mine !== seq) return;
    set(r.ok ? { presets: r.value, loaded: true, error: null } : { loaded: true, error: r.error });
  },
  async save(name) {
    const r = await call((api) => api.presetsSave({ name }));
    if (r.ok) await get().refresh();
    return r;
  },
  async remove(name) {
    const r = await call((api) => api.presetsDelete({ name }));
    if (r.ok) await get().refresh();
    return r;
  },
}));

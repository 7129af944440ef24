import { create } from 'zustand';
import type { DeviceChoice } from '../../../protocol/ipc';
import { call } from '../lib/api';

// The user's devices for the launcher's picker, fetched each time the launcher shows, and the
// one picked (null: this computer). A failed fetch keeps the picker away and says why.

interface DeviceState {
  devices: DeviceChoice[];
  problem: string | null;
  selected: string | null;
  refresh(): Promise<void>;
  select(id: string | null): void;
}

export const useDeviceStore = create<DeviceState>((set) => ({
  devices: [],
  problem: null,
  selected: null,
  async refresh() {
    const r = await call((api) => api.devicesList({}));
    if (!r.ok) return set({ devices: [], problem: r.error });
    set({ devices: r.value.devices, problem: r.value.problem });
  },
  select(id) {
    set({ selected: id });
  },
}));

import { create } from 'zustand';
import type { AppStatus } from '../../../protocol/ipc';
import { call } from '../lib/api';

// The app's health for the status line: planner, Chrome, window backend, hotkeys, voice.
// Also owns "Launch Chrome", which both the status line and failed results offer.

interface StatusState {
  status: AppStatus | null;
  error: string | null;
  launching: boolean;
  /** What main said after launching Chrome (or why it could not). */
  launchNote: { ok: boolean; message: string } | null;
  refresh(): Promise<void>;
  launchChrome(): Promise<void>;
}

let seq = 0;

export const useStatusStore = create<StatusState>((set, get) => ({
  status: null,
  error: null,
  launching: false,
  launchNote: null,
  async refresh() {
    const mine = ++seq;
    const r = await call((api) => api.appStatus({}));
    if (mine !== seq) return;
    set(r.ok ? { status: r.value, error: null } : { error: r.error });
  },
  async launchChrome() {
    if (get().launching) return;
    set({ launching: true, launchNote: null });
    const r = await call((api) => api.chromeLaunch({}));
    set({ launching: false, launchNote: r.ok ? { ok: true, message: r.value.message } : { ok: false, message: r.error } });
    await get().refresh();
  },
}));

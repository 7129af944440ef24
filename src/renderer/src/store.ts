import { create } from 'zustand';
import type { ContextSnapshot } from '../../protocol/context';
import type { ExecReport } from '../../protocol/report';

interface State {
  snapshot: ContextSnapshot | null;
  report: ExecReport | null;
  error: string | null;
  busy: boolean;
  refresh(): Promise<void>;
  exec(json: string): Promise<void>;
}

export const useStore = create<State>((set, get) => ({
  snapshot: null,
  report: null,
  error: null,
  busy: false,
  async refresh() {
    const r = await window.api.contextGet({ summaries: false });
    set(r.ok ? { snapshot: r.value, error: null } : { error: r.error });
  },
  async exec(json) {
    let input: unknown;
    try {
      input = JSON.parse(json);
    } catch (e) {
      set({ error: `Not valid JSON: ${(e as Error).message}` });
      return;
    }
    set({ busy: true, error: null });
    const r = await window.api.execRun({ input, dryRun: false });
    set(r.ok ? { report: r.value, busy: false } : { error: r.error, busy: false });
    await get().refresh();
  },
}));

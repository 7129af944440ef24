import { create } from 'zustand';
import type { ClarificationCandidate, CommandResponse, DeviceBadge, IpcResult } from '../../../protocol/ipc';
import type { ExecReport, PlannedCommand } from '../../../protocol/report';
import { call } from '../lib/api';
import { submitDevice } from '../lib/devices';
import { announcement, responseOutcome } from '../lib/outcome';
import { useAnnouncer } from './announcer-store';
import { useDeviceStore } from './device-store';
import type { CommandSource } from './command-source';
import { useHistoryStore } from './history-store';
import { useInputStore } from './input-store';
import { useStatusStore } from './status-store';

// One request at a time, from words (or a preset) to its end: working → a question, a
// confirmation, a report or an error. Answers arrive whenever the bridge delivers them;
// one that belongs to a request the person has moved on from is dropped.

interface Run {
  runId: number;
  source: CommandSource;
}

export type Phase =
  | { kind: 'idle' }
  | (Run & { kind: 'working'; label: string; cancellable: boolean; cancelling: boolean; note: string | null })
  | (Run & { kind: 'clarification'; id: string; question: string; candidates: ClarificationCandidate[] })
  | (Run & { kind: 'confirm'; id: string; items: PlannedCommand[]; plan: PlannedCommand[]; device?: DeviceBadge })
  | (Run & { kind: 'done'; report: ExecReport; planner: 'local' | 'llm' | null; device?: DeviceBadge })
  | (Run & { kind: 'error'; message: string; code?: string })
  | (Run & { kind: 'cancelled' });

interface CommandState {
  phase: Phase;
  run(source: CommandSource): Promise<void>;
  choose(candidate: number): Promise<void>;
  answerConfirm(accept: boolean): Promise<void>;
  /** Stops planning (Esc or the Cancel button). */
  cancel(): Promise<void>;
  /** Back to an empty result area (first Esc). */
  reset(): void;
}

/** The words in the field that a request used up (a preset's button used none). */
const typedBy = (source: CommandSource): string | null =>
  source.kind === 'text' ? source.text : source.kind === 'item' ? source.typed.trim() : null;

let runSeq = 0;
let ticketSeq = 0;

export const useCommandStore = create<CommandState>((set, get) => {
  function working(run: Run, label: string, cancellable: boolean): number {
    set({ phase: { ...run, kind: 'working', label, cancellable, cancelling: false, note: null } });
    return ++ticketSeq;
  }

  function settle(ticket: number, run: Run, result: IpcResult<CommandResponse>): void {
    if (ticket !== ticketSeq) return;
    const say = useAnnouncer.getState().say;
    if (!result.ok) {
      set({ phase: { ...run, kind: 'error', message: result.error, code: result.code } });
      useHistoryStore.getState().record(run.runId, run.source, { mark: 'fail', message: result.error });
      say(`Error: ${result.error}`);
      useInputStore.getState().requestFocus();
      void useStatusStore.getState().refresh();
      return;
    }
    const response = result.value;
    useHistoryStore.getState().record(run.runId, run.source, responseOutcome(response));
    say(announcement(response));
    switch (response.kind) {
      case 'clarification':
        set({ phase: { ...run, kind: 'clarification', id: response.id, question: response.question, candidates: response.candidates } });
        useInputStore.getState().requestFocus();
        return;
      case 'confirm':
        set({ phase: { ...run, kind: 'confirm', id: response.id, items: response.items, plan: response.plan, ...(response.device ? { device: response.device } : {}) } });
        return;
      case 'error':
        set({ phase: response.code === 'cancelled' ? { ...run, kind: 'cancelled' } : { ...run, kind: 'error', message: response.message, code: response.code } });
        break;
      case 'done':
        set({
          phase:
            response.report.status === 'cancelled'
              ? { ...run, kind: 'cancelled' }
              : { ...run, kind: 'done', report: response.report, planner: response.planner, ...(response.device ? { device: response.device } : {}) },
        });
        // A command that went through leaves an empty field for the next one (↑ brings it back).
        if (response.report.status === 'done' && useInputStore.getState().text.trim() === typedBy(run.source)) {
          useInputStore.getState().setText('');
        }
        break;
    }
    useInputStore.getState().requestFocus();
    void useStatusStore.getState().refresh();
  }

  return {
    phase: { kind: 'idle' },

    async run(source) {
      const run: Run = { runId: ++runSeq, source };
      useStatusStore.setState({ launchNote: null });
      if (source.kind === 'text') {
        const ticket = working(run, 'Understanding…', true);
        // The words go to the computer picked in the launcher (another device: planned for its desk, run there).
        const { devices, selected } = useDeviceStore.getState();
        const device = submitDevice(devices, selected);
        settle(ticket, run, await call((api) => api.commandSubmit({ text: source.text, ...(device ? { device } : {}) })));
      } else if (source.kind === 'item') {
        const ticket = working(run, `${source.label}…`, false);
        settle(ticket, run, await call((api) => api.launcherAct(source.request)));
      } else {
        const ticket = working(run, `Applying “${source.name}”…`, false);
        settle(ticket, run, await call((api) => api.presetsApply({ name: source.name })));
      }
    },

    async choose(candidate) {
      const p = get().phase;
      if (p.kind !== 'clarification') return;
      const run: Run = { runId: p.runId, source: p.source };
      const ticket = working(run, 'Working…', false);
      settle(ticket, run, await call((api) => api.commandChoose({ id: p.id, candidate })));
    },

    async answerConfirm(accept) {
      const p = get().phase;
      if (p.kind !== 'confirm') return;
      const run: Run = { runId: p.runId, source: p.source };
      const ticket = working(run, accept ? 'Closing…' : 'Cancelling…', false);
      settle(ticket, run, await call((api) => api.commandConfirm({ id: p.id, accept })));
    },

    async cancel() {
      const p = get().phase;
      if (p.kind !== 'working' || p.cancelling) return;
      if (!p.cancellable) {
        set({ phase: { ...p, note: 'This is already running and can’t be stopped now.' } });
        return;
      }
      set({ phase: { ...p, cancelling: true, label: 'Cancelling…' } });
      const r = await call((api) => api.commandCancel({}));
      const now = get().phase;
      if (now.kind !== 'working' || now.runId !== p.runId) return;
      if (!r.ok || !r.value.cancelled) {
        set({ phase: { ...now, cancelling: false, label: p.label, note: r.ok ? 'Too late to cancel: it is already running.' : r.error } });
      }
    },

    reset() {
      const p = get().phase;
      if (p.kind === 'working' || p.kind === 'confirm') return;
      set({ phase: { kind: 'idle' } });
    },
  };
});

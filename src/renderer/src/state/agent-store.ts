import { create } from 'zustand';
import type { AgentRunView, IpcResult, RendererApi } from '../../../protocol/ipc';
import { isEnded } from '../lib/agent-text';
import { call } from '../lib/api';
import { useAnnouncer } from './announcer-store';
import { useInputStore } from './input-store';

// Agent mode in this window: the Agent toggle, and the run main tells about. Main owns the run
// (one at a time, for every window); it pushes the whole state on each change ('agent:update'),
// and agent:status is asked every few seconds as a fallback while the run is live. A view older
// than one already shown (a lower version) is dropped.

const POLL_MS = 2_000;

interface AgentState {
  /** The Agent toggle: Enter plans a web task instead of running a command. */
  mode: boolean;
  /** Start on the tab the person is looking at (the planner reads it) instead of fresh background tabs. */
  onTab: boolean;
  /** The run this window shows; null when none. */
  view: AgentRunView | null;
  /** The goal between Enter and main's first word about the run. */
  starting: string | null;
  /** Why a task could not start (when main has no run to show for it). */
  error: { goal: string; message: string; code?: string } | null;
  /** A request about the run is on its way (its buttons wait). */
  busy: boolean;
  /** What the last button led to when it was not what it said (e.g. the plan had expired). */
  note: string | null;
  setMode(on: boolean): void;
  setOnTab(on: boolean): void;
  start(goal: string, typed: string): Promise<void>;
  /** Runs the plan; `steps` when the person edited them. */
  approve(steps?: string[]): Promise<void>;
  cancelPlan(): Promise<void>;
  stop(): Promise<void>;
  /** Sends a correction; false when the run no longer takes one. */
  correct(text: string): Promise<boolean>;
  answerConfirm(accept: boolean): Promise<void>;
  /** A view from main (push or status answer). */
  receive(view: AgentRunView): void;
  /** Clears an ended run (or a start error) away; a live run stays. */
  dismiss(): void;
}

const dismissed = new Set<string>();
let poll: ReturnType<typeof setInterval> | null = null;

export const useAgentStore = create<AgentState>((set, get) => {
  const say = (text: string) => useAnnouncer.getState().say(text);

  function watch(): void {
    const v = get().view;
    const live = v !== null && !isEnded(v.status);
    if (live && !poll) {
      poll = setInterval(() => {
        const now = get().view;
        if (!now || isEnded(now.status)) return watch();
        void call((api) => api.agentStatus({ runId: now.runId })).then((r) => {
          if (r.ok) get().receive(r.value);
        });
      }, POLL_MS);
    } else if (!live && poll) {
      clearInterval(poll);
      poll = null;
    }
  }

  function announce(before: AgentRunView | null, v: AgentRunView): void {
    if (before?.runId === v.runId && before.status === v.status) return;
    switch (v.status) {
      case 'awaiting_approval': {
        const n = v.steps.filter((s) => s.kind === 'plan').length;
        say(`Plan ready, ${n} step${n === 1 ? '' : 's'}: ${v.message ?? ''} Approve to run it.`);
        return;
      }
      case 'running':
        say('Running the plan.');
        return;
      case 'done':
        say(`Agent done. ${v.answer ?? ''}`);
        return;
      default:
        if (isEnded(v.status)) say(`Agent ${v.status}. ${v.reason ?? ''}`);
    }
  }

  async function request<T>(fn: (api: RendererApi) => Promise<IpcResult<T>>): Promise<T | null> {
    set({ busy: true, note: null });
    const r = await call(fn);
    set({ busy: false });
    if (!r.ok) {
      set({ note: r.error });
      say(r.error);
      return null;
    }
    return r.value;
  }

  return {
    mode: false,
    onTab: false,
    view: null,
    starting: null,
    error: null,
    busy: false,
    note: null,

    setMode(on) {
      set({ mode: on });
    },

    setOnTab(on) {
      set({ onTab: on });
    },

    async start(goal, typed) {
      const before = get().view;
      if (before && (before.status === 'running' || before.status === 'stopping')) {
        const note = 'An agent task is running. Stop it before starting another.';
        set({ note });
        say(note);
        return;
      }
      // A plan not approved yet is replaced: nothing of it ran.
      if (before && !isEnded(before.status)) dismissed.add(before.runId);
      set({ starting: goal, error: null, note: null, view: null });
      say('Planning the steps…');
      const currentTab = get().onTab;
      const r = await call((api) => api.agentStart(currentTab ? { goal, currentTab } : { goal }));
      if (get().starting === goal) set({ starting: null });
      if (!r.ok || 'error' in r.value) {
        const message = r.ok ? (r.value as { error: string }).error : r.error;
        set({ error: { goal, message, ...(r.ok ? {} : { code: r.code }) } });
        if (!get().view) say(`The agent could not start: ${message}`);
        watch();
        return;
      }
      const { runId } = r.value;
      // The field held the task; it is in the panel now (↑ brings it back).
      if (useInputStore.getState().text.trim() === typed.trim()) useInputStore.getState().setText('');
      const v = get().view;
      if (!v || v.runId !== runId) {
        const s = await call((api) => api.agentStatus({ runId }));
        if (s.ok) get().receive(s.value);
      }
    },

    async approve(steps) {
      const v = get().view;
      if (!v || v.status !== 'awaiting_approval') return;
      const r = await request((api) => api.agentApprove({ runId: v.runId, approve: true, ...(steps ? { steps } : {}) }));
      if (r && !r.started) set({ note: r.reason ?? 'The plan did not start.' });
    },

    async cancelPlan() {
      const v = get().view;
      if (!v || v.status !== 'awaiting_approval') return;
      await request((api) => api.agentApprove({ runId: v.runId, approve: false }));
    },

    async stop() {
      const v = get().view;
      if (!v || isEnded(v.status)) return;
      await request((api) => api.agentStop({ runId: v.runId }));
    },

    async correct(text) {
      const v = get().view;
      if (!v || v.status !== 'running') return false;
      const r = await request((api) => api.agentCorrect({ runId: v.runId, text }));
      if (r && !r.accepted) set({ note: 'The agent is no longer taking corrections.' });
      return r?.accepted ?? false;
    },

    async answerConfirm(accept) {
      const v = get().view;
      if (!v?.confirm) return;
      // The dialog closes at once; main's next push says what came of it.
      const { confirm: _answered, ...rest } = v;
      set({ view: rest });
      await request((api) => api.agentConfirm({ runId: v.runId, accept }));
    },

    receive(view) {
      if (dismissed.has(view.runId)) return;
      const before = get().view;
      if (before && before.runId === view.runId && view.version <= before.version) return;
      set({ view, error: null, ...(get().starting === view.goal ? { starting: null } : {}) });
      announce(before, view);
      watch();
    },

    dismiss() {
      const v = get().view;
      if (v && !isEnded(v.status)) return;
      if (v) dismissed.add(v.runId);
      set({ view: null, error: null, note: null });
      watch();
    },
  };
});

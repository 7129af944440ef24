import { create } from 'zustand';
import type { Outcome } from '../lib/outcome';
import type { CommandSource } from './command-source';

// What was asked in this session and how it ended, newest first, the last 20.

export const HISTORY_MAX = 20;

export interface HistoryEntry {
  runId: number;
  source: CommandSource;
  outcome: Outcome;
  at: number;
}

interface HistoryState {
  entries: HistoryEntry[];
  /** Adds the run, or updates it when it already has an entry (after a choice or a confirmation). */
  record(runId: number, source: CommandSource, outcome: Outcome): void;
}

export const useHistoryStore = create<HistoryState>((set) => ({
  entries: [],
  record(runId, source, outcome) {
    set((s) => {
      const rest = s.entries.filter((e) => e.runId !== runId);
      return { entries: [{ runId, source, outcome, at: Date.now() }, ...rest].slice(0, HISTORY_MAX) };
    });
  },
}));

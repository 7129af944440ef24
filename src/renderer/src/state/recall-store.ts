import { create } from 'zustand';
import { loadRecall, saveRecall, withRecalled } from '../lib/recall-storage';

// Previously typed commands for ↑/↓, newest last, the last 50 kept in localStorage.

interface RecallState {
  items: string[];
  remember(text: string): void;
}

export const useRecallStore = create<RecallState>((set, get) => ({
  items: loadRecall(),
  remember(text) {
    const items = withRecalled(get().items, text);
    saveRecall(items);
    set({ items });
  },
}));

import { create } from 'zustand';

// The command field's text lives here so voice, history and examples can fill it, and
// `focusSeq` lets anyone ask the field to take focus (on show, after a dialog closes).

interface InputState {
  text: string;
  focusSeq: number;
  setText(text: string): void;
  requestFocus(): void;
}

export const useInputStore = create<InputState>((set) => ({
  text: '',
  focusSeq: 0,
  setText: (text) => set({ text }),
  requestFocus: () => set((s) => ({ focusSeq: s.focusSeq + 1 })),
}));

import { create } from 'zustand';

// Text for the polite live region. Cleared first so the same words are announced again.

interface AnnouncerState {
  message: string;
  say(text: string): void;
}

let timer: ReturnType<typeof setTimeout> | undefined;

export const useAnnouncer = create<AnnouncerState>((set) => ({
  message: '',
  say(text) {
    clearTimeout(timer);
    set({ message: '' });
    timer = setTimeout(() => set({ message: text }), 60);
  },
}));

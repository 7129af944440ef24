// "CommandOrControl+Shift+Space" as people read it: "Ctrl+Shift+Space", or "⌘⇧Space" on a Mac.

import { isMac } from './platform';

const MAC: Record<string, string> = { commandorcontrol: '⌘', cmdorctrl: '⌘', command: '⌘', cmd: '⌘', control: '⌃', ctrl: '⌃', alt: '⌥', option: '⌥', shift: '⇧', super: '⌘', meta: '⌘' };
const OTHER: Record<string, string> = { commandorcontrol: 'Ctrl', cmdorctrl: 'Ctrl', command: 'Super', cmd: 'Super', control: 'Ctrl', ctrl: 'Ctrl', alt: 'Alt', option: 'Alt', shift: 'Shift', super: 'Super', meta: 'Super' };

export function acceleratorLabel(accel: string): string {
  const parts = accel.split('+').filter(Boolean);
  const names = isMac ? MAC : OTHER;
  const shown = parts.map((p) => names[p.toLowerCase()] ?? p);
  return isMac ? shown.join('') : shown.join('+');
}

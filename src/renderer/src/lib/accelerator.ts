// Turns a key press into an Electron accelerator ("CommandOrControl+Shift+Space").

const isMac = /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);

const NAMED: Record<string, string> = {
  Space: 'Space',
  Enter: 'Enter',
  Tab: 'Tab',
  Backspace: 'Backspace',
  Delete: 'Delete',
  Insert: 'Insert',
  Home: 'Home',
  End: 'End',
  PageUp: 'PageUp',
  PageDown: 'PageDown',
  ArrowUp: 'Up',
  ArrowDown: 'Down',
  ArrowLeft: 'Left',
  ArrowRight: 'Right',
  Minus: '-',
  Equal: '=',
  BracketLeft: '[',
  BracketRight: ']',
  Backslash: '\\',
  Semicolon: ';',
  Quote: "'",
  Comma: ',',
  Period: '.',
  Slash: '/',
  Backquote: '`',
};

function keyName(code: string): string | null {
  if (/^Key[A-Z]$/.test(code)) return code.slice(3);
  if (/^Digit\d$/.test(code)) return code.slice(5);
  if (/^F([1-9]|1\d|2[0-4])$/.test(code)) return code;
  if (/^Numpad\d$/.test(code)) return `num${code.slice(6)}`;
  return NAMED[code] ?? null;
}

export interface KeyChord {
  code: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
}

/** The accelerator for a chord, or null for a lone modifier or a key Electron cannot bind. */
export function acceleratorFor(e: KeyChord): string | null {
  const key = keyName(e.code);
  if (!key) return null;
  const mods: string[] = [];
  // The platform's main modifier is written the portable way.
  if (isMac ? e.metaKey : e.ctrlKey) mods.push('CommandOrControl');
  if (isMac && e.ctrlKey) mods.push('Control');
  if (!isMac && e.metaKey) mods.push('Super');
  if (e.altKey) mods.push(isMac ? 'Option' : 'Alt');
  if (e.shiftKey) mods.push('Shift');
  const isFKey = /^F\d+$/.test(key);
  if (mods.length === 0 && !isFKey) return null;
  return [...mods, key].join('+');
}

// Key names and combinations ("Enter", "Control+A", "Shift+Tab", "ArrowDown") as the
// Input.dispatchKeyEvent parameters Chrome needs: key, code, windowsVirtualKeyCode, text, modifiers.

export interface KeyDef {
  key: string;
  code: string;
  keyCode: number;
  /** What the key types when pressed without Control/Alt/Meta (absent for non-printing keys). */
  text?: string;
  /** The key with Shift held, for letters and the US layout's punctuation. */
  shiftKey?: string;
  location?: number;
}

export const MODIFIER_BITS = { Alt: 1, Control: 2, Meta: 4, Shift: 8 } as const;
export type ModifierName = keyof typeof MODIFIER_BITS;

const MODIFIER_KEYS: Record<ModifierName, KeyDef> = {
  Alt: { key: 'Alt', code: 'AltLeft', keyCode: 18, location: 1 },
  Control: { key: 'Control', code: 'ControlLeft', keyCode: 17, location: 1 },
  Meta: { key: 'Meta', code: 'MetaLeft', keyCode: 91, location: 1 },
  Shift: { key: 'Shift', code: 'ShiftLeft', keyCode: 16, location: 1 },
};

const MODIFIER_ALIASES: Record<string, ModifierName> = {
  alt: 'Alt',
  option: 'Alt',
  control: 'Control',
  ctrl: 'Control',
  ctl: 'Control',
  meta: 'Meta',
  cmd: 'Meta',
  command: 'Meta',
  super: 'Meta',
  win: 'Meta',
  shift: 'Shift',
};

const NAMED: Record<string, KeyDef> = {
  Enter: { key: 'Enter', code: 'Enter', keyCode: 13, text: '\r' },
  Tab: { key: 'Tab', code: 'Tab', keyCode: 9 },
  Escape: { key: 'Escape', code: 'Escape', keyCode: 27 },
  Backspace: { key: 'Backspace', code: 'Backspace', keyCode: 8 },
  Delete: { key: 'Delete', code: 'Delete', keyCode: 46 },
  Insert: { key: 'Insert', code: 'Insert', keyCode: 45 },
  Space: { key: ' ', code: 'Space', keyCode: 32, text: ' ' },
  ArrowUp: { key: 'ArrowUp', code: 'ArrowUp', keyCode: 38 },
  ArrowDown: { key: 'ArrowDown', code: 'ArrowDown', keyCode: 40 },
  ArrowLeft: { key: 'ArrowLeft', code: 'ArrowLeft', keyCode: 37 },
  ArrowRight: { key: 'ArrowRight', code: 'ArrowRight', keyCode: 39 },
  Home: { key: 'Home', code: 'Home', keyCode: 36 },
  End: { key: 'End', code: 'End', keyCode: 35 },
  PageUp: { key: 'PageUp', code: 'PageUp', keyCode: 33 },
  PageDown: { key: 'PageDown', code: 'PageDown', keyCode: 34 },
  ContextMenu: { key: 'ContextMenu', code: 'ContextMenu', keyCode: 93 },
  ...Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`F${i + 1}`, { key: `F${i + 1}`, code: `F${i + 1}`, keyCode: 112 + i }])),
};

const NAMED_ALIASES: Record<string, string> = {
  return: 'Enter',
  enter: 'Enter',
  tab: 'Tab',
  esc: 'Escape',
  escape: 'Escape',
  backspace: 'Backspace',
  delete: 'Delete',
  del: 'Delete',
  insert: 'Insert',
  ins: 'Insert',
  space: 'Space',
  spacebar: 'Space',
  up: 'ArrowUp',
  down: 'ArrowDown',
  left: 'ArrowLeft',
  right: 'ArrowRight',
  arrowup: 'ArrowUp',
  arrowdown: 'ArrowDown',
  arrowleft: 'ArrowLeft',
  arrowright: 'ArrowRight',
  home: 'Home',
  end: 'End',
  pageup: 'PageUp',
  pagedown: 'PageDown',
  pgup: 'PageUp',
  pgdn: 'PageDown',
  contextmenu: 'ContextMenu',
  menu: 'ContextMenu',
};

// US layout punctuation: [unshifted, shifted, code, keyCode].
const PUNCTUATION: Array<[string, string, string, number]> = [
  ['-', '_', 'Minus', 189],
  ['=', '+', 'Equal', 187],
  ['[', '{', 'BracketLeft', 219],
  [']', '}', 'BracketRight', 221],
  ['\\', '|', 'Backslash', 220],
  [';', ':', 'Semicolon', 186],
  ["'", '"', 'Quote', 222],
  [',', '<', 'Comma', 188],
  ['.', '>', 'Period', 190],
  ['/', '?', 'Slash', 191],
  ['`', '~', 'Backquote', 192],
];
const DIGIT_SHIFTED = ')!@#$%^&*(';

/** A single printable character as a key (letters by their key code, shifted symbols by their base key). */
function charKey(ch: string): { def: KeyDef; needsShift: boolean } | null {
  if (/^[a-z]$/i.test(ch)) {
    const upper = ch.toUpperCase();
    const lower = ch.toLowerCase();
    return {
      def: { key: lower, code: `Key${upper}`, keyCode: upper.charCodeAt(0), text: lower, shiftKey: upper },
      needsShift: ch === upper,
    };
  }
  if (/^[0-9]$/.test(ch)) {
    return { def: { key: ch, code: `Digit${ch}`, keyCode: ch.charCodeAt(0), text: ch, shiftKey: DIGIT_SHIFTED[Number(ch)] }, needsShift: false };
  }
  const shiftedDigit = DIGIT_SHIFTED.indexOf(ch);
  if (shiftedDigit >= 0) {
    const d = String(shiftedDigit);
    return { def: { key: d, code: `Digit${d}`, keyCode: d.charCodeAt(0), text: d, shiftKey: ch }, needsShift: true };
  }
  for (const [plain, shifted, code, keyCode] of PUNCTUATION) {
    if (ch === plain || ch === shifted) return { def: { key: plain, code, keyCode, text: plain, shiftKey: shifted }, needsShift: ch === shifted };
  }
  if (ch === ' ') return { def: NAMED.Space!, needsShift: false };
  return null;
}

export interface KeyCombo {
  modifiers: ModifierName[];
  /** Bitmask for Input.dispatchKeyEvent's `modifiers`. */
  bits: number;
  /** The main key; null when the combination is modifiers only ("Shift"). */
  main: KeyDef | null;
  /** What the main key produces with these modifiers (key name and typed text, if any). */
  key: string;
  text: string | undefined;
}

export class KeyParseError extends Error {}

/**
 * Parses "Control+Shift+A", "ctrl+a", "Enter", "ArrowDown", "Shift+Tab", "a", "+" or "Control++".
 * Throws KeyParseError with a message meant for the model when a part is unknown.
 */
export function parseKeyCombo(input: string): KeyCombo {
  const raw = input.trim();
  if (!raw) throw new KeyParseError('Empty key.');
  // Split on '+' but keep a literal '+' key ("Control++", "+").
  const parts: string[] = [];
  let cur = '';
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i]!;
    if (ch === '+' && cur !== '') {
      parts.push(cur);
      cur = '';
    } else cur += ch;
  }
  if (cur !== '') parts.push(cur);
  const modifiers: ModifierName[] = [];
  let main: KeyDef | null = null;
  let needsShift = false;
  const addModifier = (m: ModifierName) => {
    if (!modifiers.includes(m)) modifiers.push(m);
  };
  parts.forEach((part, i) => {
    const p = part.trim() || part;
    const mod = MODIFIER_ALIASES[p.toLowerCase()];
    const last = i === parts.length - 1;
    if (!last) {
      if (!mod) throw new KeyParseError(`"${p}" is not a modifier (use Control, Alt, Shift or Meta before the key).`);
      addModifier(mod);
      return;
    }
    if (mod) {
      // "Shift" or "Control+Shift": modifiers only; the last one is the key pressed.
      addModifier(mod);
      return;
    }
    const named = NAMED[p] ?? NAMED[NAMED_ALIASES[p.toLowerCase()] ?? ''];
    if (named) {
      main = named;
      return;
    }
    if ([...p].length === 1) {
      const ck = charKey(p);
      if (ck) {
        main = ck.def;
        needsShift = ck.needsShift;
        return;
      }
      // Any other single character (é, ü, …) is typed as text without a key code.
      main = { key: p, code: '', keyCode: 0, text: p };
      return;
    }
    throw new KeyParseError(`Unknown key "${p}". Use names like Enter, Escape, Tab, Backspace, ArrowDown, PageDown, Home, F5, or a single character.`);
  });
  // "Control+A" means the A key (case does not matter with a command modifier); a lone "A" or "Shift+a" types "A".
  const commandHeld = modifiers.some((m) => m === 'Control' || m === 'Alt' || m === 'Meta');
  if (needsShift && !commandHeld && !modifiers.includes('Shift')) modifiers.push('Shift');
  const bits = modifiers.reduce((b, m) => b | MODIFIER_BITS[m], 0);
  const m = main as KeyDef | null;
  let key = m ? m.key : modifiers[modifiers.length - 1] ?? '';
  let text: string | undefined;
  if (m) {
    const shifted = modifiers.includes('Shift');
    if (shifted && m.shiftKey) key = m.shiftKey;
    // Control/Alt/Meta combinations type nothing; Shift turns the text into the shifted character.
    const typing = !modifiers.some((x) => x === 'Control' || x === 'Alt' || x === 'Meta');
    if (typing && m.text !== undefined) text = shifted && m.shiftKey ? m.shiftKey : m.text;
  }
  return { modifiers, bits, main: m, key, text };
}

/** The Input.dispatchKeyEvent calls for pressing `combo` once, in order. */
export function keyEvents(combo: KeyCombo): Array<Record<string, unknown>> {
  const events: Array<Record<string, unknown>> = [];
  // Modifiers only: the last one is the key pressed, the others are held around it.
  const held = combo.main ? combo.modifiers : combo.modifiers.slice(0, -1);
  const main = combo.main ?? (combo.modifiers.length > 0 ? MODIFIER_KEYS[combo.modifiers[combo.modifiers.length - 1]!] : null);
  let bits = 0;
  const modEvent = (type: string, k: KeyDef) => ({
    type,
    key: k.key,
    code: k.code,
    windowsVirtualKeyCode: k.keyCode,
    nativeVirtualKeyCode: k.keyCode,
    modifiers: bits,
    location: k.location,
  });
  for (const name of held) {
    bits |= MODIFIER_BITS[name];
    events.push(modEvent('rawKeyDown', MODIFIER_KEYS[name]));
  }
  if (main) {
    const base = {
      key: combo.main ? combo.key : main.key,
      code: main.code,
      windowsVirtualKeyCode: main.keyCode,
      nativeVirtualKeyCode: main.keyCode,
      modifiers: combo.bits,
      ...(main.location ? { location: main.location } : {}),
    };
    if (combo.text !== undefined) events.push({ type: 'keyDown', ...base, text: combo.text, unmodifiedText: combo.text });
    else events.push({ type: 'rawKeyDown', ...base });
    events.push({ type: 'keyUp', ...base });
  }
  for (const name of [...held].reverse()) {
    bits &= ~MODIFIER_BITS[name];
    events.push(modEvent('keyUp', MODIFIER_KEYS[name]));
  }
  return events;
}

// Electron accelerators ("CommandOrControl+Shift+Space"), checked before they are saved:
// globalShortcut fails silently on nonsense, so a typo would only show up as a dead hotkey.

const MODIFIERS = new Set(['command', 'cmd', 'control', 'ctrl', 'commandorcontrol', 'cmdorctrl', 'alt', 'option', 'altgr', 'shift', 'super', 'meta']);

const NAMED_KEYS = new Set([
  'plus', 'space', 'tab', 'capslock', 'numlock', 'scrolllock', 'backspace', 'delete', 'insert', 'return', 'enter',
  'up', 'down', 'left', 'right', 'home', 'end', 'pageup', 'pagedown', 'escape', 'esc', 'printscreen',
  'volumeup', 'volumedown', 'volumemute', 'medianexttrack', 'mediaprevioustrack', 'mediastop', 'mediaplaypause',
  'numdec', 'numadd', 'numsub', 'nummult', 'numdiv',
]);

function isKey(k: string): boolean {
  const key = k.toLowerCase();
  return (
    /^[a-z0-9]$/.test(key) ||
    /^f([1-9]|1[0-9]|2[0-4])$/.test(key) ||
    /^num[0-9]$/.test(key) ||
    NAMED_KEYS.has(key) ||
    /^[)!@#$%^&*(:;<=>?_~{}|`'",./\\[\]-]$/.test(k)
  );
}

/** null when usable as a global hotkey, else why not. */
export function acceleratorProblem(accelerator: string): string | null {
  const parts = accelerator.split('+').map((p) => p.trim());
  if (parts.some((p) => p === '')) return 'has an empty part (use "Plus" for the + key)';
  const mods = parts.filter((p) => MODIFIERS.has(p.toLowerCase()));
  const keys = parts.filter((p) => !MODIFIERS.has(p.toLowerCase()));
  if (keys.length !== 1) return keys.length === 0 ? 'needs a key, e.g. Control+Alt+Space' : `has more than one key (${keys.join(', ')})`;
  if (!isKey(keys[0]!)) return `"${keys[0]}" is not a key Electron knows`;
  if (mods.length === 0) return 'needs at least one modifier (Control, Alt, Shift, Command…) so it does not swallow normal typing';
  if (new Set(mods.map((m) => m.toLowerCase())).size !== mods.length) return 'repeats a modifier';
  return null;
}

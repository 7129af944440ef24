/** macOS shows ⌘ where other systems show Ctrl. */
export const isMac = /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);

/** The modifier of the list's number shortcuts, as the keyboard says it. */
export const MOD_KEY = isMac ? '⌘' : 'Ctrl+';

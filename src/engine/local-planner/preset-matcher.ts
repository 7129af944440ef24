import { fuzzyPick } from './fuzzy';
import { squash, wordsOf } from './text';

// Which saved preset a phrase names. "writing mode", "meeting setup" and "the code space
// layout" name the presets "writing", "meeting" and "code space": words that only say
// "a layout" are dropped from both sides before comparing.

const LAYOUT_WORDS = new Set(['mode', 'layout', 'preset', 'setup', 'workspace', 'arrangement', 'profile', 'config', 'configuration', 'view', 'the', 'my']);

const core = (s: string) => squash(wordsOf(s).filter((w) => !LAYOUT_WORDS.has(w)).join(' '));

export type PresetMatch = { kind: 'one'; name: string } | { kind: 'many'; names: string[] } | { kind: 'none' };

/** `fuzzy`: also accept a slip; only when the user said it is a layout ("writting mode"). */
export function matchPreset(phrase: string, presets: readonly string[], fuzzy = false): PresetMatch {
  const q = squash(phrase);
  if (!q) return { kind: 'none' };
  const exact = presets.filter((p) => squash(p) === q);
  if (exact.length === 1) return { kind: 'one', name: exact[0]! };
  if (exact.length > 1) return { kind: 'many', names: exact };
  const c = core(phrase);
  if (c) {
    const loose = presets.filter((p) => core(p) === c);
    if (loose.length === 1) return { kind: 'one', name: loose[0]! };
    if (loose.length > 1) return { kind: 'many', names: loose };
  }
  if (!fuzzy || !c) return { kind: 'none' };
  const keys = presets.flatMap((p) => [
    { value: p, key: p.toLowerCase() },
    { value: p, key: wordsOf(p).filter((w) => !LAYOUT_WORDS.has(w)).join(' ') },
  ]);
  const pick = fuzzyPick(wordsOf(phrase).filter((w) => !LAYOUT_WORDS.has(w)).join(' '), keys);
  if (pick.kind === 'one') return { kind: 'one', name: pick.value };
  if (pick.kind === 'many') return { kind: 'many', names: pick.values };
  return { kind: 'none' };
}

/** Presets that have this one word in their name ("code": "code space", "Code Review") — for asking, never acting. */
export function presetsWithWord(phrase: string, presets: readonly string[]): string[] {
  const words = wordsOf(phrase);
  if (words.length !== 1) return [];
  return presets.filter((p) => wordsOf(p).includes(words[0]!));
}

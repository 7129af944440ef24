import { describe, expect, it } from 'vitest';
import { squash, wordsOf } from './text';

// wordsOf splits ASCII text with an ASCII class (the Unicode classes are slow to compile and run
// on a cold call); it must split every text exactly as the Unicode split does.

const unicodeWords = (s: string) => s.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);

describe('wordsOf', () => {
  it('splits ASCII and non-ASCII text exactly as the Unicode classes do', () => {
    const samples = [
      'Reddit - r/typescript',
      'GitHub · Pull Request #142: fix_the_bug',
      'VS Code — main.ts (DeskPilot)',
      'Café au lait – Wikipédia',
      'Ünïcödé ÀÉÎ 東京 ٣٤ Ⅻ ½',
      'KELVIN SIGN \u212a and İstanbul',
      '  leading, trailing;; ',
      "don't x-ray 3D 1200x800",
      '',
    ];
    // Every printable ASCII character between letters, and a few beyond ASCII.
    for (let c = 32; c < 127; c++) samples.push(`a${String.fromCharCode(c)}b C${String.fromCharCode(c)}9`);
    for (const c of ['\u00a0', '\u2019', '\u00e9', '\u0301', '\u2460', '\u00b2']) samples.push(`x${c}y`);
    for (const s of samples) expect(wordsOf(s), JSON.stringify(s)).toEqual(unicodeWords(s));
    expect(squash('VS-Code')).toBe('vscode');
  });
});

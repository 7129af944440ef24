import { describe, expect, it } from 'vitest';
import { closestNames, editDistance } from './closest-names';

const installed = ['XTerm', 'UXTerm', 'Google Chrome', 'Chromium Web Browser', 'Firefox', 'Files', 'Calculator', 'Visual Studio Code', 'Terminal', 'Vim'];

describe('editDistance', () => {
  it('counts insertions, deletions, substitutions and adjacent swaps', () => {
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('xtrem', 'xterm')).toBe(1);
    expect(editDistance('ca', 'abc')).toBe(3); // optimal string alignment, not unrestricted Damerau
  });
});

describe('closestNames', () => {
  it('ranks exact, prefix, word prefix and substring matches before typos', () => {
    expect(closestNames('xterm', installed)).toEqual(['XTerm', 'UXTerm']);
    expect(closestNames('chrom', installed)).toEqual(['Chromium Web Browser', 'Google Chrome']);
    expect(closestNames('term', installed)).toEqual(['Terminal', 'XTerm', 'UXTerm']);
    expect(closestNames('code', installed)).toEqual(['Visual Studio Code']);
  });

  it('suggests names within a few typos of the name or one of its words', () => {
    expect(closestNames('firefix', installed)).toEqual(['Firefox']);
    expect(closestNames('xtrem', installed)).toEqual(['XTerm']);
    expect(closestNames('crome', installed)).toEqual(['Google Chrome']);
    expect(closestNames('calclator', installed)).toEqual(['Calculator']);
    expect(closestNames('Fils', installed)[0]).toBe('Files');
  });

  it('is case- and whitespace-insensitive, honours max and drops implausible names', () => {
    expect(closestNames('  GOOGLE   chrome ', installed)).toEqual(['Google Chrome']);
    expect(closestNames('e', installed, 2)).toHaveLength(2);
    expect(closestNames('spreadsheet', installed)).toEqual([]);
    expect(closestNames('zz', installed)).toEqual([]);
    expect(closestNames('', installed)).toEqual([]);
    expect(closestNames('vim', ['Vim', 'Vim', 'vim'])).toEqual(['Vim', 'vim']);
  });
});

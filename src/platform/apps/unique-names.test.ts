import { describe, expect, it } from 'vitest';
import { byName, withUniqueNames } from './unique-names';

describe('withUniqueNames', () => {
  it('keeps the first name and qualifies later case-insensitive duplicates', () => {
    const apps = [
      { name: 'Terminal', id: 'a' },
      { name: 'terminal', id: 'b' },
      { name: 'Terminal (c)', id: 'x' },
      { name: 'TERMINAL', id: 'c' },
      { name: 'Other', id: 'd' },
    ];
    expect(withUniqueNames(apps, (a) => a.id).map((a) => a.name)).toEqual(['Terminal', 'terminal (b)', 'Terminal (c)', 'TERMINAL (c 2)', 'Other']);
    expect(apps[1]!.name).toBe('terminal'); // inputs are not mutated
  });
});

describe('byName', () => {
  it('sorts case-insensitively, then by id', () => {
    const sorted = [
      { name: 'b', id: '1' },
      { name: 'A', id: '2' },
      { name: 'a', id: '1' },
    ].sort(byName);
    expect(sorted).toEqual([
      { name: 'a', id: '1' },
      { name: 'A', id: '2' },
      { name: 'b', id: '1' },
    ]);
  });
});

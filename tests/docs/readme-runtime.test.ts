import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { documentationFiles, REPO } from './runnable-examples';

// The documentation names the Node version CI runs; .nvmrc is where CI reads it
// (tests/runtime/node-version.test.ts holds CI to it). An exact version written anywhere in
// README.md or docs/ must be that one, so the two cannot drift apart.

const pinned = readFileSync(path.join(REPO, '.nvmrc'), 'utf8').trim();

describe('the Node version the documentation states', () => {
  it('README.md states the exact version in .nvmrc', () => {
    expect(readFileSync(path.join(REPO, 'README.md'), 'utf8')).toContain(`Node ${pinned}`);
  });

  it.each(documentationFiles())('every exact Node version in %s is the one in .nvmrc', (file) => {
    const text = readFileSync(path.join(REPO, file), 'utf8');
    const stated = [...text.matchAll(/\bNode(?:\.js)? v?(\d+\.\d+\.\d+)\b/g)].map((m) => m[1]);
    expect(stated.filter((v) => v !== pinned)).toEqual([]);
  });
});

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The runtime DeskPilot is tested on is the one the README states: .nvmrc holds that exact
// version, and CI (.ci/run) installs it from the npm registry and sets CI=true. Under CI the
// version must be exactly that one, so the README never claims a runtime CI did not run. Outside
// CI a developer's Node only has to be of the same major line and satisfy package.json's engines
// (a patch release ahead is fine on a laptop; holding every laptop to one patch would not help).

const root = path.join(__dirname, '..', '..');
const pinned = readFileSync(path.join(root, '.nvmrc'), 'utf8').trim();
const engines = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;

const parts = (v: string): number[] => v.replace(/^v/, '').split('.').map(Number);
const atLeast = (v: number[], min: number[]): boolean => {
  for (let i = 0; i < 3; i++) if ((v[i] ?? 0) !== (min[i] ?? 0)) return (v[i] ?? 0) > (min[i] ?? 0);
  return true;
};

describe('the Node runtime', () => {
  it('.nvmrc pins one exact version that package.json engines allow', () => {
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    const min = /^>=(\d+(?:\.\d+){0,2})$/.exec(engines);
    expect(min, `package.json engines.node is "${engines}"; this test reads only ">=X.Y[.Z]"`).not.toBeNull();
    expect(atLeast(parts(pinned), parts(min![1]!)), `.nvmrc ${pinned} is below engines ${engines}`).toBe(true);
  });

  it('is the pinned major line and satisfies engines', () => {
    expect(process.versions.node.split('.')[0]).toBe(pinned.split('.')[0]);
    expect(atLeast(parts(process.versions.node), parts(engines.slice(2))), `Node ${process.version} is below engines ${engines}`).toBe(true);
  });

  it.runIf(process.env.CI === 'true')('under CI, is exactly the version in .nvmrc', () => {
    expect(process.version).toBe(`v${pinned}`);
  });
});

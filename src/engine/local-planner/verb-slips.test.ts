import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ContextSnapshot } from '../../protocol/context';
import { fixVerbSlips } from './verb-slips';

const desk = ContextSnapshot.parse(
  JSON.parse(readFileSync(path.join(__dirname, '..', '..', '..', 'eval', 'contexts', 't-tab-manager.json'), 'utf8')),
);

describe('verb slips', () => {
  it.each([
    ['swtich to reddit', 'switch to reddit'],
    ['clsoe the youtube tabs', 'close the youtube tabs'],
    ['maximze xterm', 'maximize xterm'],
    ['opne reddit', 'open reddit'],
    ['pin reddit and relaod github', 'pin reddit and reload github'],
  ])('reads "%s" as "%s"', (typed, meant) => {
    expect(fixVerbSlips(typed, desk)).toBe(meant);
  });

  it.each([
    // One letter for another makes another word, not a slip.
    ['take the left half', 'take the left half'],
    // Not where a verb stands.
    ['open the clsoe tab', 'open the clsoe tab'],
    // Too short to tell.
    ['og to reddit', 'og to reddit'],
  ])('leaves "%s" alone', (typed, same) => {
    expect(fixVerbSlips(typed, desk)).toBe(same);
  });

  it('leaves a word that names something on the desk', () => {
    const withApp = { ...desk, running_apps: [...desk.running_apps, { ...desk.running_apps[0]!, name: 'Clsoe' }] };
    expect(fixVerbSlips('clsoe', withApp)).toBe('clsoe');
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DOC, withGenerated } from '../../scripts/gen-protocol-doc';
import { COMMAND_TYPES } from './commands';
import { describeOperations } from './describe-protocol';

describe('the protocol reference', () => {
  it('documents every operation with its required fields', () => {
    const ops = describeOperations();
    expect(ops.map((o) => o.type)).toEqual(COMMAND_TYPES);
    const placeApp = ops.find((o) => o.type === 'place_app')!;
    expect(placeApp.fields.map((f) => [f.name, f.required])).toEqual([
      ['app_name', true],
      ['window_id', false],
      ['monitor', false],
      ['bounds', false],
      ['layout', false],
      ['raise', false],
    ]);
    expect(ops.find((o) => o.type === 'close_tab')!.fields[0]!.type).toBe('positive integer[]');
  });

  it('docs/protocol.md is generated from the current schemas (run npm run docs:protocol)', () => {
    const doc = readFileSync(DOC, 'utf8');
    expect(withGenerated(doc)).toBe(doc);
  });
});

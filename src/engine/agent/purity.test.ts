import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The agent loop is pure engine code: it depends on the ports, the protocol and other engine
// modules only — never on node: modules or platform implementations — so it runs unchanged
// in the CLI, the Electron main process and tests.

describe('src/engine/agent imports', () => {
  it('has no node: or platform imports', () => {
    const dir = __dirname;
    const offending: string[] = [];
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))) {
      const text = readFileSync(path.join(dir, file), 'utf8');
      for (const [, spec] of text.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)) {
        const ok = spec!.startsWith('./') || spec!.startsWith('../../protocol/') || /^\.\.\/[\w-]+$/.test(spec!) || spec === 'zod';
        if (!ok || spec!.includes('platform')) offending.push(`${file}: ${spec}`);
      }
    }
    expect(offending).toEqual([]);
  });
});

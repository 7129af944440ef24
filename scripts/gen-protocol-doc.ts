import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { operationsMarkdown } from '../src/protocol/describe-protocol';

// Rewrites the generated part of docs/protocol.md from the zod source. `--check` only
// reports whether it is current (the test suite runs the same comparison).
export const DOC = path.join(__dirname, '..', 'docs', 'protocol.md');
export const START = '<!-- generated:operations:start (npm run docs:protocol) -->';
export const END = '<!-- generated:operations:end -->';

export function withGenerated(doc: string): string {
  const a = doc.indexOf(START);
  const b = doc.indexOf(END);
  if (a < 0 || b < a) throw new Error(`${DOC} lacks the generated-section markers`);
  return doc.slice(0, a + START.length) + '\n\n' + operationsMarkdown() + '\n' + doc.slice(b);
}

if (require.main === module) {
  const doc = readFileSync(DOC, 'utf8');
  const next = withGenerated(doc);
  if (process.argv.includes('--check')) {
    if (next !== doc) {
      console.error('docs/protocol.md is out of date: run npm run docs:protocol');
      process.exit(1);
    }
  } else writeFileSync(DOC, next);
}

import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

// Copies the agent's page script (a checked source: src/platform/chrome/agent/page-script.src.js)
// into page-script.generated.ts as a string, so every runner and bundler ships the same text
// without a loader of its own (tsx, vitest, esbuild for the CLI, electron-vite for the app).
// Run after editing the source: `npx tsx scripts/gen-page-script.ts`; `--check` only reports
// whether the copy is current (page-script.test.ts runs the same comparison).
const DIR = path.join(__dirname, '..', 'src', 'platform', 'chrome', 'agent');
export const SOURCE = path.join(DIR, 'page-script.src.js');
export const GENERATED = path.join(DIR, 'page-script.generated.ts');

export function generatedModule(source: string): string {
  return (
    '// Generated from page-script.src.js by scripts/gen-page-script.ts: edit that file, then run\n' +
    '// `npx tsx scripts/gen-page-script.ts` (page-script.test.ts fails while this copy is stale).\n' +
    `export const PAGE_SCRIPT_SOURCE = ${JSON.stringify(source)};\n`
  );
}

if (require.main === module) {
  const next = generatedModule(readFileSync(SOURCE, 'utf8'));
  let current = '';
  try {
    current = readFileSync(GENERATED, 'utf8');
  } catch {
    // not generated yet
  }
  if (process.argv.includes('--check')) {
    if (current !== next) {
      console.error(`${path.relative(process.cwd(), GENERATED)} is stale: run npx tsx scripts/gen-page-script.ts`);
      process.exit(1);
    }
  } else if (current !== next) {
    writeFileSync(GENERATED, next);
    console.log(`wrote ${path.relative(process.cwd(), GENERATED)}`);
  }
}

import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { GENERATED, SOURCE, generatedModule } from '../../../../scripts/gen-page-script';
import { HIT_PROBE_SCRIPT } from './hit-probe';
import { F, PAGE_SCRIPT, assemblePageScript } from './page-script';

// The page script is a real source file: checked against the DOM like any other code, and shipped
// as exactly that text. (What it does in a page is tests/agent: a real Chromium.)

const ROOT = path.join(__dirname, '..', '..', '..', '..');

describe('the agent page script', () => {
  it('type-checks against the DOM (tsconfig.page.json)', () => {
    const config = ts.getParsedCommandLineOfConfigFile(path.join(ROOT, 'tsconfig.page.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => void d });
    expect(config?.errors ?? []).toEqual([]);
    expect(config!.fileNames.map((f) => path.resolve(f))).toContain(SOURCE);
    const program = ts.createProgram({ rootNames: config!.fileNames, options: config!.options });
    const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.formatDiagnostic(d, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => ROOT, getNewLine: () => '\n' }));
    expect(problems).toEqual([]);
  });

  it('ships as exactly its source: page-script.generated.ts is current (else: npx tsx scripts/gen-page-script.ts)', () => {
    const current = readFileSync(GENERATED, 'utf8') === generatedModule(readFileSync(SOURCE, 'utf8'));
    expect(current, 'page-script.generated.ts is stale: run npx tsx scripts/gen-page-script.ts').toBe(true);
  });

  it('is one expression that installs the script with the flags, the hit probe spliced in its scope', () => {
    expect(() => new Function(PAGE_SCRIPT)).not.toThrow();
    expect(PAGE_SCRIPT.startsWith('(function installPageScript(F) {')).toBe(true);
    expect(PAGE_SCRIPT.endsWith(`)(${JSON.stringify(F)});`)).toBe(true);
    // The probe sits inside the function, before its closing brace: it shares byId, hits, describe.
    const probe = PAGE_SCRIPT.indexOf(HIT_PROBE_SCRIPT);
    expect(probe).toBeGreaterThan(PAGE_SCRIPT.indexOf('G.__dp = {'));
    expect(PAGE_SCRIPT.lastIndexOf('}')).toBeGreaterThan(probe + HIT_PROBE_SCRIPT.length);
    expect(() => assemblePageScript('function other() {}', HIT_PROBE_SCRIPT)).toThrow('lacks');
    // Its header may name the function; only the declaration starts the script.
    expect(assemblePageScript('// calls function installPageScript(F)\nfunction installPageScript(F) {\n  // @hit-probe\n}\n', 'probe();')).toBe(
      `(function installPageScript(F) {\n  probe();\n// @hit-probe\n}\n)(${JSON.stringify(F)});`,
    );
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { errorMessage } from '../../src/engine/errors';

// Builds the renderer exactly as `electron-vite build` does (the renderer section of
// electron.vite.config.ts, resolved by electron-vite itself, so its built-in plugins and
// `base: './'` apply), once per process. The output goes to a private temp directory rather
// than out/renderer: test files run in parallel and tests/build/bundles.test.ts rebuilds out/
// at the same time, so sharing that folder would let one process serve the other's half-built
// files. Test tooling only; nothing under src/ imports it.

const REPO = path.resolve(__dirname, '../..');

let built: Promise<string> | null = null;
let users = 0;

/**
 * The folder with index.html and assets/ of a fresh renderer build, cached per process while
 * anyone holds it: call release() when done; the last release removes the folder (an 'exit'
 * hook is only a fallback — test runners may end their workers without running it).
 */
export async function acquireRenderer(): Promise<{ dir: string; release(): void }> {
  users++;
  try {
    built ??= build().catch((e: unknown) => {
      built = null; // a later call may try again (e.g. after the renderer's author fixed a syntax error)
      throw e;
    });
    const dir = await built;
    let released = false;
    return {
      dir,
      release() {
        if (released) return;
        released = true;
        if (--users === 0 && built) {
          built = null;
          rmSync(dir, { recursive: true, force: true });
        }
      },
    };
  } catch (e) {
    users--;
    throw e;
  }
}

async function build(): Promise<string> {
  const outDir = mkdtempSync(path.join(tmpdir(), 'deskpilot-ui-build-'));
  process.once('exit', () => rmSync(outDir, { recursive: true, force: true }));
  try {
    return await buildInto(outDir);
  } catch (e) {
    rmSync(outDir, { recursive: true, force: true });
    throw e;
  }
}

async function buildInto(outDir: string): Promise<string> {
  // Both packages are ESM; dynamic import works from CommonJS (tsx, vitest).
  const { resolveConfig } = await import('electron-vite');
  const { build: viteBuild, mergeConfig } = await import('vite');
  const resolved = await resolveConfig({ root: REPO, configFile: path.join(REPO, 'electron.vite.config.ts') }, 'build', 'production');
  const renderer = resolved.config?.renderer;
  if (!renderer) throw new Error('electron.vite.config.ts has no renderer section');
  try {
    await viteBuild(mergeConfig(renderer, { configFile: false, logLevel: 'warn', build: { outDir, emptyOutDir: true } }));
  } catch (e) {
    throw new Error(`building the renderer failed: ${errorMessage(e)}`, { cause: e });
  }
  return outDir;
}

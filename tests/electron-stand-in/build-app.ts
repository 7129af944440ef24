import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { errorMessage } from '../../src/engine/errors';

// The app as `electron-vite build` makes it — main, preload and renderer, each section of
// electron.vite.config.ts resolved by electron-vite itself — built into a private folder (test
// files run in parallel and another may be rebuilding out/). The folder looks like the repo to
// the bundle: out/{main,preload,renderer} beside node_modules and resources (links), as main
// finds them from its own __dirname when it is not packaged.

const REPO = path.resolve(__dirname, '../..');

export interface BuiltApp {
  dir: string;
  main: string;
  remove(): void;
}

export async function buildApp(): Promise<BuiltApp> {
  const dir = mkdtempSync(path.join(tmpdir(), 'deskpilot-stand-in-app-'));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  try {
    const { resolveConfig } = await import('electron-vite');
    const { build, mergeConfig } = await import('vite');
    const resolved = await resolveConfig({ root: REPO, configFile: path.join(REPO, 'electron.vite.config.ts') }, 'build', 'production');
    for (const section of ['main', 'preload', 'renderer'] as const) {
      const config = resolved.config?.[section];
      if (!config) throw new Error(`electron.vite.config.ts has no ${section} section`);
      const outDir = path.join(dir, 'out', section);
      mkdirSync(outDir, { recursive: true });
      await build(mergeConfig(config, { configFile: false, logLevel: 'warn', build: { outDir, emptyOutDir: true } }));
    }
    symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    symlinkSync(path.join(REPO, 'resources'), path.join(dir, 'resources'), 'dir');
    symlinkSync(path.join(REPO, 'package.json'), path.join(dir, 'package.json'));
    return { dir, main: path.join(dir, 'out', 'main', 'index.js'), remove };
  } catch (e) {
    remove();
    throw new Error(`building the app failed: ${errorMessage(e)}`, { cause: e });
  }
}

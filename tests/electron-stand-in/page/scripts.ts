import { buildSync } from 'esbuild';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { RUN_PRELOAD } from './names';

// The page-side scripts as the browser runs them: each bundled once into a plain script.

const bundled = new Map<string, string>();

function bundle(file: string): string {
  let code = bundled.get(file);
  if (code === undefined) {
    const out = buildSync({ entryPoints: [path.join(__dirname, file)], bundle: true, format: 'iife', platform: 'browser', target: 'es2022', write: false, logLevel: 'silent' });
    code = out.outputFiles[0]!.text;
    bundled.set(file, code);
  }
  return code;
}

/** For the page's main world: defines what the preload exposes. */
export const mainWorldScript = (): string => bundle('main-world.ts');

/**
 * For the preload's isolated world: contextBridge and ipcRenderer, then the real built preload
 * (CommonJS) with a require that knows only 'electron'.
 */
export function preloadWorldScript(preloadFile: string): string {
  const preload = readFileSync(preloadFile, 'utf8');
  return `${bundle('preload-world.ts')}\n;globalThis[${JSON.stringify(RUN_PRELOAD)}](function (require, module, exports) {\n${preload}\n});\n//# sourceURL=${preloadFile}`;
}

import { mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import path from 'node:path';
import vm from 'node:vm';
import { BUILD_ID } from './build-id';

// Loads the full CLI (out/cli/main.cjs) for a call the warm service does not run, with V8's
// code cache: compiling the CLI's JavaScript was the largest part of a cold call (about 0.1 s
// of CPU, as much as Node's own start). The first call of each command saves the compiled
// code of everything that call ran; later calls of that command start from it. Node 22 has
// this built in (module.enableCompileCache); DeskPilot also runs on Node 20, which has not.
//
// The cache lives beside the build (out/cli/code-cache), never in a shared temp folder: code
// cache data is code, so it must be as trusted as the files it stands for. It is named by the
// build id (a hash of the built files) because V8 checks a cache only against the source's
// length, and by Node's version and the command word. Where that folder cannot be written (a
// read-only install), calls compile as before.

/** The top-level commands; any other first word shares one cache, so words typed cannot fill the folder. */
const COMMANDS = new Set(['agent', 'chrome', 'context', 'devices', 'exec', 'mcp', 'plan', 'presets', 'run', 'undo']);
/**
 * Long-lived servers compile as they go: their start-up is paid once, and a cache would only
 * bring in, up front, code of everything the last run did (memory for as long as they run).
 */
const SERVERS = new Set(['service', 'sync-server']);

export interface LoadedCli {
  main(argv: string[]): Promise<number>;
  /** Writes the compiled code when this call started without a usable cache; never throws. */
  saveCodeCache(): void;
}

export function loadCli(outCli: string, argv: readonly string[]): LoadedCli {
  const file = path.join(outCli, 'main.cjs');
  // ASCII (scripts/build-cli.mjs checks), so read as one-byte text: no UTF-8 decoding of megabytes.
  const source = readFileSync(file, 'latin1');
  // A main.cjs of another build (rebuilt since this loader was read) never gets this build's cache.
  const sameBuild = BUILD_ID !== null && source.endsWith(`//# deskpilot-build ${BUILD_ID}\n`);
  const cacheFile = sameBuild && !SERVERS.has(firstWord(argv) ?? '') ? path.join(outCli, 'code-cache', `${BUILD_ID}-${process.version}-${process.arch}${flagsKey()}-${commandWord(argv)}.bin`) : null;
  let cached: Buffer | undefined;
  try {
    cached = cacheFile ? readFileSync(cacheFile) : undefined;
  } catch {
    cached = undefined;
  }
  // The bundle has no import() left (the build turns each into a require()), so it needs no dynamic-import hook.
  const script = new vm.Script(Module.wrap(source), { filename: file, cachedData: cached });
  const mod = { exports: {} as { main?: LoadedCli['main'] } };
  const wrapper = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: unknown, filename: string, dirname: string) => void;
  wrapper.call(mod.exports, mod.exports, Module.createRequire(file), mod, file, outCli);
  const main = mod.exports.main;
  if (typeof main !== 'function') throw new Error(`${file} exports no main()`);
  const stale = !cached || script.cachedDataRejected === true;
  return {
    main,
    saveCodeCache: () => {
      if (cacheFile && stale) writeAtomically(cacheFile, script.createCachedData());
    },
  };
}

/** The first word that is not a flag ("exec", "plan", …); flags alone ("--help") have their own cache. */
const firstWord = (argv: readonly string[]) => argv.find((a) => !a.startsWith('-'));

function commandWord(argv: readonly string[]): string {
  const word = firstWord(argv);
  if (!word) return argv.length ? 'flags' : 'none';
  return COMMANDS.has(word) ? word : 'other';
}

/**
 * V8 rejects a cache made under other flags (a profiler, --inspect, NODE_OPTIONS); such runs get
 * caches of their own instead of replacing the usual one each time.
 */
function flagsKey(): string {
  const flags = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' ').trim();
  if (!flags) return '';
  let h = 0x811c9dc5;
  for (let i = 0; i < flags.length; i++) h = Math.imul(h ^ flags.charCodeAt(i), 0x01000193) >>> 0;
  return `-f${h.toString(16)}`;
}

function writeAtomically(file: string, data: Buffer): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(tmp, data);
    renameSync(tmp, file);
  } catch {
    try {
      unlinkSync(tmp);
    } catch {
      // nothing was written
    }
  }
}

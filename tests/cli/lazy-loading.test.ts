import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI } from '../support/cli';

// The compiled CLI loads only what a command needs. out/cli/main.cjs is one bundle whose modules
// are evaluated only when first imported; the libraries a command may not need stay packages of
// their own, required from node_modules when used. Which packages a real CLI process requires is
// seen by a hook preloaded into it. No timings: what is loaded is the cause.

const dir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-lazy-'));
const hook = path.join(dir, 'hook.cjs');
writeFileSync(
  hook,
  [
    "const Module = require('node:module');",
    'const load = Module._load;',
    'Module._load = function (request, parent, isMain) {',
    "  if (!request.startsWith('.') && !request.startsWith('/') && !request.startsWith('node:') && !Module.isBuiltin(request)) process.stderr.write('REQUIRED ' + request + '\\n');",
    '  return load.apply(this, arguments);',
    '};',
    // Node's own modules the process loaded, as Node lists them ('NativeModule tls').
    "process.on('exit', () => { for (const m of process.moduleLoadList) if (m.startsWith('NativeModule ')) process.stderr.write('BUILTIN ' + m.slice(13) + '\\n'); });",
  ].join('\n'),
);

/** The package a require names ('@scope/name' or 'name'). */
const packageOf = (request: string) => request.split('/').slice(0, request.startsWith('@') ? 2 : 1).join('/');

async function loadedBy(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ libraries: string[]; builtins: string[]; stderr: string; code: number | null }> {
  const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, ['--require', hook, CLI, ...args], {
      env: {
        PATH: process.env.PATH,
        HOME: dir,
        DESKPILOT_CONFIG_DIR: path.join(dir, 'config'),
        DESKPILOT_NO_SERVICE: '1',
        DESKPILOT_CHROME_URL: 'http://127.0.0.1:1',
        DESKPILOT_LLM_MODEL: '',
        ...env,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.on('error', reject);
    child.on('close', (c) => resolve({ code: c, stderr: err }));
  });
  const libraries = [...new Set([...stderr.matchAll(/^REQUIRED (\S+)$/gm)].map((m) => packageOf(m[1]!)))].sort();
  const builtins = [...stderr.matchAll(/^BUILTIN (\S+)$/gm)].map((m) => m[1]!);
  return { libraries, builtins, stderr, code };
}

describe('the compiled CLI loads only what a command needs (real CLI processes)', () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('--help loads no package from node_modules (the argument parser is in the bundle)', { timeout: 60_000 }, async () => {
    const r = await loadedBy(['--help']);
    expect(r.code).toBe(0);
    expect(r.libraries).toEqual([]);
  });

  it('a desk command loads neither the OpenAI SDK, the sync engine nor the SQLite addon', { timeout: 60_000 }, async () => {
    const r = await loadedBy(['plan', '--planner', 'local', 'list tabs']);
    expect(r.code).toBe(0);
    // Not even ws's optional native helpers (bufferutil, utf-8-validate): they are not searched for.
    expect(r.libraries).toEqual([]);
    // Node's TLS, HTTPS, zlib and child processes wait for a use (a desk command has none).
    expect(r.builtins).toContain('net');
    for (const unused of ['tls', 'https', 'zlib', 'child_process']) expect(r.builtins).not.toContain(unused);
  });

  it('the OpenAI SDK is loaded when the LLM is asked, not when the offline matcher answers (with an LLM configured)', { timeout: 120_000 }, async () => {
    const llm = { DESKPILOT_LLM_MODEL: 'some-model', DESKPILOT_LLM_BASE_URL: 'http://127.0.0.1:9/v1', DESKPILOT_LLM_TIMEOUT_MS: '5000' };
    const local = await loadedBy(['plan', '--planner', 'local', 'list tabs'], llm);
    expect(local.code).toBe(0);
    expect(local.libraries).not.toContain('openai');

    const asked = await loadedBy(['plan', '--planner', 'llm', 'list tabs'], llm);
    expect(asked.stderr).toContain('cannot reach the LLM at http://127.0.0.1:9/v1');
    expect(asked.libraries).toContain('openai');
  });
});

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI } from '../support/cli';

// The compiled CLI loads only what a command needs: which files of out/cli a real CLI process
// loads, seen by a module hook, and what is in them. No timings: what is loaded is the cause.

const dir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-lazy-'));
const hooks = path.join(dir, 'hooks.mjs');
const register = path.join(dir, 'register.mjs');
writeFileSync(hooks, `export async function load(url, context, next) {\n  if (url.includes('/out/cli/')) process.stderr.write('LOADED ' + url + '\\n');\n  return next(url, context);\n}\n`);
writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);

/** Strings only found in a bundled library (its own identifiers and header names). */
const LIBRARY_MARKERS = {
  openai: 'X-Stainless-Package-Version',
  zod: '$ZodError',
  'chrome-remote-interface': 'Browser.getVersion',
  commander: 'CommanderError',
};

async function loadedBy(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ libraries: string[]; stderr: string; code: number | null }> {
  const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', pathToFileURL(register).href, CLI, ...args], {
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
  const files = [...stderr.matchAll(/^LOADED (\S+)$/gm)].map((m) => new URL(m[1]!));
  const text = files.map((f) => readFileSync(f, 'utf8')).join('\n');
  const libraries = Object.entries(LIBRARY_MARKERS)
    .filter(([, marker]) => text.includes(marker))
    .map(([name]) => name);
  return { libraries, stderr, code };
}

describe('the compiled CLI loads only what a command needs (real CLI processes)', () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('--help loads the argument parser and nothing else', { timeout: 60_000 }, async () => {
    const r = await loadedBy(['--help']);
    expect(r.code).toBe(0);
    expect(r.libraries).toEqual(['commander']);
  });

  it('the OpenAI SDK is loaded when the LLM is asked, not when the offline matcher answers (with an LLM configured)', { timeout: 120_000 }, async () => {
    const llm = { DESKPILOT_LLM_MODEL: 'some-model', DESKPILOT_LLM_BASE_URL: 'http://127.0.0.1:9/v1', DESKPILOT_LLM_TIMEOUT_MS: '5000' };
    const local = await loadedBy(['plan', '--planner', 'local', 'list tabs'], llm);
    expect(local.code).toBe(0);
    expect(local.libraries).toContain('chrome-remote-interface');
    expect(local.libraries).not.toContain('openai');

    const asked = await loadedBy(['plan', '--planner', 'llm', 'list tabs'], llm);
    expect(asked.stderr).toContain('cannot reach the LLM at http://127.0.0.1:9/v1');
    expect(asked.libraries).toContain('openai');
  });
});

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli';

// Bad input to the real CLI (a child process, as a user or another program runs it): invalid
// JSON is said once, and a huge field name is quoted back short. Neither needs Chrome or a
// desktop: nothing runs when the input is invalid.

describe('deskpilot exec: errors about the input', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-exec-input-'));
    // An endpoint nobody listens on: the input errors must come before any connection attempt.
    env = { PATH: process.env.PATH, HOME: dir, DESKPILOT_CONFIG_DIR: dir, DESKPILOT_CHROME_URL: 'http://127.0.0.1:9' };
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('invalid JSON: one sentence, said once, exit 2', async () => {
    const r = await runCli(['exec', '{"type": x}'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("input: is not valid JSON (Unexpected token 'x')\n");
    expect(r.stdout).toBe('');
  });

  it('invalid JSON on stdin, a megabyte of it: the message does not quote it', async () => {
    const r = await runCli(['exec', '-'], { env, stdin: `{"commands": [${'y'.repeat(1_000_000)}]}` });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("input: is not valid JSON (Unexpected token 'y')\n");
  });

  it('a config.json that is not JSON: named, said once, exit 2', async () => {
    const cfg = path.join(dir, 'broken-config');
    mkdirSync(cfg);
    writeFileSync(path.join(cfg, 'config.json'), '{"chrome": x}');
    const r = await runCli(['exec', '{"type":"list_tabs"}'], { env: { ...env, DESKPILOT_CONFIG_DIR: cfg } });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`deskpilot: ${path.join(cfg, 'config.json')}: is not valid JSON (Unexpected token 'x')\n`);
  });

  it('a 1 MB unknown field name: 80 characters of it, an ellipsis and its length, in the report and on stderr', async () => {
    const key = 'k'.repeat(1_048_576);
    const r = await runCli(['exec', '-'], { env, stdin: JSON.stringify({ type: 'list_tabs', [key]: 1 }) });
    expect(r.code).toBe(2);
    const shown = `commands[0].${'k'.repeat(80)}… (1048576 characters)`;
    expect(r.json.errors).toEqual([{ path: shown, message: 'unknown field' }]);
    expect(r.stderr).toBe(`${shown}: unknown field\n`);
    expect(r.stdout.length).toBeLessThan(2000);
  });
});

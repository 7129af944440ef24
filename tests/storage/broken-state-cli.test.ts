import { execFileSync } from 'node:child_process';
import { lstatSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli';

// The real CLI with broken state files: what a person sees must say which file is wrong,
// and the file must be left as it was. No desktop and no Chrome here (port 1 refuses at once),
// so the commands answer with those sources unavailable.

describe('the CLI with broken state files (real CLI, real files)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-cli-state-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const env = () => ({ PATH: process.env.PATH, HOME: dir });
  const cli = (...args: string[]) => runCli([...args, '--config-dir', dir, '--chrome-url', 'http://127.0.0.1:1'], { env: env() });

  it('`context` says presets are unavailable, and why, when presets.json is broken', { timeout: 120_000 }, async () => {
    const file = path.join(dir, 'presets.json');
    writeFileSync(file, '{"version": 1, "presets": [');
    const r = await cli('context', '--no-summaries');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Presets — unavailable: ${file}: is not valid JSON`);
    expect(r.stdout).not.toContain('none saved');
    expect(readFileSync(file, 'utf8')).toBe('{"version": 1, "presets": [');
  });

  it('`plan` and `run` say that turns.json is broken and leave it as it is', { timeout: 120_000 }, async () => {
    const snap = await cli('context', '--json', '--no-summaries');
    expect(snap.code).toBe(0);
    writeFileSync(path.join(dir, 'snapshot.json'), snap.stdout);
    const turns = path.join(dir, 'turns.json');
    writeFileSync(turns, 'not json at all');
    const plan = await cli('plan', '--planner', 'local', '--context', path.join(dir, 'snapshot.json'), 'list tabs');
    expect(plan.code).toBe(0);
    expect(plan.stderr).toContain(`${turns}: is not valid JSON`);
    const run = await cli('run', '--planner', 'local', '--context', path.join(dir, 'snapshot.json'), 'list tabs');
    expect(run.stderr).toContain(`${turns}: is not valid JSON`);
    expect(readFileSync(turns, 'utf8')).toBe('not json at all');
  });

  it('reads a config.json saved with a byte order mark', { timeout: 120_000 }, async () => {
    writeFileSync(path.join(dir, 'config.json'), '\uFEFF{ "llm": { "mode": "json_object" } }\n');
    const r = await cli('context', '--no-summaries');
    expect(r.stderr).not.toContain('config.json');
    expect(r.code).toBe(0);
  });

  it('refuses a named pipe as config.json with its name, instead of waiting on it forever', { timeout: 120_000 }, async () => {
    const file = path.join(dir, 'config.json');
    execFileSync('mkfifo', [file]);
    const r = await cli('context', '--no-summaries');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${file}: is a named pipe (FIFO), not a file`);
    expect(lstatSync(file).isFIFO()).toBe(true);
  });
});

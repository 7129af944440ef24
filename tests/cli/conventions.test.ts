import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli';

// The conventions people expect of a command-line tool, through the real CLI (a child process):
// --version, --json on every listing, and exit codes that mean what docs/cli.md says — 1 when
// Chrome or the window backend is not there, 3 only when the user is needed. None of these
// needs a desktop: Chrome is an endpoint nobody listens on, and there is no X display.

const ROOT = path.join(__dirname, '..', '..');
const VERSION = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/** Every command that lists things; each must take --json. */
const LISTINGS = [['presets', 'list'], ['devices'], ['devices', 'requests'], ['context'], ['windows']];

describe('CLI conventions', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-conventions-'));
    env = { PATH: process.env.PATH, HOME: dir, DESKPILOT_CONFIG_DIR: dir, DESKPILOT_CHROME_URL: 'http://127.0.0.1:9', DESKPILOT_NO_SERVICE: '1' };
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('--version and -V print the version and exit 0', async () => {
    for (const flag of ['--version', '-V']) {
      const r = await runCli([flag], { env });
      expect({ flag, code: r.code, stdout: r.stdout, stderr: r.stderr }).toEqual({ flag, code: 0, stdout: `${VERSION}\n`, stderr: '' });
    }
  });

  it('every listing offers --json', async () => {
    for (const listing of LISTINGS) {
      const r = await runCli([...listing, '--help'], { env });
      expect(r.code, listing.join(' ')).toBe(0);
      expect(r.stdout, listing.join(' ')).toMatch(/^\s+--json\b/m);
    }
  });

  it('presets list --json: [] when there are none, the presets as saved when there are', async () => {
    const none = await runCli(['presets', 'list', '--json'], { env });
    expect(none.code).toBe(0);
    expect(none.json).toEqual([]);
    const preset = { name: 'code space', placements: [{ app: 'XTerm', monitor: 'RIGHT', rect: [0, 0, 0.5, 1], launch: true }], urls: ['https://example.org/'] };
    writeFileSync(path.join(dir, 'presets.json'), JSON.stringify({ version: 1, presets: [preset] }));
    try {
      const some = await runCli(['presets', 'list', '--json'], { env });
      expect(some.code).toBe(0);
      expect(some.json).toEqual([expect.objectContaining(preset)]);
      // Without --json it stays a sentence per preset.
      expect((await runCli(['presets', 'list'], { env })).stdout).toMatch(/^code space: XTerm on RIGHT/);
    } finally {
      rmSync(path.join(dir, 'presets.json'), { force: true });
    }
  });

  it('windows without a window backend (no X display): exit 1 and why, on stderr', async () => {
    const r = await runCli(['windows', '--json'], { env });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^windows are unavailable: .+\n$/);
  });

  it('run: Chrome not running is a failure (exit 1, "unavailable"), not a question (3)', async () => {
    const r = await runCli(['run', '--planner', 'local', 'mute youtube'], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^unavailable: Chrome isn't connected: /);
    const j = await runCli(['run', '--planner', 'local', '--json', 'mute youtube'], { env });
    expect(j.code).toBe(1);
    expect(j.json).toMatchObject({ status: 'unavailable', errors: [{ message: expect.stringMatching(/^Chrome isn't connected: /) }] });
  });

  it('run: no window backend is a failure too (exit 1)', async () => {
    const r = await runCli(['run', '--planner', 'local', 'xterm left half'], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^unavailable: Windows can't be controlled: /);
  });

  it('run: a question back still exits 3', async () => {
    const r = await runCli(['run', '--planner', 'local', 'florp the wibble'], { env });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^needs clarification: /);
  });
});

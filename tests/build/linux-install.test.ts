import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// node-window-manager is a native addon compiled with node-gyp at install and used only on macOS
// and Windows. It comes in through packages/native-window-manager, an optional dependency whose
// `os` is darwin and win32, so npm skips it — and the addon with it — elsewhere. Checked with the
// real npm: `npm ci --dry-run` from the committed package.json and package-lock.json lists what
// a fresh clone's install adds, for Linux and (with --os) for macOS and Windows. Offline: a dry
// run reads only the lockfile. A temporary npm cache keeps it from touching the user's.

const run = promisify(execFile);
const ROOT = path.join(__dirname, '..', '..');

describe('a fresh install on each platform (npm ci --dry-run)', () => {
  let tmp: string;
  beforeAll(() => {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-install-'));
    for (const f of ['package.json', 'package-lock.json', 'packages']) cpSync(path.join(ROOT, f), path.join(tmp, 'clone', f), { recursive: true });
  });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  async function added(platform: string): Promise<string[]> {
    const env = { ...process.env, PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`, npm_config_cache: path.join(tmp, 'npm-cache') };
    const r = await run('npm', ['ci', '--dry-run', '--ignore-scripts', '--no-audit', '--no-fund', `--os=${platform}`], { cwd: path.join(tmp, 'clone'), env, maxBuffer: 16 << 20 });
    const names = [...r.stdout.matchAll(/^add (\S+) /gm)].map((m) => m[1]!);
    expect(names.length, r.stdout.slice(0, 2000)).toBeGreaterThan(100);
    return names;
  }

  it('Linux: node-window-manager (and its icon addon) is not installed, so node-gyp never builds it', async () => {
    const linux = await added('linux');
    expect(linux).not.toContain('node-window-manager');
    expect(linux).not.toContain('extract-file-icon');
    expect(linux).toContain('x11'); // the Linux window backend is there
  });

  it('macOS and Windows: node-window-manager is installed', async () => {
    for (const platform of ['darwin', 'win32']) expect(await added(platform), platform).toContain('node-window-manager');
  });
});

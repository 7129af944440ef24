import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPrivateCli, type PrivateCli } from '../service/private-cli';

// The full CLI is loaded through V8's code cache (src/cli/load-cli.ts): the first call of a
// command saves it beside the build, later calls start from it, a broken one is replaced, and a
// main.cjs of another build never gets it. Real CLI processes on a build of their own.

let cli: PrivateCli;
const cacheDir = () => path.join(cli.root, 'out', 'cli', 'code-cache');
const cacheFiles = () => (existsSync(cacheDir()) ? readdirSync(cacheDir()).filter((f) => f.endsWith('.bin')) : []);

function help(): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli.bin, '--help'], { env: { PATH: process.env.PATH, HOME: cli.root, DESKPILOT_NO_SERVICE: '1' } });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout }));
  });
}

describe('the CLI code cache (real CLI processes)', () => {
  beforeAll(async () => {
    cli = await buildPrivateCli();
  }, 120_000);
  afterAll(() => cli?.remove());

  it('is written by the first call, used as it is by the next, and replaced when broken', { timeout: 120_000 }, async () => {
    expect(cacheFiles()).toEqual([]);
    const first = await help();
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^Usage: deskpilot/);
    const files = cacheFiles();
    expect(files).toEqual([`${cli.buildId}-${process.version}-${process.arch}-flags.bin`]);
    const file = path.join(cacheDir(), files[0]!);
    const saved = readFileSync(file);
    expect(saved.length).toBeGreaterThan(10_000);

    // Accepted as it is: not written again (its time stays where the test put it).
    const long = new Date('2020-01-01T00:00:00Z');
    utimesSync(file, long, long);
    expect((await help()).stdout).toBe(first.stdout);
    expect(statSync(file).mtime.getTime()).toBe(long.getTime());

    // Broken: V8 rejects it, the call still answers, and a good cache takes its place.
    writeFileSync(file, 'not a code cache');
    expect((await help()).stdout).toBe(first.stdout);
    expect(readFileSync(file).length).toBeGreaterThan(10_000);
  });

  it('a main.cjs of another build neither reads nor writes this build\'s cache', { timeout: 120_000 }, async () => {
    const main = path.join(cli.root, 'out', 'cli', 'main.cjs');
    writeFileSync(main, readFileSync(main, 'latin1').replace(`//# deskpilot-build ${cli.buildId}\n`, '//# deskpilot-build 0000000000000000\n'), 'latin1');
    const before = cacheFiles().map((f) => [f, statSync(path.join(cacheDir(), f)).mtimeMs]);
    const r = await help();
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: deskpilot/);
    expect(cacheFiles().map((f) => [f, statSync(path.join(cacheDir(), f)).mtimeMs])).toEqual(before);
  });
});

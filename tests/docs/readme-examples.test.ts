import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from '../support/cli';
import { describeDesktop } from '../support/describe-desktop';
import { startDesktop, type Desktop } from '../support/desktop';
import { RawCdp } from '../support/raw-cdp';
import { COMPANION_DIR } from '../tabs/companion-view';
import { allRunnableExamples, runnableExamples } from './runnable-examples';

// The README's commands, run as a reader would type them: each line of a `sh runnable` block
// through bash, with `deskpilot` on PATH meaning this checkout's built CLI, against the real
// test desktop (two monitors, openbox, xterm, xclock, Chromium with a few tabs), in a config
// directory of its own. In document order, so a follow-up ("now put it on the right") follows
// what it refers to.

const examples = allRunnableExamples();
const readme = examples.filter((e) => e.where.startsWith('README.md:'));

/** Removing the markers (or most examples) must fail the suite, not empty it. */
const README_AT_LEAST = 15;
/** Only a hang reaches this: the examples are chosen to be quick on the test desktop. */
const EXAMPLE_TIMEOUT_MS = 120_000;

describe('the documentation\'s runnable examples are found', () => {
  it(`README.md marks at least ${README_AT_LEAST} runnable examples`, () => {
    expect(readme.length).toBeGreaterThanOrEqual(README_AT_LEAST);
  });

  it('a line\'s comment may state its exit code; other lines, blank lines and comment lines are not examples', () => {
    const md = [
      'text',
      '```sh',
      'deskpilot not-marked',
      '```',
      '```sh runnable',
      '# a comment line',
      '',
      'deskpilot run "x"   # asks first: exits 3 here',
      'deskpilot context',
      '```',
    ].join('\n');
    expect(runnableExamples('X.md', md)).toEqual([
      { where: 'X.md:8', command: 'deskpilot run "x"   # asks first: exits 3 here', expectedCode: 3 },
      { where: 'X.md:9', command: 'deskpilot context', expectedCode: 0 },
    ]);
    expect(() => runnableExamples('Y.md', '```sh runnable\ndeskpilot context\n')).toThrow(/never closed/);
  });
});

/**
 * The tabs the examples talk about: one Reddit tab, two YouTube tabs, GitHub and Gmail tabs, a page
 * that mentions kubernetes, and one address open twice.
 */
const TABS: Array<Record<string, string>> = [
  { title: 'Reddit - front page' },
  { title: 'Hacker News' },
  { title: 'YouTube - cat videos' },
  { title: 'GitHub - deskpilot/issues' },
  { title: 'YouTube - lofi beats' },
  { title: 'Docs', text: 'Deploying the sync server on kubernetes.' },
  { title: 'Gmail - Inbox' },
  { title: 'GitHub - deskpilot/pulls' },
  { title: 'Hacker News' },
];

describeDesktop('the documentation\'s runnable examples, run through bash against the test desktop', () => {
  let desk: Desktop;
  let raw: RawCdp;
  let dir: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    // The companion extension, as `deskpilot chrome launch` loads it: the tab manager's examples pin and group.
    desk = await startDesktop({ chrome: true, apps: ['xterm', 'xclock'], extensions: [COMPANION_DIR] });
    raw = await RawCdp.connect(desk.chrome!.browserWsUrl);
    const before = await raw.pages();
    for (const query of TABS) await raw.open(desk.pages.url('page', query));
    for (const p of before) await raw.close(p.targetId);

    dir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-docs-'));
    const bin = path.join(dir, 'bin');
    mkdirSync(bin);
    // `deskpilot` on PATH, as `npm link` makes it: this checkout's bin/deskpilot.js.
    writeFileSync(path.join(bin, 'deskpilot'), `#!/bin/sh\nexec '${process.execPath}' '${CLI}' "$@"\n`);
    chmodSync(path.join(bin, 'deskpilot'), 0o755);
    const own = (name: string) => {
      const d = path.join(dir, name);
      mkdirSync(d, { mode: 0o700 });
      return d;
    };
    env = {
      ...desk.env,
      PATH: `${bin}${path.delimiter}${desk.env.PATH ?? ''}`,
      DESKPILOT_CONFIG_DIR: own('config'),
      DESKPILOT_CHROME_URL: desk.chrome!.browserWsUrl,
      // No LLM: the examples must work with the offline matcher alone.
      DESKPILOT_LLM_MODEL: '',
      // Nothing of this machine's own DeskPilot (its service's socket, its state) is touched.
      XDG_RUNTIME_DIR: own('runtime'),
      XDG_STATE_HOME: own('xdg-state'),
      XDG_CACHE_HOME: own('xdg-cache'),
      DESKPILOT_STATE_DIR: own('state'),
    };
  });

  afterAll(async () => {
    await raw?.dispose();
    await desk?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it.each(examples.map((e) => [e.where, e]))('%s', (_where, example) => {
    const r = bash(example.command, env, dir);
    expect(r.code, `${example.command}\n--- stdout\n${r.stdout}--- stderr\n${r.stderr}`).toBe(example.expectedCode);
  });
});

/** One line as a reader runs it, with no terminal on stdin (so what asks first says so and runs nothing). */
function bash(command: string, env: NodeJS.ProcessEnv, cwd: string): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync('bash', ['-c', command], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', timeout: EXAMPLE_TIMEOUT_MS });
  if (r.error) throw r.error;
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

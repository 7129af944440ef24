// Launching a catalog app onto a real (virtual) X desktop. The result is checked with independent
// tools — wmctrl, xdotool, /proc — never through the catalog itself.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { AppCatalog } from '../../src/engine/ports';
import { AppLaunchError } from '../../src/platform/apps/app-launch-error';
import { createAppCatalog } from '../../src/platform/apps/create-app-catalog';
import { describeDesktop } from '../support/describe-desktop';
import { startDesktop, type Desktop } from '../support/desktop';
import { stopGroup } from '../support/process-group';
import { waitFor, WAIT_MS } from '../support/wait-for';

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(cmd, args, { env, timeout: WAIT_MS }, (err, stdout, stderr) =>
      err ? reject(new Error(`${cmd} ${args.join(' ')}: ${err.message} ${stderr}`)) : resolve(stdout),
    ),
  );
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    // A zombie still answers kill(0); it is gone for our purposes.
    return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** Process groups started by the tests; killed in afterEach even when an assertion failed. */
const started: number[] = [];

describeDesktop('app catalog launch (real X desktop)', () => {
  let desk: Desktop;
  let dataHome: string;
  let catalog: AppCatalog;

  beforeAll(async () => {
    desk = await startDesktop({ chrome: false });
    dataHome = await mkdtemp(path.join(os.tmpdir(), 'deskpilot-apps-'));
    await mkdir(path.join(dataHome, 'applications'));
    await writeFile(
      path.join(dataHome, 'applications', 'test-clock.desktop'),
      '[Desktop Entry]\nType=Application\nName=Test Clock\nExec=xclock -title "Test Clock %u"\n',
    );
    await writeFile(
      path.join(dataHome, 'applications', 'broken.desktop'),
      '[Desktop Entry]\nType=Application\nName=Broken App\nExec=xterm-nope --flag %U\n',
    );
    // The catalog both finds the test's entries and launches onto the test desktop through this env.
    catalog = createAppCatalog('linux', { ...desk.env, XDG_DATA_HOME: dataHome });
  });

  afterEach(async () => {
    await Promise.all(started.splice(0).map(stopGroup));
  });

  afterAll(async () => {
    await desk?.stop();
    if (dataHome) await rm(dataHome, { recursive: true, force: true });
  });

  it('launches a .desktop entry onto the display with field codes stripped', async () => {
    const app = (await catalog.list()).find((a) => a.name === 'Test Clock');
    expect(app).toMatchObject({ id: 'test-clock.desktop', windowKeys: ['test-clock', 'xclock'] });

    const { pid } = await catalog.launch(app!);
    expect(pid).toBeGreaterThan(1);
    started.push(pid!);

    // Its own process group, so DeskPilot's signals and exit never reach it.
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    expect(Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2])).toBe(pid);

    const argv = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0').slice(0, -1);
    expect(argv).toEqual(['xclock', '-title', 'Test Clock ']);
    expect(argv.join(' ')).not.toContain('%');

    const ids = await waitFor('a visible window of the launched xclock', async () => {
      // xdotool exits 1 while nothing matches.
      const out = await run('xdotool', ['search', '--onlyvisible', '--pid', String(pid)], desk.env).catch(() => '');
      return out.trim() ? out.trim().split('\n') : undefined;
    });
    expect(ids.length).toBeGreaterThan(0);
    const line = await waitFor('wmctrl to list the window with its pid', async () =>
      (await run('wmctrl', ['-lp'], desk.env)).split('\n').find((l) => l.split(/\s+/)[2] === String(pid)),
    );
    expect(line).toMatch(/Test Clock\s*$/);
    const wmClass = await run('xprop', ['-id', ids[0]!, 'WM_CLASS'], desk.env);
    expect(wmClass.toLowerCase()).toContain('"xclock"'); // one of the window keys the catalog announced

    await stopGroup(pid!);
    expect(alive(pid!)).toBe(false);
  });

  it('reports a missing binary by app and command', async () => {
    const app = (await catalog.list()).find((a) => a.name === 'Broken App');
    expect(app).toBeDefined();
    const err = await catalog.launch(app!).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(AppLaunchError);
    expect((err as Error).message).toBe('could not start Broken App: xterm-nope not found');
  });
});

// Reopening a recent file on a real (virtual) X desktop: the snapshot lists the desktop's
// recent files (a real recently-used.xbel in a temporary HOME), open_recent opens a listed one
// in the app its .desktop entry starts (xterm here), and refuses a path the snapshot did not list.
// The window is checked with wmctrl and /proc, not through DeskPilot.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { buildContext } from '../../src/engine/context-builder';
import { executeOne, type ExecutionPorts } from '../../src/engine/execute';
import { resolveBatch } from '../../src/engine/resolve';
import { UndoCollector } from '../../src/engine/undo-collector';
import { createAppCatalog } from '../../src/platform/apps/create-app-catalog';
import { createRecentPlaces } from '../../src/platform/apps/recent/recent-places';
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

const started: number[] = [];

describeDesktop('open_recent (real X desktop)', () => {
  let desk: Desktop;
  let home: string;
  let env: NodeJS.ProcessEnv;
  let notes: string;

  beforeAll(async () => {
    desk = await startDesktop({ chrome: false });
    home = await mkdtemp(path.join(os.tmpdir(), 'deskpilot-open-recent-'));
    const share = path.join(home, '.local', 'share');
    await mkdir(path.join(share, 'applications'), { recursive: true });
    await mkdir(path.join(home, 'notes'));
    notes = path.join(home, 'notes', 'standup notes.txt');
    await writeFile(notes, 'yesterday: open_recent\n');
    // A viewer that keeps its window open on the file (Terminal=false: xterm is the window).
    await writeFile(path.join(share, 'applications', 'test-viewer.desktop'), '[Desktop Entry]\nType=Application\nName=Test Viewer\nExec=xterm -T "Test Viewer" -e tail -f %f\n');
    await writeFile(
      path.join(share, 'recently-used.xbel'),
      `<?xml version="1.0" encoding="UTF-8"?>
<xbel version="1.0" xmlns:bookmark="http://www.freedesktop.org/standards/desktop-bookmarks" xmlns:mime="http://www.freedesktop.org/standards/shared-mime-info">
  <bookmark href="${pathToFileURL(notes).href}" added="2026-11-30T08:00:00Z" modified="2026-11-30T08:00:00Z" visited="2026-11-30T08:00:00Z">
    <info><metadata owner="http://freedesktop.org"><mime:mime-type type="text/plain"/>
      <bookmark:applications><bookmark:application name="Test Viewer" exec="&apos;xterm %f&apos;" modified="2026-11-30T08:00:00Z" count="1"/></bookmark:applications>
    </metadata></info>
  </bookmark>
</xbel>
`,
    );
    env = { ...desk.env, HOME: home, XDG_DATA_HOME: share, XDG_CONFIG_HOME: path.join(home, '.config') };
  });

  afterEach(async () => {
    await Promise.all(started.splice(0).map(stopGroup));
  });

  afterAll(async () => {
    await desk?.stop();
    if (home) await rm(home, { recursive: true, force: true });
  });

  it('the snapshot lists the recent file; open_recent opens it in the named app, and refuses a path not listed', async () => {
    const apps = createAppCatalog('linux', env);
    const recent = createRecentPlaces({ platform: 'linux', env, catalog: apps });
    const snap = await buildContext({
      chrome: () => Promise.reject(new Error('no Chrome in this test')),
      windows: null,
      apps,
      presets: { list: async () => [], save: async () => undefined, delete: async () => false },
      recent,
    });
    expect(snap.recent_files).toEqual([{ path: notes, app: 'Test Viewer', used_at: '2026-11-30T08:00:00.000Z' }]);
    expect(snap.recent_projects).toEqual([]);

    const refused = resolveBatch([{ type: 'open_recent', path: path.join(home, '.bashrc') }], snap);
    expect(refused.ok ? 'resolved' : refused.errors.map((e) => `${e.path}: ${e.message}`)).toEqual([
      `commands[0].path: "${path.join(home, '.bashrc')}" is not one of the recent files or projects in the snapshot; only a listed path can be opened (listed: "standup notes.txt")`,
    ]);

    const resolved = resolveBatch([{ type: 'open_recent', path: notes, app_name: 'test viewer' }], snap);
    if (!resolved.ok) throw new Error(JSON.stringify(resolved.errors));
    const ports = { recent, apps, windows: null } as unknown as ExecutionPorts;
    const undo = new UndoCollector();
    const { result, error } = await executeOne(resolved.plan[0]!, { ports, snap: async () => snap, undo });
    expect(error).toBeUndefined();
    expect(result).toMatchObject({ ok: true, message: `Opened ${notes} in Test Viewer (undo does not close it)` });
    const pid = (result!.data as { pid: number }).pid;
    started.push(pid);
    // Undo right after says it cannot close it, rather than undoing an older batch.
    expect(undo.entry('b1', 0, 'open')?.irreversible).toEqual([`opening ${notes} (close it yourself)`]);

    const argv = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0').slice(0, -1);
    expect(argv).toEqual(['xterm', '-T', 'Test Viewer', '-e', 'tail', '-f', notes]);
    const line = await waitFor('wmctrl to list the viewer window', async () =>
      (await run('wmctrl', ['-lp'], desk.env)).split('\n').find((l) => l.split(/\s+/)[2] === String(pid)),
    );
    expect(line).toMatch(/Test Viewer\s*$/);
  });
});

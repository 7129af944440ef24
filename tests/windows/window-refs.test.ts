import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../support/cli';
import { describeDesktop } from '../support/describe-desktop';
import { launch, startDesktop, stopProc, type Desktop, type Proc } from '../support/desktop';
import { expectFrameNear } from '../support/expect-frame';
import { waitFor } from '../support/wait-for';
import { frameOf, wmWindows, type Frame } from '../support/x-observe';

// Issue 27, in words, on the real test desktop (Xvfb with LEFT and RIGHT monitors, openbox):
// three xterms titled "logs", "build" and "notes", left to right. "the second xterm" moves
// exactly that window; "put xterm right" asks which and moves nothing; "both terminals left"
// moves both of two. Frames are read back with xwininfo/xprop, never through DeskPilot.

const TITLES = ['logs', 'build', 'notes'] as const;
// Left to right: two on the left monitor, one on the right (xterm -geometry COLSxROWS+X+Y).
const GEOMETRY = { logs: '50x10+40+200', build: '50x10+700+200', notes: '50x10+2200+200' };

describeDesktop('window words on a real X11 desktop (issue 27)', () => {
  let desk: Desktop;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const ids: Record<string, string> = {};
  const xterms: Record<string, Proc> = {};

  const run = (words: string) => runCli(['run', '--planner', 'local', '--yes', words], { env });
  const exec = (json: unknown) => runCli(['exec', JSON.stringify(json)], { env });
  const frames = (titles: readonly string[] = TITLES) => Object.fromEntries(titles.map((t) => [t, frameOf(env, ids[t]!)])) as Record<string, Frame>;
  const onLeft = (f: Frame) => f[0] >= 0 && f[2] <= 1920;
  const onRight = (f: Frame) => f[0] >= 1920 && f[2] <= 3840;

  beforeAll(async () => {
    desk = await startDesktop({ chrome: false });
    for (const title of TITLES) xterms[title] = await launch(title, 'xterm', ['-T', title, '-geometry', GEOMETRY[title]], desk.env);
    await waitFor('three xterm windows', () => TITLES.every((t) => wmWindows(desk.env).some((w) => w.title === t)));
    for (const w of wmWindows(desk.env)) if ((TITLES as readonly string[]).includes(w.title)) ids[w.title] = `0x${w.id.toString(16)}`;
    dir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-window-refs-'));
    mkdirSync(path.join(dir, 'data', 'applications'), { recursive: true });
    env = { ...desk.env, DESKPILOT_CONFIG_DIR: path.join(dir, 'config'), XDG_DATA_HOME: path.join(dir, 'data'), XDG_DATA_DIRS: '/usr/share', DESKPILOT_LLM_MODEL: '' };
    // The windows are where -geometry put them, in that order from left to right.
    const f = frames();
    expect(f.logs![0] < f.build![0] && f.build![0] < f.notes![0]).toBe(true);
    expect(onRight(f.notes!)).toBe(true);
  });

  afterAll(async () => {
    for (const p of Object.values(xterms)) await stopProc(p);
    await desk?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('"put the second xterm left half" moves exactly the second from the left, and no other', async () => {
    const before = frames();
    const r = await run('put the second xterm left half');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const after = frames();
    // Left half of LEFT (openbox on Xvfb leaves the whole monitor as work area).
    expectFrameNear(after.build!, [0, 0, 960, 1080]);
    expect(after.logs).toEqual(before.logs);
    expect(after.notes).toEqual(before.notes);
  });

  it('"put xterm right" with three xterms asks which, naming each by title, and moves nothing', async () => {
    const before = frames();
    const r = await run('put xterm right');
    expect(r.code).toBe(3);
    expect(r.stdout + r.stderr).toMatch(/XTerm has 3 windows — which one\?/);
    for (const t of TITLES) expect(r.stdout + r.stderr).toContain(`"${t}"`);
    expect(frames()).toEqual(before);
  });

  it('an exact command naming the app and no window is asked about too (prepare), and moves nothing', async () => {
    const before = frames();
    const r = await exec({ type: 'place_app', app_name: 'XTerm', monitor: 'right' });
    expect(r.code).toBe(3);
    expect(r.json.status).toBe('clarification');
    expect(r.json.clarification.reason).toMatch(/^XTerm has 3 windows — which one\?/);
    for (const t of TITLES) expect(r.json.clarification.reason).toContain(`"${t}" (window_id ${ids[t]}`);
    expect(frames()).toEqual(before);
  });

  it('"the xterm titled notes" names its window, on the other monitor', async () => {
    const before = frames();
    const r = await run('move the xterm titled notes to the left monitor');
    expect(r.code).toBe(0);
    const after = frames();
    expect(onLeft(after.notes!)).toBe(true);
    expect(after.logs).toEqual(before.logs);
    expect(after.build).toEqual(before.build);
  });

  it('"both terminals left" with two xterms moves both of them to the left monitor', async () => {
    await stopProc(xterms.notes!);
    await waitFor('the third xterm gone', () => !wmWindows(env).some((w) => w.title === 'notes'));
    // Both start on the right monitor.
    const put = await exec([
      { type: 'place_app', app_name: 'XTerm', window_id: ids.logs, bounds: [2000, 100, 2400, 400] },
      { type: 'place_app', app_name: 'XTerm', window_id: ids.build, bounds: [2600, 500, 3000, 800] },
    ]);
    expect(put.code).toBe(0);
    expect(Object.values(frames(['logs', 'build'])).every(onRight)).toBe(true);
    const r = await run('both terminals left');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const after = frames(['logs', 'build']);
    expect(onLeft(after.logs!)).toBe(true);
    expect(onLeft(after.build!)).toBe(true);
  });
});

import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../support/cli';
import { serviceSocketPath } from '../../src/platform/service/socket-path';

// Where DeskPilot's files live and who may read them (issue 24 D9, issue 25), with the real CLI:
// settings in the XDG config folder, what it records in the XDG state folder (moved there once
// from the config folder, never lost), folders 0700 and files 0600.

const QUERY = JSON.stringify({ type: 'query', question: 'how many tabs are open' });
const modeOf = (p: string) => statSync(p).mode & 0o777;
const oldRecord = JSON.stringify({
  _v: 1,
  id: 'old-1',
  batchId: 'old-batch',
  deviceId: 'device-old',
  type: 'switch_tab',
  payload: { type: 'switch_tab', tab_index: 1 },
  createdAt: 1,
  finishedAt: 2,
  result: { ok: true, message: 'Switched to tab 1' },
});

describe('state and config folders (real CLI, real files)', () => {
  let tmp: string;
  let home: string;
  let env: NodeJS.ProcessEnv;
  beforeEach(() => {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-dirs-'));
    home = path.join(tmp, 'home');
    mkdirSync(home);
    // Nothing of the test runner's own folders: only HOME decides (no desktop needed for a query).
    env = { PATH: process.env.PATH, HOME: home, DESKPILOT_NO_SERVICE: '1' };
  });
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  const configDir = () => path.join(home, '.config', 'deskpilot');
  const stateDir = () => path.join(home, '.local', 'state', 'deskpilot');
  const query = async (e: NodeJS.ProcessEnv = env): Promise<CliResult> => {
    const r = await runCli(['exec', QUERY], { env: e });
    expect(r.json?.status, r.stderr).toBe('done');
    return r;
  };
  const historyIds = (file: string) => readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l).id as string);

  it('fresh: history goes to ~/.local/state/deskpilot, folders are 0700 and files 0600', async () => {
    await query();
    const history = path.join(stateDir(), 'history.jsonl');
    expect(existsSync(history)).toBe(true);
    expect(existsSync(path.join(configDir(), 'history.jsonl'))).toBe(false);
    expect(modeOf(history)).toBe(0o600);
    expect(modeOf(stateDir())).toBe(0o700);
    expect(modeOf(configDir())).toBe(0o700);
    expect(modeOf(path.join(configDir(), 'device-id'))).toBe(0o600);
  });

  it('an absolute XDG_STATE_HOME is used; a relative one is ignored with a warning', async () => {
    const xdgState = path.join(tmp, 'xdg-state');
    await query({ ...env, XDG_STATE_HOME: xdgState });
    expect(existsSync(path.join(xdgState, 'deskpilot', 'history.jsonl'))).toBe(true);

    const r = await runCli(['exec', QUERY], { env: { ...env, XDG_STATE_HOME: 'relative/state' } });
    expect(r.json?.status).toBe('done');
    expect(r.stderr).toContain('XDG_STATE_HOME is a relative path ("relative/state"), which the XDG Base Directory specification says to ignore');
    expect(existsSync(path.join(stateDir(), 'history.jsonl'))).toBe(true);
  });

  it('DESKPILOT_CONFIG_DIR alone keeps everything in that folder (a second profile, a test)', async () => {
    const dir = path.join(tmp, 'profile');
    await query({ ...env, DESKPILOT_CONFIG_DIR: dir });
    expect(existsSync(path.join(dir, 'history.jsonl'))).toBe(true);
    expect(existsSync(stateDir())).toBe(false);
    expect(modeOf(dir)).toBe(0o700);
  });

  it('folders and files made readable by others before are tightened at start (owned by the user only)', async () => {
    mkdirSync(configDir(), { recursive: true, mode: 0o755 });
    chmodSync(configDir(), 0o755);
    for (const name of ['presets.json', 'turns.json', 'undo.json', 'history.jsonl']) {
      writeFileSync(path.join(configDir(), name), name === 'history.jsonl' ? oldRecord + '\n' : name === 'presets.json' ? '{"version":1,"presets":[]}' : '{"version":1,"' + (name === 'turns.json' ? 'turns' : 'entries') + '":[]}', { mode: 0o644 });
      chmodSync(path.join(configDir(), name), 0o644);
    }
    await query();
    expect(modeOf(configDir())).toBe(0o700);
    expect(modeOf(path.join(configDir(), 'presets.json'))).toBe(0o600);
    for (const name of ['turns.json', 'undo.json', 'history.jsonl']) expect(modeOf(path.join(stateDir(), name)), name).toBe(0o600);
  });

  it('a --config-dir folder that holds other things: only the files of DeskPilot are tightened, never the rest or the folder', async () => {
    const project = path.join(tmp, 'project');
    mkdirSync(project, { mode: 0o755 });
    chmodSync(project, 0o755);
    const files = { 'build.sh': 0o755, 'notes.txt': 0o644, 'config.json': 0o644, 'history.jsonl': 0o644 };
    for (const [name, mode] of Object.entries(files)) {
      writeFileSync(path.join(project, name), name === 'config.json' ? '{}' : name === 'history.jsonl' ? oldRecord + '\n' : 'x');
      chmodSync(path.join(project, name), mode);
    }
    await query({ ...env, DESKPILOT_CONFIG_DIR: project });
    expect(modeOf(path.join(project, 'config.json'))).toBe(0o600);
    expect(modeOf(path.join(project, 'history.jsonl'))).toBe(0o600);
    expect(modeOf(path.join(project, 'build.sh'))).toBe(0o755);
    expect(modeOf(path.join(project, 'notes.txt'))).toBe(0o644);
    expect(modeOf(project)).toBe(0o755);
  });

  it('history in the old config folder is moved once to the state folder, and nothing of it is lost', async () => {
    mkdirSync(configDir(), { recursive: true });
    const old = path.join(configDir(), 'history.jsonl');
    writeFileSync(old, oldRecord + '\n');
    const first = await query();
    expect(first.stderr).toContain(`moved ${old} to ${path.join(stateDir(), 'history.jsonl')}`);
    expect(existsSync(old)).toBe(false);
    const ids = historyIds(path.join(stateDir(), 'history.jsonl'));
    expect(ids[0]).toBe('old-1');
    expect(ids).toHaveLength(2);

    const second = await query();
    expect(second.stderr).not.toContain('moved');
    expect(historyIds(path.join(stateDir(), 'history.jsonl'))).toHaveLength(3);
  });

  it('an existing state file is never replaced by the old one: both are kept, the state one is used, and that is said', async () => {
    mkdirSync(configDir(), { recursive: true });
    mkdirSync(stateDir(), { recursive: true });
    const old = path.join(configDir(), 'history.jsonl');
    writeFileSync(old, oldRecord + '\n');
    writeFileSync(path.join(stateDir(), 'history.jsonl'), oldRecord.replace('old-1', 'state-1') + '\n');
    const r = await query();
    expect(r.stderr).toContain(`${old} is left where it was`);
    expect(readFileSync(old, 'utf8')).toBe(oldRecord + '\n');
    expect(historyIds(path.join(stateDir(), 'history.jsonl'))[0]).toBe('state-1');
  });

  it("DeskPilot's Chrome profile folder moves with everything in it", async () => {
    const old = path.join(configDir(), 'chrome-profile');
    mkdirSync(path.join(old, 'Default'), { recursive: true });
    writeFileSync(path.join(old, 'Default', 'Cookies'), 'the user is signed in');
    await query();
    expect(existsSync(old)).toBe(false);
    expect(readFileSync(path.join(stateDir(), 'chrome-profile', 'Default', 'Cookies'), 'utf8')).toBe('the user is signed in');
  });

  it('a relative XDG_RUNTIME_DIR is not used for the service socket', () => {
    const socket = serviceSocketPath(path.join(tmp, 'cfg'), { XDG_RUNTIME_DIR: 'run/user' }, 'linux');
    expect(path.isAbsolute(socket)).toBe(true);
    expect(socket).toBe(path.join(tmp, 'cfg', 'run', 'service.sock'));
  });

  // Root writes anywhere, so the read-only target is made real by running the CLI as nobody.
  it.skipIf(process.getuid?.() !== 0)('a state folder that cannot be written: the old file stays in use and nothing is lost', async () => {
    const nobody = 65534;
    chmodSync(tmp, 0o755);
    chownSync(home, nobody, nobody);
    mkdirSync(configDir(), { recursive: true });
    const old = path.join(configDir(), 'history.jsonl');
    writeFileSync(old, oldRecord + '\n');
    for (const p of [path.join(home, '.config'), configDir(), old]) chownSync(p, nobody, nobody);
    // The state home belongs to root and is 0755: nobody cannot create deskpilot/ in it.
    const xdgState = path.join(tmp, 'root-state');
    mkdirSync(xdgState, { mode: 0o755 });
    const r = await runCli(['exec', QUERY], { env: { ...env, XDG_STATE_HOME: xdgState }, uid: nobody });
    expect(r.json?.status, r.stderr).toBe('done');
    expect(r.stderr).toContain(`${old} stays in use: it could not be moved to ${path.join(xdgState, 'deskpilot')} (permission denied)`);
    expect(historyIds(old)).toEqual(['old-1', expect.any(String)]);
    expect(existsSync(path.join(xdgState, 'deskpilot'))).toBe(false);
  });
});

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKwinWindowBackend } from './kwin-backend';

// Where the KWin backend cannot work, it says why — against a real dbus-daemon with no KWin on it
// (tests/windows/kwin.test.ts runs the backend against a real KWin).

const hasDbusDaemon = (process.env.PATH ?? '').split(':').some((dir) => {
  try {
    return statSync(path.join(dir, 'dbus-daemon')).isFile();
  } catch {
    return false;
  }
});

describe('the KWin backend outside a KDE session', () => {
  it('without a session bus address it says it needs the KDE session bus', async () => {
    const backend = await createKwinWindowBackend({ env: {} });
    await expect(backend.listWindows()).rejects.toMatchObject({ code: 'windows_unavailable', message: expect.stringMatching(/needs the KDE session bus/) });
    await backend.dispose();
  });

  it('a bus address nobody listens on is named in the error', async () => {
    const backend = await createKwinWindowBackend({ env: { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/deskpilot-bus' } });
    await expect(backend.listMonitors()).rejects.toMatchObject({
      code: 'windows_unavailable',
      message: expect.stringMatching(/^cannot reach the KDE session bus at unix:path=\/nonexistent\/deskpilot-bus: /),
    });
    await backend.dispose();
  });

  describe.skipIf(!hasDbusDaemon)('on a real session bus without KWin (needs dbus-daemon)', () => {
    let dir: string;
    let daemon: ChildProcess;
    let address: string;

    beforeAll(async () => {
      dir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-kwin-nobus-'));
      address = `unix:path=${path.join(dir, 'bus')}`;
      daemon = spawn('dbus-daemon', ['--session', '--nofork', '--nopidfile', `--address=${address}`, '--print-address=1'], { stdio: ['ignore', 'pipe', 'ignore'] });
      await new Promise((resolve) => daemon.stdout!.once('data', resolve));
    });

    afterAll(() => {
      daemon?.kill('SIGKILL');
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('says KWin is not on the bus', async () => {
      const backend = await createKwinWindowBackend({ env: { DBUS_SESSION_BUS_ADDRESS: address } });
      await expect(backend.focused()).rejects.toMatchObject({
        code: 'windows_unavailable',
        message: expect.stringMatching(/^KWin \(org\.kde\.KWin\) is not on this session bus: is this a KDE Plasma session, and is KWin running\?/),
      });
      await backend.dispose();
    });
  });
});

import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { autostartFile, desktopEntry, execLine, setAutostart } from './autostart-linux';
import { applyLoginItem, startCommand } from './login-item';

describe('Linux autostart entry', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'deskpilot-autostart-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('lives in $XDG_CONFIG_HOME/autostart, else ~/.config/autostart', () => {
    expect(autostartFile({ XDG_CONFIG_HOME: '/x/cfg' }, '/home/u')).toBe('/x/cfg/autostart/deskpilot.desktop');
    expect(autostartFile({}, '/home/u')).toBe('/home/u/.config/autostart/deskpilot.desktop');
    expect(autostartFile({ XDG_CONFIG_HOME: 'relative' }, '/home/u')).toBe('/home/u/.config/autostart/deskpilot.desktop');
  });

  it('writes an entry that starts DeskPilot hidden, creating the directory, and removes it', async () => {
    const file = path.join(dir, 'autostart', 'deskpilot.desktop');
    await setAutostart(file, ['/opt/DeskPilot/deskpilot', '--hidden']);
    const text = await readFile(file, 'utf8');
    expect(text.split('\n')).toEqual([
      '[Desktop Entry]',
      'Type=Application',
      'Name=DeskPilot',
      'Comment=Menu-bar desktop assistant',
      'Exec=/opt/DeskPilot/deskpilot --hidden',
      'Terminal=false',
      'X-GNOME-Autostart-enabled=true',
      '',
    ]);
    await setAutostart(file, ['/opt/DeskPilot/deskpilot', '--hidden']); // idempotent
    await setAutostart(file, null);
    await expect(stat(file)).rejects.toMatchObject({ code: 'ENOENT' });
    await setAutostart(file, null); // removing what is not there is fine
  });

  it('quotes paths with spaces and escapes what the Exec key reserves', () => {
    expect(execLine(['/home/u/My Apps/DeskPilot.AppImage', '--hidden'])).toBe('"/home/u/My Apps/DeskPilot.AppImage" --hidden');
    expect(execLine(['/a/$x"y`z\\w'])).toBe('"/a/\\$x\\"y\\`z\\\\w"');
    expect(execLine(['/a/100%'])).toBe('/a/100%%');
    expect(desktopEntry(['/usr/bin/deskpilot'])).toContain('Exec=/usr/bin/deskpilot\n');
  });

  it('the login item: an autostart file on Linux, Electron elsewhere (fake Electron objects)', async () => {
    const file = path.join(dir, 'autostart', 'deskpilot.desktop');
    const app = { setLoginItemSettings: vi.fn() };
    const argv = startCommand({ execPath: '/tmp/.mount_x/deskpilot', appImage: '/home/u/DeskPilot.AppImage', packaged: true, appPath: '/tmp/.mount_x/resources/app.asar' });
    expect(argv).toEqual(['/home/u/DeskPilot.AppImage']);
    await applyLoginItem(true, { platform: 'linux', app, autostart: { file, argv } });
    expect(await readFile(file, 'utf8')).toContain('Exec=/home/u/DeskPilot.AppImage --hidden\n');
    await applyLoginItem(false, { platform: 'linux', app, autostart: { file, argv } });
    await expect(stat(file)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(app.setLoginItemSettings).not.toHaveBeenCalled();

    await applyLoginItem(true, { platform: 'darwin', app, autostart: { file, argv } });
    await applyLoginItem(false, { platform: 'win32', app, autostart: { file, argv } });
    expect(app.setLoginItemSettings.mock.calls).toEqual([[{ openAtLogin: true }], [{ openAtLogin: false, args: ['--hidden'] }]]);
    await expect(stat(file)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('starts the executable when packaged without an AppImage, Electron plus the app dir unpackaged', () => {
    expect(startCommand({ execPath: '/opt/DeskPilot/deskpilot', packaged: true, appPath: '/opt/DeskPilot/resources/app.asar' })).toEqual(['/opt/DeskPilot/deskpilot']);
    expect(startCommand({ execPath: '/x/electron', packaged: false, appPath: '/src/deskpilot' })).toEqual(['/x/electron', '/src/deskpilot']);
  });
});

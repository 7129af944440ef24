import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildLnk } from './lnk-fixture';
import { createWindowsCatalog, startMenuDirs } from './windows-catalog';

let tmp: string;
let appData: string;
let programData: string;

beforeEach(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'deskpilot-win-'));
  appData = path.join(tmp, 'AppData', 'Roaming');
  programData = path.join(tmp, 'ProgramData');
});
afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

const programs = (base: string) => path.join(base, 'Microsoft', 'Windows', 'Start Menu', 'Programs');

async function shortcut(base: string, rel: string, target: string | null): Promise<string> {
  const file = path.join(programs(base), rel);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, target === null ? buildLnk(null) : buildLnk(target));
  return file;
}

describe('Windows catalog (fake Start menu tree)', () => {
  it('finds the per-user and all-users Start menus, environment names in any case', () => {
    expect(startMenuDirs({ appdata: appData, PROGRAMDATA: programData })).toEqual([programs(appData), programs(programData)]);
    expect(startMenuDirs({})).toEqual([]);
  });

  it('lists shortcuts recursively, skips uninstallers, dedupes by place and reads target exe names', async () => {
    await shortcut(programData, 'Firefox.lnk', 'C:\\Program Files\\Mozilla Firefox\\firefox.exe');
    await shortcut(programData, path.join('Accessories', 'Notepad.lnk'), 'C:\\Windows\\system32\\notepad.exe');
    await shortcut(programData, path.join('7-Zip', 'Uninstall 7-Zip.lnk'), 'C:\\Program Files\\7-Zip\\Uninstall.exe');
    await shortcut(programData, path.join('7-Zip', '7-Zip File Manager.lnk'), 'C:\\Program Files\\7-Zip\\7zFM.exe');
    await shortcut(programData, 'Word.lnk', null); // advertised (MSI) shortcut: no local target
    await shortcut(programData, path.join('Tools', 'Help.lnk'), 'C:\\Tools\\help.exe');
    await shortcut(appData, 'Help.lnk', 'C:\\Users\\me\\help.exe');
    await shortcut(appData, 'firefox.lnk', 'C:\\Users\\me\\portable\\firefox.exe'); // same place as the all-users one: user's wins
    await writeFile(path.join(programs(appData), 'desktop.ini'), '[.ShellClassInfo]');
    const list = await createWindowsCatalog({ env: { APPDATA: appData, ProgramData: programData } }).list();
    expect(list).toEqual([
      { name: '7-Zip File Manager', id: path.join(programs(programData), '7-Zip', '7-Zip File Manager.lnk'), windowKeys: ['7-zip file manager', '7zfm.exe', '7zfm'] },
      { name: 'firefox', id: path.join(programs(appData), 'firefox.lnk'), windowKeys: ['firefox', 'firefox.exe'] },
      { name: 'Help', id: path.join(programs(appData), 'Help.lnk'), windowKeys: ['help', 'help.exe'] },
      { name: 'Help (Tools)', id: path.join(programs(programData), 'Tools', 'Help.lnk'), windowKeys: ['help', 'help.exe'] },
      { name: 'Notepad', id: path.join(programs(programData), 'Accessories', 'Notepad.lnk'), windowKeys: ['notepad', 'notepad.exe'] },
      { name: 'Word', id: path.join(programs(programData), 'Word.lnk'), windowKeys: ['word'] },
    ]);
  });

  it('launches with cmd /c start, passing the shortcut through the environment', async () => {
    const file = await shortcut(programData, 'Odd %PATH% & Co.lnk', 'C:\\odd.exe');
    const log = path.join(tmp, 'cmd.log');
    const fakeCmd = path.join(tmp, 'fake-cmd');
    await writeFile(fakeCmd, `#!/bin/sh\nprintf '%s\\n' "$@" "$DESKPILOT_LAUNCH_TARGET" > "${log}"\n`);
    await chmod(fakeCmd, 0o755);
    const catalog = createWindowsCatalog({ env: { ProgramData: programData }, cmdCommand: fakeCmd });
    const [app] = await catalog.list();
    expect(app!.name).toBe('Odd %PATH% & Co');
    expect(await catalog.launch(app!)).toEqual({ pid: null });
    expect((await readFile(log, 'utf8')).split('\n')).toEqual(['/d', '/s', '/c', '"start "" "%DESKPILOT_LAUNCH_TARGET%""', file, '']);
    await rm(file);
    await expect(catalog.launch(app!)).rejects.toThrow(/could not start Odd %PATH% & Co: .* no longer exists/);
  });
});

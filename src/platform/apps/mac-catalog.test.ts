import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMacCatalog } from './mac-catalog';

let root: string;
let home: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'deskpilot-mac-'));
  home = path.join(root, 'Users', 'me');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const plist = (strings: Record<string, string>) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<dict>\n${Object.entries(strings)
    .map(([k, v]) => `\t<key>${k}</key>\n\t<string>${v}</string>`)
    .join('\n')}\n</dict>\n</plist>\n`;

async function bundle(dir: string, name: string, info: string | Buffer | null): Promise<string> {
  const app = path.join(dir, `${name}.app`);
  await mkdir(path.join(app, 'Contents', 'MacOS'), { recursive: true });
  if (info !== null) await writeFile(path.join(app, 'Contents', 'Info.plist'), info);
  return app;
}

describe('macOS catalog (fake macOS Applications tree)', () => {
  beforeEach(async () => {
    const apps = path.join(root, 'Applications');
    await bundle(apps, 'Safari', plist({ CFBundleIdentifier: 'com.apple.Safari', CFBundleName: 'Safari', CFBundleExecutable: 'Safari' }));
    await bundle(apps, 'Visual Studio Code', plist({ CFBundleIdentifier: 'com.microsoft.VSCode', CFBundleName: 'Code', CFBundleDisplayName: 'Code', CFBundleExecutable: 'Electron' }));
    await bundle(path.join(apps, 'Utilities'), 'Terminal', plist({ CFBundleIdentifier: 'com.apple.Terminal', CFBundleName: 'Terminal' }));
    await bundle(path.join(apps, 'Vendor Suite'), 'Vendor Tool', Buffer.from('bplist00\u00d1\u0001\u0002', 'latin1'));
    await bundle(path.join(apps, 'Vendor Suite', 'Too Deep'), 'Hidden Deep', plist({ CFBundleName: 'Deep' }));
    await bundle(path.join(root, 'System', 'Applications'), 'Calculator', plist({ CFBundleIdentifier: 'com.apple.calculator', CFBundleDisplayName: 'Calculator' }));
    await bundle(path.join(root, 'System', 'Applications', 'Utilities'), 'Activity Monitor', null);
    await bundle(path.join(home, 'Applications'), 'Safari', plist({ CFBundleIdentifier: 'com.example.fake-safari', CFBundleName: 'Safari' }));
    await writeFile(path.join(apps, 'readme.txt'), 'not an app');
  });

  it('lists bundles one folder deep with names from Info.plist, falling back to the folder name', async () => {
    const list = await createMacCatalog({ root, env: { HOME: home } }).list();
    const a = (p: string) => path.join(root, p);
    expect(list).toEqual([
      { name: 'Activity Monitor', id: a('System/Applications/Utilities/Activity Monitor.app'), windowKeys: ['activity monitor'] },
      { name: 'Calculator', id: a('System/Applications/Calculator.app'), windowKeys: ['com.apple.calculator', 'calculator'] },
      { name: 'Code', id: a('Applications/Visual Studio Code.app'), windowKeys: ['com.microsoft.vscode', 'code', 'visual studio code', 'electron'] },
      { name: 'Safari', id: a('Applications/Safari.app'), windowKeys: ['com.apple.safari', 'safari'] },
      // The same name in ~/Applications is kept, qualified by its folder.
      { name: 'Safari (~/Applications)', id: a('Users/me/Applications/Safari.app'), windowKeys: ['com.example.fake-safari', 'safari'] },
      { name: 'Terminal', id: a('Applications/Utilities/Terminal.app'), windowKeys: ['com.apple.terminal', 'terminal'] },
      // Binary plist: not parsed, so the folder name it is.
      { name: 'Vendor Tool', id: a('Applications/Vendor Suite/Vendor Tool.app'), windowKeys: ['vendor tool'] },
    ]);
  });

  it('launches with open -a <bundle path> and reports failures', async () => {
    const log = path.join(root, 'open.log');
    const fakeOpen = path.join(root, 'fake-open');
    await writeFile(fakeOpen, `#!/bin/sh\nprintf '%s\\n' "$@" > "${log}"\n[ "$FAIL" = 1 ] && { echo "Unable to find application named 'x'" >&2; exit 1; }\nexit 0\n`);
    await chmod(fakeOpen, 0o755);
    const catalog = createMacCatalog({ root, env: { HOME: home, PATH: '/usr/bin:/bin' }, openCommand: fakeOpen });
    const code = (await catalog.list()).find((a) => a.name === 'Code')!;
    expect(await catalog.launch(code)).toEqual({ pid: null });
    expect((await readFile(log, 'utf8')).split('\n')).toEqual(['-a', code.id, '']);

    const failing = createMacCatalog({ root, env: { HOME: home, PATH: '/usr/bin:/bin', FAIL: '1' }, openCommand: fakeOpen });
    await expect(failing.launch(code)).rejects.toThrow(`could not start Code: ${fakeOpen} failed: Unable to find application named 'x'`);
    await expect(catalog.launch({ name: 'Gone', id: path.join(root, 'Applications', 'Gone.app'), windowKeys: [] })).rejects.toThrow(
      /could not start Gone: .*Gone\.app no longer exists/,
    );
  });
});

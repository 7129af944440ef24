import { chmod, mkdir, mkdtemp, readFile, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sleep } from '../../engine/sleep';
import { AppLaunchError } from './app-launch-error';
import { parseDesktopEntry } from './desktop-entry';
import { toXdgApp, xdgLaunchCommand, createXdgCatalog } from './xdg-catalog';
import { xdgApplicationDirs } from './xdg-dirs';

let tmp: string;
let home: string; // XDG_DATA_HOME
let sys1: string; // first XDG_DATA_DIRS entry
let sys2: string;
let bin: string; // the only PATH directory

beforeEach(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'deskpilot-xdg-'));
  [home, sys1, sys2, bin] = ['home', 'sys1', 'sys2', 'bin'].map((d) => path.join(tmp, d)) as [string, string, string, string];
  await mkdir(bin);
});
afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

const env = (): NodeJS.ProcessEnv => ({ HOME: tmp, PATH: bin, XDG_DATA_HOME: home, XDG_DATA_DIRS: `${sys1}:${sys2}` });

async function write(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
}

async function executable(name: string): Promise<string> {
  const file = path.join(bin, name);
  await writeFile(file, '#!/bin/sh\n');
  await chmod(file, 0o755);
  return file;
}

const entry = (fields: Record<string, string>) =>
  `[Desktop Entry]\n${Object.entries({ Type: 'Application', ...fields })
    .map(([k, v]) => `${k}=${v}`)
    .join('\n')}\n`;

const apps = (env: NodeJS.ProcessEnv) => createXdgCatalog({ env }).list();

describe('xdgApplicationDirs', () => {
  it('puts XDG_DATA_HOME before XDG_DATA_DIRS, with the spec defaults', () => {
    expect(xdgApplicationDirs({ HOME: '/home/u' })).toEqual([
      '/home/u/.local/share/applications',
      '/usr/local/share/applications',
      '/usr/share/applications',
    ]);
    expect(xdgApplicationDirs({ HOME: '/h', XDG_DATA_HOME: '/d', XDG_DATA_DIRS: '/a:relative:/b:' })).toEqual([
      '/d/applications',
      '/a/applications',
      '/b/applications',
    ]);
    expect(xdgApplicationDirs({ HOME: '/h', XDG_DATA_HOME: 'relative' })[0]).toBe('/h/.local/share/applications');
  });
});

describe('XDG catalog (real .desktop files in temp dirs)', () => {
  it('lists applications with names, desktop ids and window keys', async () => {
    await write(
      path.join(sys1, 'applications', 'org.example.Editor.desktop'),
      entry({ Name: 'Example Editor', Exec: '/opt/editor/bin/Example-Editor --new-window %F', StartupWMClass: 'ExampleEd' }),
    );
    await write(path.join(sys1, 'applications', 'term.desktop'), entry({ Name: 'Term', Exec: 'term' }));
    expect(await apps(env())).toEqual([
      { name: 'Example Editor', id: 'org.example.Editor.desktop', windowKeys: ['exampleed', 'org.example.editor', 'example-editor'] },
      { name: 'Term', id: 'term.desktop', windowKeys: ['term'] },
    ]);
  });

  it('derives desktop ids from nested directories (/ becomes -)', async () => {
    await write(path.join(sys1, 'applications', 'kde4', 'kate.desktop'), entry({ Name: 'Kate', Exec: 'kate' }));
    await write(path.join(sys1, 'applications', 'a', 'b', 'c.desktop'), entry({ Name: 'Deep', Exec: 'deep' }));
    const list = await apps(env());
    expect(list.map((a) => a.id).sort()).toEqual(['a-b-c.desktop', 'kde4-kate.desktop']);
    expect(list.find((a) => a.name === 'Kate')!.windowKeys).toEqual(['kde4-kate', 'kate']);
  });

  it('follows symlinked directories without looping', async () => {
    await write(path.join(sys2, 'apps-real', 'linked.desktop'), entry({ Name: 'Linked', Exec: 'linked' }));
    await mkdir(path.join(sys1, 'applications'), { recursive: true });
    await symlink(path.join(sys2, 'apps-real'), path.join(sys1, 'applications', 'vendor'));
    await symlink(path.join(sys1, 'applications'), path.join(sys1, 'applications', 'loop'));
    const list = await apps(env());
    expect(list.map((a) => a.id)).toEqual(['vendor-linked.desktop']);
  });

  it('lets XDG_DATA_HOME override and hide entries of the same id, and earlier data dirs win', async () => {
    await write(path.join(sys1, 'applications', 'over.desktop'), entry({ Name: 'System Over', Exec: 'over' }));
    await write(path.join(home, 'applications', 'over.desktop'), entry({ Name: 'User Over', Exec: 'over --mine' }));
    await write(path.join(sys1, 'applications', 'gone.desktop'), entry({ Name: 'Gone', Exec: 'gone' }));
    await write(path.join(home, 'applications', 'gone.desktop'), entry({ Name: 'Gone', Exec: 'gone', Hidden: 'true' }));
    await write(path.join(sys1, 'applications', 'first.desktop'), entry({ Name: 'First Dir', Exec: 'x' }));
    await write(path.join(sys2, 'applications', 'first.desktop'), entry({ Name: 'Second Dir', Exec: 'x' }));
    const list = await apps(env());
    expect(list.map((a) => a.name).sort()).toEqual(['First Dir', 'User Over']);
  });

  it('skips NoDisplay, Hidden, non-Application types, missing Name/Exec, bad Exec and missing TryExec', async () => {
    await executable('present');
    const dir = path.join(sys1, 'applications');
    await write(path.join(dir, 'nodisplay.desktop'), entry({ Name: 'NoDisplay', Exec: 'x', NoDisplay: 'true' }));
    await write(path.join(dir, 'hidden.desktop'), entry({ Name: 'Hidden', Exec: 'x', Hidden: 'true' }));
    await write(path.join(dir, 'link.desktop'), entry({ Type: 'Link', Name: 'Link', URL: 'https://example.com' }));
    await write(path.join(dir, 'noname.desktop'), entry({ Exec: 'x' }));
    await write(path.join(dir, 'noexec.desktop'), entry({ Name: 'No Exec', DBusActivatable: 'true' }));
    await write(path.join(dir, 'badexec.desktop'), entry({ Name: 'Bad Exec', Exec: 'run "unterminated' }));
    await write(path.join(dir, 'fieldonly.desktop'), entry({ Name: 'Field Only', Exec: '%U' }));
    await write(path.join(dir, 'tryexec-missing.desktop'), entry({ Name: 'Missing', Exec: 'x', TryExec: 'not-installed' }));
    await write(path.join(dir, 'tryexec-abs.desktop'), entry({ Name: 'Missing Abs', Exec: 'x', TryExec: '/nonexistent/bin/x' }));
    await write(path.join(dir, 'tryexec-ok.desktop'), entry({ Name: 'Present', Exec: 'present', TryExec: 'present' }));
    await write(path.join(dir, 'not-a-desktop-file.txt'), entry({ Name: 'Txt', Exec: 'x' }));
    await write(path.join(dir, 'groupless.desktop'), 'Name=Loose\nExec=x\n');
    expect((await apps(env())).map((a) => a.name)).toEqual(['Present']);
  });

  it('keeps the unlocalized Name even when LANG matches a localized one', async () => {
    await write(path.join(sys1, 'applications', 'c.desktop'), entry({ 'Name[de]': 'Uhr', Name: 'Clock', Exec: 'c' }));
    expect((await apps({ ...env(), LANG: 'de_DE.UTF-8', LC_ALL: 'de_DE.UTF-8' })).map((a) => a.name)).toEqual(['Clock']);
  });

  it('keeps both apps of a duplicate name: the higher-precedence one plain, the other qualified by its id', async () => {
    await write(path.join(sys2, 'applications', 'aaa-term.desktop'), entry({ Name: 'Terminal', Exec: 'aaa-term' }));
    await write(path.join(sys1, 'applications', 'zzz-term.desktop'), entry({ Name: 'terminal', Exec: 'zzz-term' }));
    await write(path.join(sys1, 'applications', 'other.desktop'), entry({ Name: 'Terminal (aaa-term)', Exec: 'o' }));
    const list = await apps(env());
    expect(list.map((a) => [a.name, a.id])).toEqual([
      ['terminal', 'zzz-term.desktop'],
      ['Terminal (aaa-term 2)', 'aaa-term.desktop'],
      ['Terminal (aaa-term)', 'other.desktop'],
    ]);
  });

  it('caches the listing until a directory changes', async () => {
    const dir = path.join(sys1, 'applications');
    await write(path.join(dir, 'one.desktop'), entry({ Name: 'One', Exec: 'one' }));
    await sleep(150); // past the racy window, so the first scan is trusted
    const catalog = createXdgCatalog({ env: env() });
    expect((await catalog.list()).map((a) => a.name)).toEqual(['One']);
    await sleep(150);
    // Rewriting a file in place leaves its directory's mtime alone: the cached listing stands.
    await writeFile(path.join(dir, 'one.desktop'), entry({ Name: 'One Edited', Exec: 'one' }));
    expect((await catalog.list()).map((a) => a.name)).toEqual(['One']);
    // Adding a file (here into a new subdirectory and into a data dir that did not exist) is seen at once.
    await write(path.join(dir, 'sub', 'two.desktop'), entry({ Name: 'Two', Exec: 'two' }));
    expect((await catalog.list()).map((a) => a.name)).toEqual(['One Edited', 'Two']);
    await write(path.join(home, 'applications', 'three.desktop'), entry({ Name: 'Three', Exec: 'three' }));
    expect((await catalog.list()).map((a) => a.name)).toEqual(['One Edited', 'Three', 'Two']);
  });

  it('does not trust a scan racing a change in the same clock tick', async () => {
    const dir = path.join(sys1, 'applications');
    await write(path.join(dir, 'one.desktop'), entry({ Name: 'One', Exec: 'one' }));
    // Pin the directory's mtime to a whole second just ahead, as a coarse file-system clock would
    // stamp the scan and a later change alike; restoring it after the change hides the change from
    // the mtime comparison, so only the racy-scan rule can catch it.
    const tick = Math.ceil(Date.now() / 1000) + 1;
    await utimes(dir, tick, tick);
    const catalog = createXdgCatalog({ env: env() });
    expect((await catalog.list()).map((a) => a.name)).toEqual(['One']);
    await writeFile(path.join(dir, 'two.desktop'), entry({ Name: 'Two', Exec: 'two' }));
    await utimes(dir, tick, tick);
    expect((await catalog.list()).map((a) => a.name)).toEqual(['One', 'Two']);
  });

  it('answers concurrent list() calls from one scan and returns copies', async () => {
    await write(path.join(sys1, 'applications', 'one.desktop'), entry({ Name: 'One', Exec: 'one' }));
    const catalog = createXdgCatalog({ env: env() });
    const [a, b] = await Promise.all([catalog.list(), catalog.list()]);
    expect(a).toEqual(b);
    a[0]!.windowKeys.push('mutated');
    expect((await catalog.list())[0]!.windowKeys).toEqual(['one']);
  });

  it('reads the real system entries: debian xterm is "XTerm" with window key "xterm"', async () => {
    const list = await createXdgCatalog({ env: process.env }).list();
    const xterm = list.find((a) => a.name === 'XTerm');
    expect(xterm, `apps: ${list.map((a) => a.name).join(', ')}`).toBeDefined();
    expect(xterm!.windowKeys).toContain('xterm');
    expect(xterm!.id).toMatch(/xterm\.desktop$/);
  });
});

describe('XDG catalog: the names people say', () => {
  it('drops the generic name from the end of Name ("Chromium Web Browser" is Chromium) and keeps the full name and Keywords as other words', async () => {
    await write(path.join(sys1, 'applications', 'chromium.desktop'), entry({ Name: 'Chromium Web Browser', GenericName: 'Web Browser', Keywords: 'browser;web;', Exec: 'chromium %U' }));
    await write(path.join(sys1, 'applications', 'google-chrome.desktop'), entry({ Name: 'Google Chrome', GenericName: 'Web Browser', Exec: 'google-chrome-stable' }));
    await write(path.join(sys1, 'applications', 'browser.desktop'), entry({ Name: 'Web Browser', GenericName: 'Web Browser', Exec: 'wb' }));
    const list = await apps(env());
    expect(list.map((a) => [a.name, a.genericName, a.keywords])).toEqual([
      ['Chromium', 'Web Browser', ['Chromium Web Browser', 'browser', 'web']],
      ['Google Chrome', 'Web Browser', undefined],
      ['Web Browser', 'Web Browser', undefined],
    ]);
  });

  it('takes a generic name from the category when GenericName is missing (Debian\'s XTerm is a Terminal)', async () => {
    await write(path.join(sys1, 'applications', 'debian-xterm.desktop'), entry({ Name: 'XTerm', Exec: 'xterm', Categories: 'System;TerminalEmulator;', Keywords: 'shell;prompt;' }));
    expect(await apps(env())).toEqual([
      { name: 'XTerm', id: 'debian-xterm.desktop', windowKeys: ['debian-xterm', 'xterm'], genericName: 'Terminal', keywords: ['shell', 'prompt'] },
    ]);
  });

  describe('the default terminal and browser', () => {
    const terminals = async () => {
      await write(path.join(sys1, 'applications', 'debian-xterm.desktop'), entry({ Name: 'XTerm', Exec: 'xterm', Categories: 'System;TerminalEmulator;' }));
      await write(path.join(sys1, 'applications', 'debian-uxterm.desktop'), entry({ Name: 'UXTerm', Exec: 'uxterm', Categories: 'System;TerminalEmulator;' }));
      await write(path.join(sys1, 'applications', 'chromium.desktop'), entry({ Name: 'Chromium', Exec: '/usr/bin/chromium %U', Categories: 'Network;WebBrowser;' }));
    };
    const defaults = async (e: NodeJS.ProcessEnv) => (await apps(e)).filter((a) => a.defaultFor).map((a) => [a.name, a.defaultFor]);

    it("follows x-terminal-emulator to Debian's lxterm wrapper, which starts xterm, and x-www-browser to chromium", async () => {
      await terminals();
      const alternatives = path.join(tmp, 'alternatives');
      await mkdir(alternatives);
      await symlink(await executable('lxterm'), path.join(alternatives, 'x-terminal-emulator'));
      await symlink(await executable('chromium'), path.join(alternatives, 'x-www-browser'));
      await symlink(path.join(alternatives, 'x-terminal-emulator'), path.join(bin, 'x-terminal-emulator'));
      await symlink(path.join(alternatives, 'x-www-browser'), path.join(bin, 'x-www-browser'));
      expect(await defaults(env())).toEqual([
        ['Chromium', ['browser']],
        ['XTerm', ['terminal']],
      ]);
    });

    it('$TERMINAL and $BROWSER win; without any default nothing is marked', async () => {
      await terminals();
      expect(await defaults({ ...env(), TERMINAL: '/usr/bin/uxterm -fa Mono', BROWSER: 'chromium:firefox' })).toEqual([
        ['Chromium', ['browser']],
        ['UXTerm', ['terminal']],
      ]);
      expect(await defaults(env())).toEqual([]);
    });
  });
});

describe('XDG launch command', () => {
  const app = (fields: Record<string, string>) => toXdgApp('t.desktop', '/apps/t.desktop', parseDesktopEntry(entry(fields))!, env())!;

  it('runs the expanded Exec in the Path key or else the home directory', () => {
    expect(xdgLaunchCommand(app({ Name: 'T', Exec: 'tool --x %U' }), env())).toEqual({ argv: ['tool', '--x'], cwd: tmp });
    expect(xdgLaunchCommand(app({ Name: 'T', Exec: 'tool', Path: '/srv' }), env()).cwd).toBe('/srv');
  });

  it('wraps Terminal=true apps in x-terminal-emulator -e, or xterm -e without it', async () => {
    const t = app({ Name: 'T', Exec: 'htop --tree', Terminal: 'true' });
    expect(xdgLaunchCommand(t, env()).argv).toEqual(['xterm', '-e', 'htop', '--tree']);
    await executable('x-terminal-emulator');
    expect(xdgLaunchCommand(t, env()).argv).toEqual(['x-terminal-emulator', '-e', 'htop', '--tree']);
  });

  it('fails clearly for a missing program, a missing working directory or an app no longer listed', async () => {
    await executable('real-tool');
    await write(path.join(home, 'applications', 'broken.desktop'), entry({ Name: 'Broken', Exec: 'xterm-nope --flag' }));
    await write(path.join(home, 'applications', 'nowd.desktop'), entry({ Name: 'No Dir', Exec: 'real-tool', Path: path.join(tmp, 'nowhere') }));
    await write(path.join(home, 'applications', 'term.desktop'), entry({ Name: 'In Term', Exec: 'term-nope', Terminal: 'true' }));
    const catalog = createXdgCatalog({ env: env() });
    const byName = new Map((await catalog.list()).map((a) => [a.name, a]));
    await expect(catalog.launch(byName.get('Broken')!)).rejects.toThrow(new AppLaunchError('Broken', 'xterm-nope not found'));
    await expect(catalog.launch(byName.get('In Term')!)).rejects.toThrow('could not start In Term: term-nope not found');
    await expect(catalog.launch(byName.get('No Dir')!)).rejects.toThrow(/could not start No Dir: its working directory .*nowhere does not exist/);
    await expect(catalog.launch({ name: 'Ghost', id: 'ghost.desktop', windowKeys: [] })).rejects.toThrow(
      'could not start Ghost: it is no longer installed (no ghost.desktop)',
    );
  });

  it('starts a detached process in its own group and resolves its pid', async () => {
    const out = path.join(tmp, 'ran.txt');
    const script = await executable('record-run');
    await writeFile(script, `#!/bin/sh\necho "$$ $(ps -o pgid= -p $$) $PWD E=$ELECTRON_RUN_AS_NODE $*" > "${out}"\n`);
    await write(path.join(home, 'applications', 'rec.desktop'), entry({ Name: 'Recorder', Exec: 'record-run "a b" %f', Path: bin }));
    const catalog = createXdgCatalog({ env: { ...env(), PATH: `${bin}:/usr/bin:/bin`, ELECTRON_RUN_AS_NODE: '1' } });
    const [rec] = await catalog.list();
    const { pid } = await catalog.launch(rec!);
    let line = '';
    for (let i = 0; i < 200 && !line.endsWith('\n'); i++) {
      await sleep(25);
      line = await readFile(out, 'utf8').catch(() => '');
    }
    const [shPid, pgid, cwd, electron, ...args] = line.trim().split(/\s+/);
    expect(Number(shPid)).toBe(pid);
    expect(Number(pgid)).toBe(pid); // leader of its own process group
    expect(cwd).toBe(bin);
    expect(electron).toBe('E='); // DeskPilot's Electron-only variables are not passed on
    expect(args).toEqual(['a', 'b']);
  });
});

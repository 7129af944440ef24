import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import sqlite3 from 'sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../../../tests/support/wait-for';
import { resolveBatch } from '../../../engine/resolve';
import { createXdgCatalog } from '../xdg-catalog';
import { execWithFile } from './open-path';
import { createRecentPlaces } from './recent-places';
import { parseXbel } from './xbel-recent';

// Real files in a temporary HOME: the desktop's recently-used.xbel as GTK writes it, VS Code's
// state.vscdb as a real SQLite database, Cursor's older storage.json, a JetBrains
// recentProjects.xml, and .desktop entries the real XDG catalog reads.

let home: string;
let bin: string;

beforeEach(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), 'deskpilot-recent-'));
  bin = path.join(home, 'bin');
  await mkdir(bin);
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

const env = (): NodeJS.ProcessEnv => ({ HOME: home, PATH: `${bin}:/usr/bin:/bin`, XDG_DATA_DIRS: path.join(home, 'nosys') });

async function write(file: string, text: string): Promise<string> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
  return file;
}

const xbel = (items: Array<{ file: string; app: string; exec: string; at: string }>) => `<?xml version="1.0" encoding="UTF-8"?>
<xbel version="1.0"
      xmlns:bookmark="http://www.freedesktop.org/standards/desktop-bookmarks"
      xmlns:mime="http://www.freedesktop.org/standards/shared-mime-info"
>
${items
  .map(
    (i) => `  <bookmark href="${pathToFileURL(i.file).href}" added="2026-11-01T10:00:00.000000Z" modified="${i.at}" visited="2026-11-01T10:00:00.000000Z">
    <info>
      <metadata owner="http://freedesktop.org">
        <mime:mime-type type="text/plain"/>
        <bookmark:applications>
          <bookmark:application name="${i.app}" exec="&apos;${i.exec} %u&apos;" modified="${i.at}" count="2"/>
        </bookmark:applications>
      </metadata>
    </info>
  </bookmark>`,
  )
  .join('\n')}
</xbel>
`;

function writeStateDb(file: string, value: unknown): Promise<void> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(file, (err) => {
      if (err) return reject(err);
      db.serialize(() => {
        db.run('CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)');
        db.run('INSERT INTO ItemTable VALUES (?, ?)', ['history.recentlyOpenedPathsList', JSON.stringify(value)]);
        db.close((e) => (e ? reject(e) : resolve()));
      });
    });
  });
}

async function desktopEntry(id: string, name: string, exec: string): Promise<void> {
  await write(path.join(home, '.local', 'share', 'applications', id), `[Desktop Entry]\nType=Application\nName=${name}\nExec=${exec}\n`);
}

/** A program that writes its arguments, one a line, to `out` — the app a test opens files in. */
async function recorder(name: string, out: string): Promise<void> {
  const file = path.join(bin, name);
  await writeFile(file, `#!/bin/sh\nfor a in "$@"; do echo "$a"; done > "${out}.tmp" && mv "${out}.tmp" "${out}"\n`);
  await chmod(file, 0o755);
}

describe('recent files and projects from real files', () => {
  it('lists the xbel files (newest first, gone ones left out), VS Code, Cursor and JetBrains projects, named as the catalog names the apps', async () => {
    const notes = await write(path.join(home, 'notes', 'standup notes.md'), '# standup');
    const invoice = await write(path.join(home, 'Downloads', 'invoice-2026-11.pdf'), '%PDF');
    await write(
      path.join(home, '.local', 'share', 'recently-used.xbel'),
      xbel([
        { file: invoice, app: 'Document Viewer', exec: 'evince', at: '2026-11-30T17:20:00.000000Z' },
        { file: notes, app: 'gedit', exec: 'gedit', at: '2026-12-01T08:55:00.000000Z' },
        { file: path.join(home, 'gone.txt'), app: 'gedit', exec: 'gedit', at: '2026-12-01T09:00:00.000000Z' },
      ]),
    );
    const deskpilot = path.join(home, 'src', 'deskpilot');
    const api = path.join(home, 'src', 'northwind api');
    const billing = path.join(home, 'IdeaProjects', 'billing-service');
    for (const d of [deskpilot, api, billing]) await mkdir(d, { recursive: true });
    const vscodeDir = path.join(home, '.config', 'Code', 'User', 'globalStorage');
    await mkdir(vscodeDir, { recursive: true });
    await writeStateDb(path.join(vscodeDir, 'state.vscdb'), {
      entries: [
        { folderUri: pathToFileURL(deskpilot).href },
        { fileUri: pathToFileURL(notes).href },
        { folderUri: 'vscode-remote://ssh-remote+box/home/x' },
        { folderUri: pathToFileURL(path.join(home, 'deleted-project')).href },
      ],
    });
    await write(
      path.join(home, '.config', 'Cursor', 'User', 'globalStorage', 'storage.json'),
      JSON.stringify({ openedPathsList: { entries: [{ folderUri: pathToFileURL(api).href }] } }),
    );
    await write(
      path.join(home, '.config', 'JetBrains', 'IntelliJIdea2025.2', 'options', 'recentProjects.xml'),
      `<application>
  <component name="RecentProjectsManager">
    <option name="additionalInfo">
      <map>
        <entry key="$USER_HOME$/IdeaProjects/billing-service">
          <value>
            <RecentProjectMetaInfo frameTitle="billing-service">
              <option name="activationTimestamp" value="${Date.parse('2026-11-27T10:00:00Z')}" />
              <option name="projectOpenTimestamp" value="${Date.parse('2026-11-27T09:00:00Z')}" />
            </RecentProjectMetaInfo>
          </value>
        </entry>
      </map>
    </option>
  </component>
</application>`,
    );
    await recorder('gedit', path.join(home, 'unused'));
    await desktopEntry('org.gnome.gedit.desktop', 'gedit', 'gedit %U');
    await recorder('code', path.join(home, 'unused'));
    await desktopEntry('code.desktop', 'Visual Studio Code', 'code --unity-launch %F');

    const recent = createRecentPlaces({ platform: 'linux', env: env(), catalog: createXdgCatalog({ env: env() }) });
    const { files, projects } = await recent.list(10);
    expect(files).toEqual([
      { path: notes, app: 'gedit', used_at: '2026-12-01T08:55:00.000Z' },
      { path: invoice, app: 'Document Viewer', used_at: '2026-11-30T17:20:00.000Z' },
    ]);
    const byPath = new Map(projects.map((p) => [p.path, p]));
    // Remote, deleted and file entries are not projects.
    expect([...byPath.keys()].sort()).toEqual([billing, deskpilot, api].sort());
    expect(byPath.get(deskpilot)!.app).toBe('Visual Studio Code');
    expect(byPath.get(api)!.app).toBe('Cursor');
    expect(byPath.get(billing)).toEqual({ path: billing, app: 'IntelliJ IDEA', used_at: '2026-11-27T10:00:00.000Z' });
  });

  it('keeps at most the limit, newest first', async () => {
    const items = [];
    for (let i = 0; i < 14; i++) {
      const file = await write(path.join(home, 'many', `f${i}.txt`), String(i));
      items.push({ file, app: 'gedit', exec: 'gedit', at: `2026-11-${String(10 + i).padStart(2, '0')}T10:00:00Z` });
    }
    await write(path.join(home, '.local', 'share', 'recently-used.xbel'), xbel(items));
    const { files } = await createRecentPlaces({ platform: 'linux', env: env(), catalog: createXdgCatalog({ env: env() }) }).list(10);
    expect(files.map((f) => path.basename(f.path))).toEqual(['f13.txt', 'f12.txt', 'f11.txt', 'f10.txt', 'f9.txt', 'f8.txt', 'f7.txt', 'f6.txt', 'f5.txt', 'f4.txt']);
  });

  it('reads nothing (and does not throw) when no source exists or a file is garbage', async () => {
    await write(path.join(home, '.local', 'share', 'recently-used.xbel'), 'not xml at all <bookmark');
    await write(path.join(home, '.config', 'Code', 'User', 'globalStorage', 'state.vscdb'), 'not a database');
    const recent = createRecentPlaces({ platform: 'linux', env: env(), catalog: createXdgCatalog({ env: env() }) });
    expect(await recent.list(10)).toEqual({ files: [], projects: [] });
  });

  it('opens a listed file in the named app: its Exec line gets the file (a real child process receives it)', async () => {
    const notes = await write(path.join(home, 'notes', 'standup notes.md'), '# standup');
    const out = path.join(home, 'gedit-args');
    await recorder('gedit', out);
    await desktopEntry('org.gnome.gedit.desktop', 'gedit', 'gedit --new-window %U');
    const recent = createRecentPlaces({ platform: 'linux', env: env(), catalog: createXdgCatalog({ env: env() }) });
    const { pid } = await recent.open(notes, 'gedit');
    expect(pid).toBeGreaterThan(0);
    const args = await waitFor('the app to record its arguments', () => readFile(out, 'utf8').catch(() => undefined));
    expect(args.trim().split('\n')).toEqual(['--new-window', pathToFileURL(notes).href]);
  });

  it('refuses to open a path that no longer exists, naming it', async () => {
    const recent = createRecentPlaces({ platform: 'linux', env: env(), catalog: createXdgCatalog({ env: env() }) });
    await expect(recent.open(path.join(home, 'gone.md'), null)).rejects.toThrow(/gone\.md no longer exists/);
  });
});

describe('execWithFile', () => {
  const ctx = { name: 'Ed', location: '/usr/share/applications/ed.desktop' };
  it('fills %f with the path and %u with its URL (its %20 kept), expands the other codes, and appends the path when the Exec line takes none', () => {
    expect(execWithFile(['code', '%F'], '/a b/x.md', ctx)).toEqual(['code', '/a b/x.md']);
    expect(execWithFile(['gedit', '--name=%c', '%U'], '/a b/x.md', ctx)).toEqual(['gedit', '--name=Ed', 'file:///a%20b/x.md']);
    expect(execWithFile(['xclock', '%i'], '/x', ctx)).toEqual(['xclock', '/x']);
  });
});

describe('parseXbel', () => {
  it('decodes entities and percent-escapes, skips non-file bookmarks, and takes the app that opened it last', () => {
    const text = `<xbel><bookmark href="https://example.com/" modified="2026-01-01T00:00:00Z"></bookmark>
<bookmark href="file:///home/u/R%26D%20plan.txt" modified="2026-01-01T00:00:00Z"><info><metadata>
<bookmark:application name="gedit" exec="&apos;gedit %u&apos;" modified="2026-01-02T00:00:00Z" count="1"/>
<bookmark:application name="Kate &amp; Co" exec="&apos;kate %u&apos;" modified="2026-01-03T00:00:00Z" count="1"/>
</metadata></info></bookmark></xbel>`;
    expect(parseXbel(text)).toEqual([
      { path: '/home/u/R&D plan.txt', app: 'Kate & Co', appKeys: ['kate & co', 'kate'], usedAt: Date.parse('2026-01-03T00:00:00Z'), orderAt: Date.parse('2026-01-03T00:00:00Z') },
    ]);
  });
});

describe('the snapshot lists them, and open_recent opens only what it lists', () => {
  it('refuses an unlisted path with an error naming the field and what is listed', () => {
    const snap = {
      taken_at: '2026-12-01T09:30:00.000Z',
      monitors: [],
      running_apps: [],
      installed_apps: [{ name: 'gedit' }],
      tabs: [],
      presets: [],
      recent_files: [{ path: '/home/u/notes/standup.md', app: 'gedit', used_at: null }],
      recent_projects: [],
      sources: { windows: { ok: true, message: '' }, chrome: { ok: true, message: '' }, presets: { ok: true, message: '' } },
    };
    const r = resolveBatch([{ type: 'open_recent', path: '/etc/shadow' }], snap);
    expect(r).toEqual({
      ok: false,
      errors: [
        {
          path: 'commands[0].path',
          kind: 'input',
          message: '"/etc/shadow" is not one of the recent files or projects in the snapshot; only a listed path can be opened (listed: "standup.md")',
        },
      ],
    });
    const ok = resolveBatch([{ type: 'open_recent', path: '/home/u/notes/standup.md', app_name: 'GEDIT' }], snap);
    expect(ok.ok && ok.plan[0]).toMatchObject({ type: 'open_recent', path: '/home/u/notes/standup.md', kind: 'file', app: 'gedit' });
    const noApp = resolveBatch([{ type: 'open_recent', path: '/home/u/notes/standup.md', app_name: 'emacs' }], snap);
    expect(noApp.ok ? null : noApp.errors[0]!.message).toBe('no installed app is named "emacs"');
  });
});

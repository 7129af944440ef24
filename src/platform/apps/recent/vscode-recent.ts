import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { configHome } from './config-home';
import type { FoundRecent } from './recent-types';

// VS Code and its forks keep "File > Open Recent" in their global state: the SQLite file
// User/globalStorage/state.vscdb, key history.recentlyOpenedPathsList in ItemTable (since
// 1.55); older versions kept openedPathsList in User/globalStorage/storage.json. Entries are
// newest first and carry no time: {folderUri}, {workspace: {configPath}} and {fileUri}.

export interface EditorFlavour {
  /** The app's name when the catalog does not list it. */
  app: string;
  /** Its settings folder under the platform's config home. */
  dir: string;
  /** Names a catalog entry of it carries (window keys, program names). */
  keys: string[];
}

export const VSCODE_FLAVOURS: readonly EditorFlavour[] = [
  { app: 'Visual Studio Code', dir: 'Code', keys: ['code', 'visual studio code', 'code-url-handler'] },
  { app: 'Cursor', dir: 'Cursor', keys: ['cursor'] },
  { app: 'VSCodium', dir: 'VSCodium', keys: ['codium', 'vscodium'] },
  { app: 'Code - OSS', dir: 'Code - OSS', keys: ['code-oss'] },
];

const KEY = 'history.recentlyOpenedPathsList';

interface Entry {
  folderUri?: unknown;
  fileUri?: unknown;
  workspace?: { configPath?: unknown };
}

/** Local folders and workspace files of a recent list, in its order; remote and untitled ones are left out. */
export function projectsOf(list: unknown): string[] {
  const entries = (list as { entries?: unknown })?.entries;
  // storage.json before 1.40: {workspaces3: [uri | {configURIPath}], files2: [...]}.
  const legacy = (list as { workspaces3?: unknown })?.workspaces3;
  const items: unknown[] = Array.isArray(entries) ? entries : Array.isArray(legacy) ? legacy.map((w) => (typeof w === 'string' ? { folderUri: w } : { workspace: { configPath: (w as { configURIPath?: unknown })?.configURIPath } })) : [];
  const out: string[] = [];
  for (const item of items as Entry[]) {
    const uri = typeof item?.folderUri === 'string' ? item.folderUri : typeof item?.workspace?.configPath === 'string' ? item.workspace.configPath : null;
    if (!uri?.startsWith('file://')) continue;
    try {
      out.push(fileURLToPath(uri));
    } catch {
      // a malformed entry is skipped, the rest still count
    }
  }
  return out;
}

async function readStateDb(file: string): Promise<unknown> {
  // Loaded when an editor's state is read, not with the module: the native addon costs every
  // CLI call about 10 ms, and most never ask for recent projects.
  const { default: sqlite3 } = await import('sqlite3');
  return new Promise((resolve) => {
    // Read-only: the editor may be running and holds the file open.
    const db = new sqlite3.Database(file, sqlite3.OPEN_READONLY, (err) => {
      if (err) return resolve(null);
      db.get('SELECT value FROM ItemTable WHERE key = ?', [KEY], (e, row: { value?: unknown } | undefined) => {
        db.close();
        if (e || !row) return resolve(null);
        try {
          resolve(JSON.parse(String(row.value)));
        } catch {
          resolve(null);
        }
      });
    });
  });
}

async function readStorageJson(file: string): Promise<unknown> {
  try {
    return (JSON.parse(await readFile(file, 'utf8')) as { openedPathsList?: unknown }).openedPathsList ?? null;
  } catch {
    return null;
  }
}

/** One editor's recent projects, newest first; nothing when it is not installed or its state cannot be read. */
export async function readEditorRecent(flavour: EditorFlavour, platform: string, env: NodeJS.ProcessEnv): Promise<FoundRecent[]> {
  const dir = path.join(configHome(platform, env), flavour.dir, 'User', 'globalStorage');
  for (const [file, read] of [
    [path.join(dir, 'state.vscdb'), readStateDb],
    [path.join(dir, 'storage.json'), readStorageJson],
  ] as const) {
    const mtime = await stat(file).then((s) => s.mtimeMs, () => null);
    if (mtime === null) continue;
    const list = await read(file);
    if (!list) continue;
    return projectsOf(list).map((p, i) => ({ path: p, app: flavour.app, appKeys: flavour.keys, usedAt: null, orderAt: mtime - i }));
  }
  return [];
}

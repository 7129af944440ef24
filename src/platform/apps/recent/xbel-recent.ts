import { readFile, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FoundRecent } from './recent-types';
import { parseTime } from './recent-types';
import { attributes } from './xml-text';

// The freedesktop.org recent files: $XDG_DATA_HOME/recently-used.xbel, the XBEL bookmark file
// GTK and KDE apps write (Desktop Bookmark spec). Each <bookmark href="file://…"> lists the
// apps that opened it, each with the time it last did.
//
// Elsewhere (not read here: nothing on this machine can test them): macOS keeps the recent
// documents per app in ~/Library/Application Support/com.apple.sharedfilelist/*.sfl3 (binary
// plists of bookmarks; Spotlight's kMDItemLastUsedDate is the simpler query); Windows keeps
// shortcuts in %APPDATA%\Microsoft\Windows\Recent\*.lnk (their targets are what lnk-target.ts reads).

/** The recent-files file for this environment. */
export function xbelFile(env: NodeJS.ProcessEnv): string {
  const home = env.HOME || os.homedir();
  const dataHome = env.XDG_DATA_HOME && path.isAbsolute(env.XDG_DATA_HOME) ? env.XDG_DATA_HOME : path.join(home, '.local', 'share');
  return path.join(dataHome, 'recently-used.xbel');
}

/** The bookmarks of an XBEL text, newest first; local files only. */
export function parseXbel(text: string): FoundRecent[] {
  const out: FoundRecent[] = [];
  for (const m of text.matchAll(/<bookmark\s([^>]*?)\/?>([\s\S]*?)<\/bookmark>/g)) {
    const attrs = attributes(m[1]!);
    const href = attrs.get('href');
    if (!href?.startsWith('file://')) continue;
    let file: string;
    try {
      file = fileURLToPath(href);
    } catch {
      continue;
    }
    // The app that opened it last, with the time it did.
    let app: { name: string; exec: string; at: number | null } | null = null;
    for (const a of m[2]!.matchAll(/<bookmark:application\s([^>]*?)\/?>/g)) {
      const aa = attributes(a[1]!);
      const at = parseTime(aa.get('modified'));
      if (!app || (at ?? 0) > (app.at ?? 0)) app = { name: aa.get('name') ?? '', exec: aa.get('exec') ?? '', at };
    }
    const usedAt = app?.at ?? parseTime(attrs.get('visited')) ?? parseTime(attrs.get('modified')) ?? parseTime(attrs.get('added'));
    const program = app?.exec.replace(/^'|'$/g, '').trim().split(/\s+/)[0];
    out.push({
      path: file,
      app: app?.name || null,
      appKeys: [app?.name, program && path.basename(program)].filter((k): k is string => !!k).map((k) => k.toLowerCase()),
      usedAt,
      orderAt: usedAt ?? 0,
    });
  }
  return out.sort((a, b) => b.orderAt - a.orderAt);
}

/** The recent files that still exist, newest first, at most `limit`; a missing or unreadable file: none. */
export async function readXbelRecent(env: NodeJS.ProcessEnv, limit: number): Promise<FoundRecent[]> {
  const text = await readFile(xbelFile(env), 'utf8').catch(() => null);
  if (text === null) return [];
  const out: FoundRecent[] = [];
  for (const item of parseXbel(text)) {
    if (out.length >= limit) break;
    if (await stat(item.path).then((s) => s.isFile(), () => false)) out.push(item);
  }
  return out;
}

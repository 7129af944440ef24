import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ES module script without types
import { BEGIN, END, exclusionBlock, syncServerOnly } from '../../scripts/sync-server-only-deps.mjs';

// The packaged app leaves out what only `deskpilot sync-server` needs (electron-builder.yml's
// files, one exclusion per package). The list is computed from package-lock.json; a dependency
// added or updated since must show here, not as a server library quietly shipped in the app (or
// a library the app needs quietly left out). `npm run package:check` checks the packed app itself.

const ROOT = path.join(__dirname, '..', '..');

describe('electron-builder.yml leaves the sync server out of the app', () => {
  it('its exclusions are exactly the sync-server-only packages of package-lock.json (else: node scripts/sync-server-only-deps.mjs --write)', () => {
    const names: string[] = syncServerOnly(JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')));
    expect(names).toEqual(expect.arrayContaining(['@hocuspocus/server', '@hocuspocus/extension-sqlite', '@hocuspocus/extension-redis', 'better-sqlite3', 'crossws', 'sqlite3', 'ioredis']));
    // What the app itself uses stays in.
    for (const kept of ['@hocuspocus/provider', 'yjs', 'ws', 'zod']) expect(names).not.toContain(kept);
    const yml = readFileSync(path.join(ROOT, 'electron-builder.yml'), 'utf8');
    const block = yml.slice(yml.indexOf(BEGIN), yml.indexOf(END) + END.length);
    expect(block).toBe(exclusionBlock(names));
  });
});

import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { assembleExtension } from '../../src/platform/windows/gnome/extension-forms';
import { extensionSourceDir } from '../../src/platform/windows/gnome/extension-install';

// The packaged app ships the GNOME Shell extension's sources as extra resources, so that
// `deskpilot gnome-extension install` finds them at resourcesPath/gnome-extension/<uuid> and
// writes the form the user's GNOME needs. Checked by copying the folder as electron-builder.yml's
// rule says into a stand-in resources folder (electron-builder itself is not run here).

const ROOT = path.join(__dirname, '..', '..');
let resources: string | null = null;
afterEach(() => {
  delete (process as { resourcesPath?: string }).resourcesPath;
  if (resources) rmSync(resources, { recursive: true, force: true });
});

describe('electron-builder.yml ships the GNOME Shell extension', () => {
  it('extraResources copies gnome-extension/ to resources/gnome-extension, where the installer finds it and assembles both forms', async () => {
    const yml = readFileSync(path.join(ROOT, 'electron-builder.yml'), 'utf8');
    const extra = yml.slice(yml.indexOf('extraResources:'), yml.indexOf('\nasarUnpack:'));
    const rule = /- from: gnome-extension\n\s+to: (\S+)/.exec(extra);
    expect(rule, 'an extraResources entry from gnome-extension').not.toBeNull();

    resources = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-resources-'));
    cpSync(path.join(ROOT, 'gnome-extension'), path.join(resources, rule![1]!), { recursive: true });
    (process as { resourcesPath?: string }).resourcesPath = resources;
    const source = extensionSourceDir();
    expect(source).toBe(path.join(resources, 'gnome-extension', 'deskpilot@deskpilot.app'));
    for (const form of ['legacy', 'esm'] as const) expect((await assembleExtension(source!, form)).get('extension.js')).toContain('function createDeskPilotWindows(');
  });
});

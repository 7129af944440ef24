import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { assembleExtension, extensionFormFor, type ExtensionForm } from '../../src/platform/windows/gnome/extension-forms';

// DeskPilot's GNOME Shell extension comes in two forms written from one body of logic
// (gnome-extension/deskpilot@deskpilot.app/windows-service.js): a script for GNOME 43/44 and an
// ES module for GNOME 45 and later. The installer picks by the running shell's version. Only
// GNOME 43 runs on this machine (tests/windows/gnome.test.ts runs the script form in a real
// gnome-shell); the ES-module form is loaded here in a real Node process with a FAKE shell
// (tests/support/gnome-fake-shell): its syntax and wiring are checked, its behaviour in GNOME 45+ is not.

const SOURCE = path.join(__dirname, '..', '..', 'gnome-extension', 'deskpilot@deskpilot.app');
const RUNNER = path.join(__dirname, '..', 'support', 'gnome-fake-shell', 'runner.mjs');
const root = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-gnome-forms-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Writes the assembled extension.js of a form and loads it in the fake shell (enable, Info, List, disable). */
async function loadInFakeShell(form: ExtensionForm) {
  const files = await assembleExtension(SOURCE, form);
  // Node takes a .mjs file as an ES module and a .cjs one as a script, as GNOME 45+ and 43/44 do.
  const file = path.join(root, `extension-${form}.${form === 'esm' ? 'mjs' : 'cjs'}`);
  writeFileSync(file, files.get('extension.js')!);
  const { stdout } = await promisify(execFile)(process.execPath, [RUNNER, form, file]);
  return { files, seen: JSON.parse(stdout) as { calls: unknown[][]; extendsExtension?: boolean; answers: { Info: { api_version: number; shell_version: string }; List: unknown[] } } };
}

const LIFECYCLE = [
  ['connect', 'monitors-changed'],
  ['wrapJSObject', 'org.deskpilot.Windows1'],
  ['export', 'session bus', '/org/deskpilot/Windows1'],
  ['own', 'session bus', 'org.deskpilot.Windows1'],
  ['disconnect', 5],
  ['unown', 7],
  ['unexport'],
];

describe('the installer picks the extension form by GNOME Shell version', () => {
  it('43 and 44 get the script form, 45 to 48 the ES-module form', () => {
    expect(extensionFormFor('43.9')).toEqual({ form: 'legacy', note: null });
    expect(extensionFormFor('44.2')).toEqual({ form: 'legacy', note: null });
    expect(extensionFormFor('45.0')).toEqual({ form: 'esm', note: null });
    expect(extensionFormFor('46.0')).toEqual({ form: 'esm', note: null });
    expect(extensionFormFor('48.beta')).toEqual({ form: 'esm', note: null });
  });

  it('a newer GNOME than declared gets the ES-module form with a note; an older one or an unknown version is refused with the reason', () => {
    expect(extensionFormFor('49.1')).toEqual({ form: 'esm', note: expect.stringContaining('written for GNOME Shell 45–48; this system has 49.1') });
    expect(extensionFormFor('42.5')).toEqual({ form: null, problem: 'GNOME Shell 42.5 is older than the extension supports (43 and later)' });
    const unknown = extensionFormFor(null);
    expect(unknown.form).toBeNull();
    expect(unknown).toMatchObject({ problem: expect.stringMatching(/could not tell which GNOME Shell this is .*DESKPILOT_GNOME_SHELL_VERSION=46/) });
    expect(extensionFormFor('forty-six')).toMatchObject({ form: null, problem: expect.stringContaining('"forty-six" is not a version') });
  });
});

describe('the assembled extension (fake shell: GNOME 45+ cannot run here)', () => {
  it('the ES-module form loads as a module, its default export extends Extension, and enable/disable export and release org.deskpilot.Windows1', async () => {
    const { files, seen } = await loadInFakeShell('esm');
    expect(seen.extendsExtension).toBe(true);
    expect(seen.calls).toEqual(LIFECYCLE);
    expect(seen.answers).toEqual({ Info: { api_version: 1, shell_version: '46.0' }, List: [] });
    expect(JSON.parse(files.get('metadata.json')!)['shell-version']).toEqual(['45', '46', '47', '48']);
    // No legacy import outside comments: GNOME 45+ has no `imports.gi`.
    expect(files.get('extension.js')).not.toMatch(/^[^/\n]*\bimports\.(gi|ui|misc)\b/m);
  });

  it('the script form (the one gnome.test.ts runs in GNOME Shell 43) runs init() and the same enable/disable from the same logic', async () => {
    const { files, seen } = await loadInFakeShell('legacy');
    expect(seen.calls).toEqual(LIFECYCLE);
    expect(seen.answers).toEqual({ Info: { api_version: 1, shell_version: '43.9' }, List: [] });
    expect(JSON.parse(files.get('metadata.json')!)['shell-version']).toEqual(['43', '44']);
    expect(files.get('extension.js')).not.toMatch(/^\s*(import|export)\s/m);
  });
});

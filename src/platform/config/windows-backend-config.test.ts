import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from './load-config';

describe('windows.backend (real files in a temp dir)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-config-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const writeConfig = (json: unknown) => writeFileSync(path.join(dir, 'config.json'), JSON.stringify(json));

  it('is "auto" by default, the file may name one, and DESKPILOT_WINDOWS_BACKEND beats the file', async () => {
    expect((await loadConfig({}, { DESKPILOT_CONFIG_DIR: dir })).windowsBackend).toEqual({ value: 'auto', from: 'default' });
    writeConfig({ windows: { backend: 'sway' } });
    expect((await loadConfig({}, { DESKPILOT_CONFIG_DIR: dir })).windowsBackend).toEqual({ value: 'sway', from: 'file' });
    expect((await loadConfig({}, { DESKPILOT_CONFIG_DIR: dir, DESKPILOT_WINDOWS_BACKEND: 'x11' })).windowsBackend).toEqual({ value: 'x11', from: 'env' });
  });

  it('names the field and the choices for a backend it does not know, in the file and in the environment', async () => {
    writeConfig({ windows: { backend: 'wayland' } });
    await expect(loadConfig({}, { DESKPILOT_CONFIG_DIR: dir })).rejects.toThrow(/windows\.backend: must be one of "auto", "x11", "sway", "kwin", "gnome"/);
    writeConfig({});
    await expect(loadConfig({}, { DESKPILOT_CONFIG_DIR: dir, DESKPILOT_WINDOWS_BACKEND: 'hyprland' })).rejects.toThrow(
      /DESKPILOT_WINDOWS_BACKEND: must be one of .* not "hyprland"/,
    );
  });
});

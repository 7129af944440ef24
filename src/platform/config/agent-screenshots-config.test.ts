import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './load-config';

// agent.screenshots / DESKPILOT_AGENT_SCREENSHOTS: off unless asked for; the environment wins;
// a value that is no switch is an error naming the variable or the field.

describe('agent screenshots setting (real files in a temp dir)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-config-shots-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const write = (json: unknown) => writeFileSync(path.join(dir, 'config.json'), JSON.stringify(json));

  it('is off by default, on from the file, and the environment overrides the file', async () => {
    expect((await loadConfig({}, { DESKPILOT_CONFIG_DIR: dir })).agent.screenshots).toEqual({ value: false, from: 'default' });
    write({ agent: { screenshots: true } });
    expect((await loadConfig({}, { DESKPILOT_CONFIG_DIR: dir })).agent.screenshots).toEqual({ value: true, from: 'file' });
    expect((await loadConfig({}, { DESKPILOT_CONFIG_DIR: dir, DESKPILOT_AGENT_SCREENSHOTS: 'off' })).agent.screenshots).toEqual({ value: false, from: 'env' });
    expect((await loadConfig({}, { DESKPILOT_CONFIG_DIR: dir, DESKPILOT_AGENT_SCREENSHOTS: '' })).agent.screenshots).toEqual({ value: true, from: 'file' });
  });

  it('a value that is no switch is refused with the variable or field named', async () => {
    await expect(loadConfig({}, { DESKPILOT_CONFIG_DIR: dir, DESKPILOT_AGENT_SCREENSHOTS: 'maybe' })).rejects.toThrow(
      new ConfigError('DESKPILOT_AGENT_SCREENSHOTS: must be 1 or 0 (true/false, yes/no, on/off), not "maybe"'),
    );
    write({ agent: { screenshots: 'yes' } });
    await expect(loadConfig({}, { DESKPILOT_CONFIG_DIR: dir })).rejects.toThrow(/agent\.screenshots: must be true or false/);
  });
});

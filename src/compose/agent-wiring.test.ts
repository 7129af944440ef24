import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { wireAgent } from './agent-wiring';
import { loadConfig } from '../platform/config/load-config';

describe('agent wiring from config.json (real files)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-agent-wiring-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('carries the snapshot budget and PII masking into the run options; nothing without an LLM', async () => {
    writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ agent: { snapshot_chars: 4000, mask_pii: false, tab_limit: 2 } }));
    const env = { DESKPILOT_CONFIG_DIR: dir, DESKPILOT_LLM_MODEL: 'm', DESKPILOT_LLM_BASE_URL: 'http://127.0.0.1:1/v1' };
    const wiring = wireAgent(await loadConfig({}, env), { env })!;
    expect(wiring.options).toMatchObject({ snapshotChars: 4000, maskPii: false, tabLimit: 2 });
    expect(wireAgent(await loadConfig({}, { DESKPILOT_CONFIG_DIR: dir }), { env: {} })).toBeNull();
  });

  it('names bad agent settings', async () => {
    writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ agent: { snapshot_chars: 10, mask_pii: 'yes' } }));
    await expect(loadConfig({}, { DESKPILOT_CONFIG_DIR: dir })).rejects.toThrow(/agent\.snapshot_chars: must be at least 1000; agent\.mask_pii: must be true or false/);
  });
});

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from './load-config';

// The LLM timeout is checked like every other setting: a value outside the range is an error
// that names the variable (or the config file and field) and the range, never a crash later or
// a silent 30 s.

describe('LLM timeout setting', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-llm-timeout-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const load = (timeout: string | undefined) =>
    loadConfig({}, { DESKPILOT_CONFIG_DIR: dir, DESKPILOT_LLM_MODEL: 'm', ...(timeout === undefined ? {} : { DESKPILOT_LLM_TIMEOUT_MS: timeout }) });

  it.each(['-5', '1e12', 'abc', '0', '999', '600001', '1.5', '30000ms', ' '])('DESKPILOT_LLM_TIMEOUT_MS=%j is refused, naming the variable and the range', async (value) => {
    await expect(load(value)).rejects.toThrow(
      `DESKPILOT_LLM_TIMEOUT_MS: must be a whole number of milliseconds from 1000 to 600000 (default 30000), not "${value}"`,
    );
  });

  it('takes a whole number in range, and 30 s when unset or empty', async () => {
    expect((await load('1000')).llm!.timeoutMs).toEqual({ value: 1000, from: 'env' });
    expect((await load(' 600000 ')).llm!.timeoutMs).toEqual({ value: 600000, from: 'env' });
    expect((await load(undefined)).llm!.timeoutMs).toEqual({ value: 30000, from: 'default' });
    expect((await load('')).llm!.timeoutMs).toEqual({ value: 30000, from: 'default' });
  });

  it('quotes a huge value short', async () => {
    await expect(load('9'.repeat(100_000))).rejects.toThrow(`not "${'9'.repeat(80)}… (100000 characters)"`);
  });

  it.each([-5, 1e12, 0, 1.5, '30000'])('llm.timeout_ms %j in config.json is refused with the same words', async (value) => {
    writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ llm: { model: 'm', timeout_ms: value } }));
    await expect(loadConfig({}, { DESKPILOT_CONFIG_DIR: dir })).rejects.toThrow(
      /config\.json: llm\.timeout_ms: must be a whole number of milliseconds from 1000 to 600000$/,
    );
  });

  it('the file value is used when the variable is unset, and the variable wins over it', async () => {
    writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ llm: { model: 'm', timeout_ms: 5000 } }));
    expect((await loadConfig({}, { DESKPILOT_CONFIG_DIR: dir })).llm!.timeoutMs).toEqual({ value: 5000, from: 'file' });
    expect((await loadConfig({}, { DESKPILOT_CONFIG_DIR: dir, DESKPILOT_LLM_TIMEOUT_MS: '7000' })).llm!.timeoutMs).toEqual({ value: 7000, from: 'env' });
  });
});

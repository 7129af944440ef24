import { describe, expect, it } from 'vitest';
import { configDirFrom, forwardable } from './service-route';

describe('forwardable: which calls the thin client hands to the service', () => {
  const env = {};

  it("hands over the desk's commands and help, with the --config-dir they name", () => {
    expect(forwardable(['exec', '{"type":"list_tabs"}'], env)).toEqual({ configDir: undefined });
    expect(forwardable(['run', '--planner', 'local', 'close tab 3'], env)).toEqual({ configDir: undefined });
    expect(forwardable(['--config-dir', 'cfg', 'presets', 'list'], env)).toEqual({ configDir: 'cfg' });
    expect(forwardable(['context', '--config-dir=/c', '--json'], env)).toEqual({ configDir: '/c' });
    expect(forwardable(['--help'], env)).toEqual({ configDir: undefined });
    expect(forwardable([], env)).toEqual({ configDir: undefined });
    expect(forwardable(['help', 'exec'], env)).toEqual({ configDir: undefined });
  });

  it('keeps in the CLI\'s own process what needs it, or what it cannot read for sure', () => {
    for (const argv of [
      ['exec', '-'],
      ['--no-service', 'context'],
      ['context', '--chrome-url', 'http://127.0.0.1:9222'],
      ['context', '--chrome-url=http://127.0.0.1:9222'],
      ['--allow-remote-chrome', 'context'],
      ['run', '--', '--no-such-flag'],
      ['--json', 'context'],
      ['--config-dir'],
      ['service'],
      ['service', 'status'],
      ['chrome', 'launch'],
      ['agent', 'find the top story'],
      ['mcp'],
      ['no-such-command'],
    ]) {
      expect(forwardable(argv, env), argv.join(' ')).toBeNull();
    }
    expect(forwardable(['context'], { DESKPILOT_NO_SERVICE: '1' })).toBeNull();
  });
});

describe('configDirFrom', () => {
  it('resolves a relative --config-dir in the given working directory, before the environment', () => {
    expect(configDirFrom({ configDir: 'cfg' }, { DESKPILOT_CONFIG_DIR: '/env' }, '/home/me')).toBe('/home/me/cfg');
    expect(configDirFrom({}, { DESKPILOT_CONFIG_DIR: 'rel' }, '/work')).toBe('/work/rel');
  });
});

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultUserDataDirs, errorCode, parseDevToolsActivePort, readDevToolsActivePort } from './discover';

describe('DevToolsActivePort', () => {
  it('parses port and browser path', () => {
    expect(parseDevToolsActivePort('33503\n/devtools/browser/0bba2389\n')).toEqual({ port: 33503, browserPath: '/devtools/browser/0bba2389' });
    expect(parseDevToolsActivePort('33503\r\n/devtools/browser/x')).toEqual({ port: 33503, browserPath: '/devtools/browser/x' });
  });

  it('rejects half-written or foreign content', () => {
    expect(parseDevToolsActivePort('')).toBeNull();
    expect(parseDevToolsActivePort('33503')).toBeNull();
    expect(parseDevToolsActivePort('33503\n')).toBeNull();
    expect(parseDevToolsActivePort('abc\n/devtools/browser/x')).toBeNull();
    expect(parseDevToolsActivePort('70000\n/devtools/browser/x')).toBeNull();
    expect(parseDevToolsActivePort('9222\n/devtools/page/x')).toBeNull();
  });

  it('reads the file from a user-data dir, null when absent', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'deskpilot-dap-'));
    try {
      expect(await readDevToolsActivePort(dir)).toBeNull();
      await writeFile(path.join(dir, 'DevToolsActivePort'), '41234\n/devtools/browser/abc-def');
      expect(await readDevToolsActivePort(dir)).toEqual({
        port: 41234,
        browserPath: '/devtools/browser/abc-def',
        wsUrl: 'ws://127.0.0.1:41234/devtools/browser/abc-def',
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('defaultUserDataDirs', () => {
  it('lists the Linux browsers under XDG config, Chrome first', () => {
    const dirs = defaultUserDataDirs('linux', {}, '/home/u');
    expect(dirs[0]).toBe('/home/u/.config/google-chrome');
    expect(dirs).toContain('/home/u/.config/chromium');
    expect(dirs).toContain('/home/u/.config/BraveSoftware/Brave-Browser');
    expect(dirs).toContain('/home/u/.config/microsoft-edge');
    expect(defaultUserDataDirs('linux', { XDG_CONFIG_HOME: '/x' }, '/home/u')[0]).toBe('/x/google-chrome');
  });

  it('uses Application Support on macOS and LOCALAPPDATA on Windows', () => {
    expect(defaultUserDataDirs('darwin', {}, '/Users/u')).toContain('/Users/u/Library/Application Support/Google/Chrome');
    expect(defaultUserDataDirs('darwin', {}, '/Users/u')).toContain('/Users/u/Library/Application Support/Chromium');
    expect(defaultUserDataDirs('win32', { LOCALAPPDATA: 'C:\\Users\\u\\AppData\\Local' }, 'C:\\Users\\u')[0]).toBe(
      'C:\\Users\\u\\AppData\\Local\\Google\\Chrome\\User Data',
    );
  });
});

describe('errorCode', () => {
  it('digs the socket code out of fetch-style wrappers', () => {
    const inner = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    expect(errorCode(new TypeError('fetch failed', { cause: inner }))).toBe('ECONNREFUSED');
    expect(errorCode(new TypeError('fetch failed', { cause: new AggregateError([inner]) }))).toBe('ECONNREFUSED');
    expect(errorCode(new Error('plain'))).toBeUndefined();
  });
});

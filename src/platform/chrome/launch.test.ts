import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChromeUnavailableError } from '../../engine/errors';
import { findChromeExecutable, launchChrome } from './launch';

describe('findChromeExecutable', () => {
  const only = (...files: string[]) => (f: string) => files.includes(f);

  it('prefers DESKPILOT_CHROME_PATH', () => {
    expect(
      findChromeExecutable({ platform: 'linux', env: { DESKPILOT_CHROME_PATH: '/opt/c/chrome', PATH: '/usr/bin' }, isExecutable: only('/opt/c/chrome', '/usr/bin/chromium') }),
    ).toBe('/opt/c/chrome');
  });

  it('names a DESKPILOT_CHROME_PATH that is not executable instead of searching elsewhere', () => {
    expect(() =>
      findChromeExecutable({ platform: 'linux', env: { DESKPILOT_CHROME_PATH: '/nope', PATH: '/usr/bin' }, isExecutable: only('/usr/bin/chromium') }),
    ).toThrow(/DESKPILOT_CHROME_PATH is \/nope/);
  });

  it('searches PATH in order: google-chrome-stable before chromium', () => {
    const env = { PATH: '/a:/b' };
    expect(findChromeExecutable({ platform: 'linux', env, isExecutable: only('/a/chromium', '/b/google-chrome-stable') })).toBe('/b/google-chrome-stable');
    expect(findChromeExecutable({ platform: 'linux', env, isExecutable: only('/usr/lib/chromium/chromium') })).toBe('/usr/lib/chromium/chromium');
  });

  it('knows the macOS and Windows install locations', () => {
    expect(
      findChromeExecutable({ platform: 'darwin', env: { HOME: '/Users/u' }, isExecutable: only('/Users/u/Applications/Chromium.app/Contents/MacOS/Chromium') }),
    ).toBe('/Users/u/Applications/Chromium.app/Contents/MacOS/Chromium');
    expect(
      findChromeExecutable({
        platform: 'win32',
        env: { LOCALAPPDATA: 'C:\\Users\\u\\AppData\\Local' },
        isExecutable: only('C:\\Users\\u\\AppData\\Local\\Google\\Chrome\\Application\\chrome.exe'),
      }),
    ).toBe('C:\\Users\\u\\AppData\\Local\\Google\\Chrome\\Application\\chrome.exe');
  });

  it('says what it searched and how to fix it when nothing is installed', () => {
    let err: unknown;
    try {
      findChromeExecutable({ platform: 'linux', env: { PATH: '/usr/bin' }, isExecutable: () => false });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ChromeUnavailableError);
    expect((err as Error).message).toMatch(/google-chrome-stable, google-chrome, chromium, chromium-browser, \/usr\/lib\/chromium\/chromium/);
    expect((err as Error).message).toMatch(/set DESKPILOT_CHROME_PATH/);
  });
});

describe('launchChrome failures', () => {
  let profileDir: string;
  beforeEach(async () => {
    profileDir = await mkdtemp(path.join(os.tmpdir(), 'deskpilot-launch-unit-'));
  });
  afterEach(async () => {
    await rm(profileDir, { recursive: true, force: true });
  });

  it('names a binary that cannot be started', async () => {
    await expect(launchChrome({ profileDir, executable: '/nonexistent/chrome' })).rejects.toThrow(
      /^Could not start Chrome at \/nonexistent\/chrome .*DESKPILOT_CHROME_PATH/,
    );
  });

  it('points at the log when the browser dies before opening its port', async () => {
    const err = await launchChrome({ profileDir, executable: '/bin/false' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ChromeUnavailableError);
    expect((err as Error).message).toBe(
      `Chrome (/bin/false) exited with code 1 before opening its debugging port; see ${path.join(profileDir, 'deskpilot-chrome.log')} for its output.`,
    );
  });

  it('explains a hand-off to a Chrome already running on the profile (exit code 0) and ignores a stale port file', async () => {
    await writeFile(path.join(profileDir, 'DevToolsActivePort'), '1\n/devtools/browser/stale');
    await expect(launchChrome({ profileDir, executable: '/bin/true' })).rejects.toThrow(/already uses .* without remote debugging; quit that Chrome/);
  });
});

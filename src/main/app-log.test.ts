import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../tests/support/wait-for';
import { APP_LOG_NAME, appLog, logToFolder } from './app-log';

// The app's log through the real electron-log (its Node flavour needs no Electron runtime): what
// main says reaches app.log in the state folder, a file a person can open when the app started
// at login and no terminal showed anything. And main says nothing through bare console calls.

const read = (file: string) => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
};

describe('the app log', () => {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-app-log-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('writes each line, with its level, to app.log in the given folder', async () => {
    const file = logToFolder(folder);
    expect(file).toBe(path.join(folder, APP_LOG_NAME));
    appLog.info('device sync: connected to wss://sync.example.org');
    appLog.warn('the launcher hotkey Control+Alt+Space is taken');
    appLog.error('could not set launch at login: EACCES');
    const text = await waitFor('three lines in app.log', () => (read(file).split('\n').length > 3 ? read(file) : undefined));
    expect(text).toMatch(/\[info\]\s+device sync: connected to wss:\/\/sync\.example\.org/);
    expect(text).toMatch(/\[warn\]\s+the launcher hotkey Control\+Alt\+Space is taken/);
    expect(text).toMatch(/\[error\]\s+could not set launch at login: EACCES/);
  });

  it('main reports through the log, never console.* (lost when the app starts at login)', () => {
    const here = __dirname;
    const offenders = readdirSync(here)
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
      .flatMap((f) =>
        readFileSync(path.join(here, f), 'utf8')
          .split('\n')
          .map((line, i) => ({ where: `${f}:${i + 1}`, line }))
          // A default that a caller replaces (hotkeys, the secret store: index.ts passes the log) is allowed.
          .filter(({ line }) => /\bconsole\.(log|info|warn|error|debug)\(/.test(line) && !/=\s*\(m\)\s*=>\s*console\./.test(line)),
      );
    expect(offenders).toEqual([]);
  });
});

import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tokenizeExec } from '../exec-line';
import { appRunsFile, defaultHandlerRunsFile } from './run-risk';

const app = (name: string, categories: string[] = [], defaultFor?: Array<'terminal' | 'browser'>) => ({ name, categories, ...(defaultFor ? { defaultFor } : {}) });
const risk = (exec: string, a = app('Some App')) => appRunsFile(a, tokenizeExec(exec));

describe('opening a recent file never runs it: decided by what the desktop entry says', () => {
  it('refuses terminals (by category or as the default terminal), entries that take no files, interpreters, and "execute this" options', () => {
    expect(risk('xterm', app('XTerm', ['System', 'TerminalEmulator']))).toMatch(/XTerm is a terminal/);
    expect(risk('myterm %f', app('My Term', [], ['terminal']))).toMatch(/My Term is a terminal/);
    expect(risk('konsole')).toMatch(/does not say it opens files/);
    expect(risk('sh %f')).toMatch(/starts sh with the file/);
    expect(risk('env LANG=C python3.11 %f')).toMatch(/starts python3\.11 with the file/);
    expect(risk('/usr/bin/xterm -hold -e %f')).toMatch(/passes the file after "-e"/);
    expect(risk('foot -e bash -c %f')).toMatch(/starts bash with the file/);
  });

  it('lets apps that open files open them', () => {
    expect(risk('gedit %U')).toBeNull();
    expect(risk('/usr/share/code/code --unity-launch %F')).toBeNull();
    expect(risk('xterm -T "Test Viewer" -e tail -f %f')).toBeNull();
  });

  it('the default handler is not given a program: an executable or a .desktop launcher', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'deskpilot-run-risk-'));
    try {
      const [script, launcher, note] = ['run.sh', 'evil.desktop', 'note.txt'].map((f) => path.join(dir, f)) as [string, string, string];
      await Promise.all([writeFile(script, '#!/bin/sh\n'), writeFile(launcher, '[Desktop Entry]\n'), writeFile(note, 'hi\n')]);
      await chmod(script, 0o755);
      expect(await defaultHandlerRunsFile(script)).toMatch(/run\.sh is executable/);
      expect(await defaultHandlerRunsFile(launcher)).toMatch(/evil\.desktop is a launcher/);
      expect(await defaultHandlerRunsFile(note)).toBeNull();
      expect(await defaultHandlerRunsFile(dir)).toBeNull(); // a project folder opens in the file manager
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

import { describe, expect, it } from 'vitest';
import { parseDesktopEntry, unescapeValue } from './desktop-entry';

describe('unescapeValue', () => {
  it('decodes the spec escapes and keeps unknown ones for the Exec parser', () => {
    expect(unescapeValue('a\\sb\\nc\\td\\re\\\\f')).toBe('a b\nc\td\re\\f');
    expect(unescapeValue('say \\"hi\\" \\$HOME \\;')).toBe('say \\"hi\\" \\$HOME \\;');
    expect(unescapeValue('\\\\\\\\')).toBe('\\\\');
  });
});

describe('parseDesktopEntry', () => {
  const text = [
    '# leading comment',
    '[Desktop Entry]',
    'Type=Application',
    'Name = Clock  ',
    'Name[de]=Uhr',
    'Name[sr@latin]=Sat',
    'GenericName=Time',
    '# Name=Commented',
    'Comment=Shows\\sthe\\ttime',
    'Exec=xclock %u',
    'Terminal=false',
    'NoDisplay=true',
    'StartupWMClass=XClock',
    'not a key line',
    'Bad Key=ignored',
    '',
    '[Desktop Action new]',
    'Name=New Clock',
    'Exec=xclock -new',
  ].join('\r\n');

  it('reads only the unlocalized keys of the [Desktop Entry] group', () => {
    const e = parseDesktopEntry(text)!;
    expect(e.name).toBe('Clock');
    expect(e.exec).toBe('xclock %u');
    expect(e.type).toBe('Application');
    expect(e.noDisplay).toBe(true);
    expect(e.hidden).toBe(false);
    expect(e.terminal).toBe(false);
    expect(e.startupWMClass).toBe('XClock');
    expect(e.keys.get('Comment')).toBe('Shows the\ttime');
    expect([...e.keys.keys()]).not.toContain('Name[de]');
    expect([...e.keys.keys()]).not.toContain('Bad Key');
  });

  it('ignores groups before the entry and stops at a second [Desktop Entry]', () => {
    const e = parseDesktopEntry('[Other]\nName=Nope\n[Desktop Entry]\nName=Yes\n[Desktop Entry]\nName=Again\n')!;
    expect(e.name).toBe('Yes');
  });

  it('returns null without a [Desktop Entry] group', () => {
    expect(parseDesktopEntry('Name=Loose\n[Desktop Action x]\nName=y')).toBeNull();
  });

  it('reads GenericName and the ;-separated Keywords and Categories lists (an escaped \\; stays in its item)', () => {
    const e = parseDesktopEntry('[Desktop Entry]\nGenericName= Terminal \nKeywords=shell;prompt;command line;a\\;b;\nCategories=System;TerminalEmulator;\n')!;
    expect(e.genericName).toBe('Terminal');
    expect(e.keywords).toEqual(['shell', 'prompt', 'command line', 'a;b']);
    expect(e.categories).toEqual(['System', 'TerminalEmulator']);
    expect(parseDesktopEntry('[Desktop Entry]\nName=x')).toMatchObject({ genericName: undefined, keywords: [], categories: [] });
  });

  it('treats only "true" as true', () => {
    expect(parseDesktopEntry('[Desktop Entry]\nHidden=True\nNoDisplay=1\nTerminal=true')).toMatchObject({
      hidden: false,
      noDisplay: false,
      terminal: true,
    });
  });
});

import { describe, expect, it } from 'vitest';
import { unescapeValue } from './desktop-entry';
import { ExecSyntaxError, execProgramName, expandFieldCodes, tokenizeExec } from './exec-line';

const ctx = { name: 'Test App', icon: 'test-icon', location: '/apps/test.desktop' };
const argvOf = (rawValue: string) => expandFieldCodes(tokenizeExec(unescapeValue(rawValue)), ctx);

describe('tokenizeExec', () => {
  it('splits on whitespace and keeps double-quoted arguments whole', () => {
    expect(tokenizeExec('xclock  -title "Test Clock"\t-update 1')).toEqual(['xclock', '-title', 'Test Clock', '-update', '1']);
  });

  it('unescapes ", `, $ and \\ inside double quotes and keeps other backslashes', () => {
    expect(tokenizeExec('sh -c "echo \\"\\$HOME\\" \\`x\\` \\\\ \\n"')).toEqual(['sh', '-c', 'echo "$HOME" `x` \\ \\n']);
  });

  it('applies the string escapes before the quoting rules (four backslashes make one)', () => {
    // File text: Exec=printf "a\\\\b" → string value: printf "a\\b" → argument: a\b
    expect(argvOf('printf "a\\\\\\\\b"')).toEqual(['printf', 'a\\b']);
    // \s is a space inside one argument once quoted
    expect(argvOf('"/opt/My\\sApp/run"')).toEqual(['/opt/My App/run']);
  });

  it('accepts single quotes, backslash escapes and quotes inside a word', () => {
    expect(tokenizeExec("run 'a b' c\\ d --x=\"1 2\" \"\"")).toEqual(['run', 'a b', 'c d', '--x=1 2', '']);
  });

  it('rejects an unterminated quote', () => {
    expect(() => tokenizeExec('run "oops')).toThrow(ExecSyntaxError);
    expect(() => tokenizeExec("run 'oops")).toThrow(ExecSyntaxError);
  });
});

describe('expandFieldCodes', () => {
  it('drops file and URL codes, whole arguments included', () => {
    expect(argvOf('app %f %F %u %U --open=%u')).toEqual(['app', '--open=']);
  });

  it('drops the deprecated codes', () => {
    expect(argvOf('app %d %D %n %N %v %m')).toEqual(['app']);
  });

  it('fills %c, %k and a standalone %i; %% is a percent sign', () => {
    expect(argvOf('app --name %c --from %k %i --pct 100%%')).toEqual([
      'app', '--name', 'Test App', '--from', '/apps/test.desktop', '--icon', 'test-icon', '--pct', '100%',
    ]);
    expect(expandFieldCodes(['app', '%i'], { name: 'x', location: '/x' })).toEqual(['app']);
  });

  it('strips a code inside a quoted argument (undefined by the spec) and keeps the rest', () => {
    expect(argvOf('xclock -title "Test Clock %u"')).toEqual(['xclock', '-title', 'Test Clock ']);
  });
});

describe('execProgramName', () => {
  it('is the base name of the program, also behind env VAR=value', () => {
    expect(execProgramName(['/usr/bin/google-chrome-stable'])).toBe('google-chrome-stable');
    expect(execProgramName(['env', 'BAMF_DESKTOP_FILE_HINT=/x.desktop', '/snap/bin/firefox', '--new'])).toBe('firefox');
    expect(execProgramName([])).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { extensionSourceDir, extensionTargetDir, formatStringArray, parseStringArray } from './extension-install';

describe('installing the GNOME extension: paths and gsettings string arrays', () => {
  it('reads the arrays gsettings prints, empty ones included', () => {
    expect(parseStringArray('@as []')).toEqual([]);
    expect(parseStringArray("['a@b.org', 'deskpilot@deskpilot.app']")).toEqual(['a@b.org', 'deskpilot@deskpilot.app']);
    expect(parseStringArray(`['it\\'s@x', "q@y"]`)).toEqual(["it's@x", 'q@y']);
  });

  it('writes them back so gsettings reads the same strings', () => {
    const items = ['a@b.org', "it's@x", 'back\\slash@z'];
    expect(parseStringArray(formatStringArray(items))).toEqual(items);
    expect(formatStringArray([])).toBe('[]');
  });

  it('goes where GNOME Shell looks for a user\'s extensions (XDG_DATA_HOME when absolute)', () => {
    expect(extensionTargetDir({}, '/home/u')).toBe('/home/u/.local/share/gnome-shell/extensions/deskpilot@deskpilot.app');
    expect(extensionTargetDir({ XDG_DATA_HOME: '/data' }, '/home/u')).toBe('/data/gnome-shell/extensions/deskpilot@deskpilot.app');
    expect(extensionTargetDir({ XDG_DATA_HOME: 'relative' }, '/home/u')).toBe('/home/u/.local/share/gnome-shell/extensions/deskpilot@deskpilot.app');
  });

  it('finds the extension shipped in this checkout', () => {
    expect(extensionSourceDir()).toMatch(/gnome-extension\/deskpilot@deskpilot\.app$/);
  });
});

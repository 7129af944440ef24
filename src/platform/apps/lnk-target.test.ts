import { describe, expect, it } from 'vitest';
import { buildLnk } from './lnk-fixture';
import { readLnkTarget } from './lnk-target';

describe('readLnkTarget', () => {
  it('reads the ANSI local base path behind an IDList', () => {
    expect(readLnkTarget(buildLnk('C:\\Program Files\\Mozilla Firefox\\firefox.exe'))).toBe('C:\\Program Files\\Mozilla Firefox\\firefox.exe');
    expect(readLnkTarget(buildLnk('C:\\Tools\\', { idList: false, suffix: 'tool.exe' }))).toBe('C:\\Tools\\tool.exe');
  });

  it('prefers the Unicode path when present', () => {
    expect(readLnkTarget(buildLnk('C:\\Programme\\Übersetzer\\dolmetsch.exe', { unicode: true }))).toBe('C:\\Programme\\Übersetzer\\dolmetsch.exe');
  });

  it('returns null without LinkInfo (advertised shortcuts) and for junk or truncated data', () => {
    expect(readLnkTarget(buildLnk(null))).toBeNull();
    expect(readLnkTarget(Buffer.from('not a link'))).toBeNull();
    expect(readLnkTarget(buildLnk('C:\\a.exe').subarray(0, 0x60))).toBeNull();
  });
});

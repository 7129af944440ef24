import type { XProperty } from 'x11';
import { describe, expect, it } from 'vitest';
import { cardinals, text, wmClass } from './property-decode';

const UTF8_STRING = 300;
const STRING = 31;
const prop = (type: number, format: number, data: Buffer): XProperty => ({ type, format, bytesAfter: 0, data });

describe('property decoding', () => {
  it('reads 32-bit lists and treats absent or mis-formatted properties as empty', () => {
    const data = Buffer.alloc(8);
    data.writeUInt32LE(0x1a00003, 0);
    data.writeUInt32LE(42, 4);
    expect(cardinals(prop(33, 32, data))).toEqual([0x1a00003, 42]);
    expect(cardinals(prop(0, 0, Buffer.alloc(0)))).toEqual([]);
    expect(cardinals(prop(31, 8, Buffer.from('abcd')))).toEqual([]);
    expect(cardinals(null)).toEqual([]);
  });

  it('decodes UTF8_STRING as UTF-8 and STRING as Latin-1', () => {
    expect(text(prop(UTF8_STRING, 8, Buffer.from('Grüße — ok', 'utf8')), UTF8_STRING)).toBe('Grüße — ok');
    expect(text(prop(STRING, 8, Buffer.from('caf\xe9', 'latin1')), UTF8_STRING)).toBe('café');
    expect(text(prop(0, 0, Buffer.alloc(0)), UTF8_STRING)).toBeNull();
  });

  it('splits WM_CLASS into instance and class', () => {
    expect(wmClass(prop(STRING, 8, Buffer.from('xterm\0XTerm\0', 'latin1')))).toEqual({ instance: 'xterm', klass: 'XTerm' });
    expect(wmClass(prop(STRING, 8, Buffer.from('chromium (/tmp/p)\0Chromium\0', 'latin1')))).toEqual({
      instance: 'chromium (/tmp/p)',
      klass: 'Chromium',
    });
    expect(wmClass(null)).toEqual({ instance: '', klass: '' });
  });
});

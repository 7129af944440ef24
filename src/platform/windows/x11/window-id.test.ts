import { describe, expect, it } from 'vitest';
import { formatWindowId, parseWindowId } from './window-id';

describe('window ids', () => {
  it('formats like xprop and wmctrl, and parses back', () => {
    expect(formatWindowId(0x1a00003)).toBe('0x1a00003');
    expect(parseWindowId('0x1a00003')).toBe(0x1a00003);
    expect(parseWindowId('0x01A00003')).toBe(0x1a00003);
    expect(parseWindowId('27262979')).toBe(27262979);
  });

  it('rejects what cannot name a window', () => {
    for (const bad of ['', '0x0', '0', 'xterm', '0xZZ', '-5', '0x1ffffffff']) expect(parseWindowId(bad)).toBeNull();
  });
});

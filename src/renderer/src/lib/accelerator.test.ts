import { afterEach, describe, expect, it, vi } from 'vitest';

// Both modules read the platform once, at load: each test stubs navigator, then loads them afresh.

async function load(platform: string) {
  vi.resetModules();
  vi.stubGlobal('navigator', { platform, userAgent: '' });
  const [{ acceleratorFor }, { acceleratorLabel }] = await Promise.all([import('./accelerator'), import('./accelerator-label')]);
  return { acceleratorFor, acceleratorLabel };
}

const chord = (code: string, mods: Partial<Record<'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey', boolean>> = {}) => ({
  code,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  shiftKey: false,
  ...mods,
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('acceleratorFor', () => {
  it('writes the main modifier the portable way on Linux and on a Mac', async () => {
    const linux = await load('Linux x86_64');
    expect(linux.acceleratorFor(chord('Space', { ctrlKey: true, shiftKey: true }))).toBe('CommandOrControl+Shift+Space');
    expect(linux.acceleratorFor(chord('KeyK', { metaKey: true }))).toBe('Super+K');
    const mac = await load('MacIntel');
    expect(mac.acceleratorFor(chord('Space', { metaKey: true, altKey: true }))).toBe('CommandOrControl+Option+Space');
  });

  it('refuses a key without a modifier (except F-keys), a lone modifier and keys Electron cannot bind', async () => {
    const { acceleratorFor } = await load('Linux x86_64');
    expect(acceleratorFor(chord('KeyA'))).toBeNull();
    expect(acceleratorFor(chord('F5'))).toBe('F5');
    expect(acceleratorFor(chord('ShiftLeft', { shiftKey: true }))).toBeNull();
    expect(acceleratorFor(chord('ArrowUp', { altKey: true }))).toBe('Alt+Up');
  });
});

describe('acceleratorLabel', () => {
  it('reads as Ctrl+Shift+Space off a Mac and as symbols on one', async () => {
    expect((await load('Linux x86_64')).acceleratorLabel('CommandOrControl+Shift+Space')).toBe('Ctrl+Shift+Space');
    expect((await load('MacIntel')).acceleratorLabel('CommandOrControl+Shift+Space')).toBe('⌘⇧Space');
  });
});

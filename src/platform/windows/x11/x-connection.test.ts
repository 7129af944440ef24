import type { XClient } from 'x11';
import { describe, expect, it } from 'vitest';
import { resetAtomCache } from './x-connection';

describe('atom cache reset', () => {
  it('keeps predefined atoms, drops interned ones from the shared cache, and gives the client its own', () => {
    const shared: Record<string, number> = { WM_NAME: 39, WM_CLASS: 67, _NET_WM_NAME: 301, UTF8_STRING: 302 };
    const client = { atoms: shared, atom_names: { 301: '_NET_WM_NAME' } } as unknown as XClient;
    resetAtomCache(client);
    expect(shared).toEqual({ WM_NAME: 39, WM_CLASS: 67 });
    expect(client.atoms).toEqual({ WM_NAME: 39, WM_CLASS: 67 });
    expect(client.atoms).not.toBe(shared);
    expect(client.atom_names).toEqual({ 39: 'WM_NAME', 67: 'WM_CLASS' });
  });
});

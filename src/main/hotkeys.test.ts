import { describe, expect, it, vi } from 'vitest';
import { HotkeyManager, sameAccelerator, type ShortcutRegistry } from './hotkeys';

/** A stand-in for Electron's globalShortcut: some combinations are taken, some invalid. */
function fakeGlobalShortcut(o: { taken?: string[]; invalid?: string[] } = {}) {
  const held = new Map<string, () => void>();
  const registry: ShortcutRegistry = {
    register: (accelerator, callback) => {
      if (o.invalid?.includes(accelerator)) throw new Error(`conversion failure from ${accelerator}`);
      if (o.taken?.includes(accelerator) || held.has(accelerator)) return false;
      held.set(accelerator, callback);
      return true;
    },
    unregister: (accelerator) => {
      held.delete(accelerator);
    },
  };
  return { registry, held, press: (a: string) => held.get(a)?.() };
}

describe('hotkey manager (fake Electron objects)', () => {
  it('registers both hotkeys and runs their actions', async () => {
    const gs = fakeGlobalShortcut();
    const launcher = vi.fn();
    const voice = vi.fn();
    const m = new HotkeyManager(gs.registry, { launcher, voice });
    expect(m.apply({ launcher: 'Alt+Space', voice: 'Alt+Shift+Space' })).toEqual({
      launcher: { accelerator: 'Alt+Space', registered: true, error: null },
      voice: { accelerator: 'Alt+Shift+Space', registered: true, error: null },
    });
    gs.press('Alt+Space');
    gs.press('Alt+Shift+Space');
    await Promise.resolve();
    await Promise.resolve();
    expect(launcher).toHaveBeenCalledOnce();
    expect(voice).toHaveBeenCalledOnce();
  });

  it('says which combination another app holds (register returned false)', () => {
    const gs = fakeGlobalShortcut({ taken: ['Alt+Space'] });
    const m = new HotkeyManager(gs.registry, { launcher: () => {}, voice: () => {} });
    const s = m.apply({ launcher: 'Alt+Space', voice: 'Alt+Shift+Space' });
    expect(s.launcher).toEqual({ accelerator: 'Alt+Space', registered: false, error: 'Alt+Space is used by another app; choose another shortcut in Settings' });
    expect(s.voice.registered).toBe(true);
    expect(m.status()).toEqual(s);
  });

  it('records the message of an invalid accelerator instead of throwing', () => {
    const gs = fakeGlobalShortcut({ invalid: ['Hyper+Q'] });
    const m = new HotkeyManager(gs.registry, { launcher: () => {}, voice: () => {} });
    const s = m.apply({ launcher: 'Control+Alt+Space', voice: 'Hyper+Q' });
    expect(s.launcher.registered).toBe(true);
    expect(s.voice).toEqual({ accelerator: 'Hyper+Q', registered: false, error: 'Hyper+Q is not a valid shortcut (conversion failure from Hyper+Q)' });
  });

  it('refuses the launcher combination for push-to-talk, however it is spelled', () => {
    const gs = fakeGlobalShortcut();
    const m = new HotkeyManager(gs.registry, { launcher: () => {}, voice: () => {} });
    const s = m.apply({ launcher: 'Ctrl+Alt+Space', voice: 'alt+control+space' });
    expect(s.launcher.registered).toBe(true);
    expect(s.voice.registered).toBe(false);
    expect(s.voice.error).toMatch(/already the launcher hotkey/);
    expect([...gs.held.keys()]).toEqual(['Ctrl+Alt+Space']);
  });

  it('re-registering releases the old combinations, and only those it holds', () => {
    const gs = fakeGlobalShortcut({ taken: ['Alt+Shift+Space'] });
    const unregister = vi.spyOn(gs.registry, 'unregister');
    const m = new HotkeyManager(gs.registry, { launcher: () => {}, voice: () => {} });
    m.apply({ launcher: 'Alt+Space', voice: 'Alt+Shift+Space' });
    expect([...gs.held.keys()]).toEqual(['Alt+Space']);
    const s = m.apply({ launcher: 'Control+Space', voice: 'Control+Shift+Space' });
    // The taken one was never ours, so it is not "released" from its owner.
    expect(unregister.mock.calls).toEqual([['Alt+Space']]);
    expect([...gs.held.keys()]).toEqual(['Control+Space', 'Control+Shift+Space']);
    expect(s.launcher.registered && s.voice.registered).toBe(true);
    m.release();
    expect(gs.held.size).toBe(0);
  });

  it('re-applying the same combinations keeps them registered', () => {
    const gs = fakeGlobalShortcut();
    const m = new HotkeyManager(gs.registry, { launcher: () => {}, voice: () => {} });
    m.apply({ launcher: 'Alt+Space', voice: 'Alt+Shift+Space' });
    const s = m.apply({ launcher: 'Alt+Space', voice: 'Alt+Shift+Space' });
    expect(s.launcher.registered && s.voice.registered).toBe(true);
  });

  it('a failing action is logged, not thrown into Electron', async () => {
    const gs = fakeGlobalShortcut();
    const log = vi.fn();
    const m = new HotkeyManager(gs.registry, { launcher: () => Promise.reject(new Error('window gone')), voice: () => {} }, log);
    m.apply({ launcher: 'Alt+Space', voice: 'Alt+Shift+Space' });
    expect(() => gs.press('Alt+Space')).not.toThrow();
    await new Promise((r) => setTimeout(r, 0));
    expect(log).toHaveBeenCalledWith('the launcher hotkey failed: window gone');
  });

  it('compares accelerators by keys, not spelling', () => {
    expect(sameAccelerator('CmdOrCtrl+Shift+K', 'shift+commandorcontrol+k')).toBe(true);
    expect(sameAccelerator('Alt+Space', 'Option+Space')).toBe(true);
    expect(sameAccelerator('Alt+Space', 'Alt+Shift+Space')).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import recorded from './test-fixtures/kwin-5.27-answers.json';
import { KwinSnapshot, KwinWindowInfo, readAnswer, toRawMonitors, windowsTopFirst } from './kwin-answers';
import { parseScreenNames } from './screen-names';

// Answers recorded from a real KWin 5.27.5 (kwin_wayland --virtual, two outputs, weston-terminal
// and a GTK 3 window) through this backend's own script and receiver.

describe('KWin answers (recorded from KWin 5.27)', () => {
  it('lists normal windows top of the stacking order first, with app keys and whole-pixel frames', () => {
    const snap = readAnswer(recorded.snapshot, KwinSnapshot, 'listing windows');
    const windows = windowsTopFirst(snap);
    expect(windows.map((w) => w.title)).toEqual(['Kilo window', 'Wayland Terminal']);
    expect(windows[1]).toEqual({
      id: '{f18bd475-614d-43e2-817f-edc248fd81cb}',
      pid: 29052,
      appKeys: ['org.freedesktop.weston.wayland-terminal', 'weston-terminal'],
      fallbackName: 'org.freedesktop.weston.wayland-terminal',
      title: 'Wayland Terminal',
      bounds: [1920, 0, 2878, 1067],
      focused: false,
      minimized: false,
      fullscreen: false,
    });
    expect(windows[0]!.focused).toBe(true);
  });

  it('names KWin 5 screens from its support information, work areas from MaximizeArea', () => {
    const snap = readAnswer(recorded.snapshot, KwinSnapshot, 'listing monitors');
    const monitors = toRawMonitors(snap.screens, parseScreenNames(recorded.supportInformationScreens));
    expect(monitors).toEqual([
      { id: 'Virtual-0', name: 'Virtual-0', bounds: [0, 0, 1920, 1080], workArea: [0, 0, 1920, 1080], primary: true, scale: 1 },
      { id: 'Virtual-1', name: 'Virtual-1', bounds: [1920, 0, 3840, 1080], workArea: [1920, 0, 3840, 1080], primary: false, scale: 1 },
    ]);
  });

  it('falls back to "Screen N" when KWin names no output', () => {
    const snap = readAnswer(recorded.snapshot, KwinSnapshot, 'listing monitors');
    expect(toRawMonitors(snap.screens, new Map()).map((m) => m.name)).toEqual(['Screen 0', 'Screen 1']);
  });

  it('a window the script did not find is window_gone for that id', () => {
    expect(() => readAnswer(recorded.gone, KwinWindowInfo, 'moving a window', '{0-0}')).toThrow(expect.objectContaining({ code: 'window_gone', windowId: '{0-0}' }));
  });

  it("what KWin refuses is 'unavailable' and names KWin", () => {
    const json = JSON.stringify({ ok: false, refused: 'KWin says this window cannot be full screen' });
    expect(() => readAnswer(json, KwinWindowInfo, 'making a window full screen')).toThrow(
      expect.objectContaining({ code: 'unavailable', message: 'KWin says this window cannot be full screen (making a window full screen)' }),
    );
  });

  it('refuses an answer of the wrong shape, naming the field', () => {
    const bad = JSON.parse(recorded.window) as { value: Record<string, unknown> };
    bad.value.frame = { x: 1, y: 2, width: 'wide', height: 3 };
    expect(() => readAnswer(JSON.stringify(bad), KwinWindowInfo, 'reading a window')).toThrow(/unexpected shape at frame\.width/);
    expect(() => readAnswer('not json', KwinWindowInfo, 'reading a window')).toThrow(/was not JSON/);
    expect(() => readAnswer('{"ok":"yes"}', z.null(), 'closing a window')).toThrow(/unexpected shape/);
  });

  it("a script's own failure says so", () => {
    expect(() => readAnswer('{"ok":false,"error":"TypeError: boom"}', z.null(), 'closing a window')).toThrow(
      expect.objectContaining({ code: 'windows_unavailable', message: "KWin's script failed while closing a window: TypeError: boom" }),
    );
  });
});

import { describe, expect, it } from 'vitest';
import { parseJsonAnswer, windowsSchema, type ShellWindow } from './extension-answers';
import { sessionBusAddress } from './shell-bus';
import { toBox, toRawMonitor, toRawWindows } from './shell-mapping';

const win = (over: Partial<ShellWindow>): ShellWindow => ({
  id: '1',
  title: 't',
  wm_class: 'foot',
  wm_class_instance: 'foot',
  gtk_app_id: null,
  sandboxed_app_id: null,
  pid: 10,
  frame: { x: 10, y: 20, width: 300, height: 200 },
  minimized: false,
  fullscreen: false,
  maximized: false,
  focused: false,
  stacking: 0,
  monitor: 0,
  client: 'wayland',
  ...over,
});

describe('the GNOME extension answers as the window port wants them', () => {
  it('windows come topmost first, frames as [left, top, right, bottom], app ids most specific first without repeats', () => {
    const raw = toRawWindows([
      win({ id: '2', stacking: 1 }),
      win({ id: '3', stacking: 0, wm_class: 'org.gnome.TextEditor', wm_class_instance: 'gnome-text-editor', gtk_app_id: 'org.gnome.TextEditor', sandboxed_app_id: 'org.gnome.TextEditor' }),
    ]);
    expect(raw.map((w) => w.id)).toEqual(['3', '2']);
    expect(raw[0]!.appKeys).toEqual(['org.gnome.TextEditor', 'gnome-text-editor']);
    expect(raw[1]).toMatchObject({ appKeys: ['foot'], fallbackName: 'foot', bounds: [10, 20, 310, 220] });
  });

  it('monitors keep their connector names; one without gets a numbered name', () => {
    const m = { index: 1, connector: null, display_name: null, geometry: { x: 1920, y: 0, width: 1920, height: 1080 }, work_area: { x: 1920, y: 32, width: 1920, height: 1048 }, primary: false, scale: 2 };
    expect(toRawMonitor(m)).toEqual({ id: 'monitor 2', name: 'monitor 2', bounds: [1920, 0, 3840, 1080], workArea: [1920, 32, 3840, 1080], primary: false, scale: 2 });
    expect(toRawMonitor({ ...m, connector: 'DP-1' }).name).toBe('DP-1');
    expect(toBox([1920, 32, 2880, 1080])).toEqual([1920, 32, 960, 1048]);
  });

  it('an answer that is not JSON, or not the shape, says which method and which field', () => {
    expect(() => parseJsonAnswer('List', windowsSchema, 'nope')).toThrow("the GNOME extension's List answer is not JSON");
    expect(() => parseJsonAnswer('List', windowsSchema, JSON.stringify([{ ...win({}), id: 'x1' }]))).toThrow(/List answer is not what DeskPilot expects \(0\.id:/);
    expect(() => parseJsonAnswer('List', windowsSchema, JSON.stringify([{ ...win({}), frame: { x: 0, y: 0, width: -1, height: 1 } }]))).toThrow(/0\.frame\.width/);
  });

  it('only a unix or tcp session-bus address is dialled ("disabled:" and none are not a bus)', () => {
    expect(sessionBusAddress({ DBUS_SESSION_BUS_ADDRESS: 'unix:path=/run/user/1000/bus' })).toBe('unix:path=/run/user/1000/bus');
    expect(sessionBusAddress({ DBUS_SESSION_BUS_ADDRESS: 'disabled:' })).toBeNull();
    expect(sessionBusAddress({})).toBeNull();
  });
});

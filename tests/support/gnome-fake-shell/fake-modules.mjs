// A fake GNOME Shell: just enough of Gio, GLib, Meta, Main, Config, Extension and `global` for an
// extension to load, enable, answer Info/List and disable, recording what it asked of the shell
// in globalThis.fakeShell.calls. GNOME 45+ cannot run on this machine (Debian 12 ships 43); this
// checks the module form's syntax and wiring, not its behaviour in a real shell.
import { URL } from 'node:url';

const which = new URL(import.meta.url).searchParams;
const calls = (globalThis.fakeShell ??= { calls: [] }).calls;

export const Gio = {
  DBus: { session: { name: 'session bus' } },
  DBusCallFlags: { NONE: 0 },
  BusNameOwnerFlags: { NONE: 0 },
  DBusExportedObject: {
    wrapJSObject(xml, service) {
      globalThis.fakeShell.service = service;
      calls.push(['wrapJSObject', /<interface name="([^"]+)"/.exec(xml)?.[1]]);
      return { export: (bus, path) => calls.push(['export', bus.name, path]), unexport: () => calls.push(['unexport']) };
    },
  },
  bus_own_name_on_connection(bus, name) {
    calls.push(['own', bus.name, name]);
    return 7;
  },
  bus_unown_name: (id) => calls.push(['unown', id]),
};
export const GLib = { PRIORITY_DEFAULT: 0, SOURCE_REMOVE: false, SOURCE_CONTINUE: true };
export const Meta = {
  WindowType: { NORMAL: 0, DIALOG: 3, MODAL_DIALOG: 4, UTILITY: 8 },
  MaximizeFlags: { HORIZONTAL: 1, VERTICAL: 2, BOTH: 3 },
  WindowClientType: { WAYLAND: 0, X11: 1 },
};
export const Main = { activateWindow: () => calls.push(['activateWindow']) };
export const shellGlobal = {
  backend: {
    get_monitor_manager: () => ({
      connect: (signal) => (calls.push(['connect', signal]), 5),
      disconnect: (id) => calls.push(['disconnect', id]),
    }),
  },
  get_window_actors: () => [],
  display: { get_focus_window: () => null, sort_windows_by_stacking: (windows) => windows },
};
// One class for every module instance (each query string loads this file anew), so `instanceof` holds.
export const Extension = (globalThis.fakeShell.Extension ??= class Extension {
  constructor(metadata) {
    this.metadata = metadata;
  }
});

const gi = { Gio, GLib, Meta };
// The default export is what `import X from 'gi://X'` gives; resources are imported as namespaces.
export default gi[which.get('gi')];
export const PACKAGE_VERSION = which.get('resource') === 'misc/config.js' ? '46.0' : undefined;
export const activateWindow = Main.activateWindow;

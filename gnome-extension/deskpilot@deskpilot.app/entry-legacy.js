// extension.js for GNOME Shell 43/44 (appended to windows-service.js at install): the shell
// loads this file as a script and calls init(); GI modules come from imports.gi.
/* global imports, global, createDeskPilotWindows */

// eslint-disable-next-line @typescript-eslint/no-unused-vars
function init() {
  const { Gio, GLib, Meta } = imports.gi;
  return createDeskPilotWindows({ Gio, GLib, Meta, Main: imports.ui.main, global, shellVersion: imports.misc.config.PACKAGE_VERSION });
}

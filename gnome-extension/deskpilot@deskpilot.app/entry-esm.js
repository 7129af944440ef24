// extension.js for GNOME Shell 45 and later (appended to windows-service.js at install): the
// shell loads this file as an ES module and enables its default export, an Extension subclass.
/* global global, createDeskPilotWindows */
import Gio from 'gi://Gio';
import GLib from 'gi://GLib';
import Meta from 'gi://Meta';
import * as Main from 'resource:///org/gnome/shell/ui/main.js';
import * as Config from 'resource:///org/gnome/shell/misc/config.js';
import { Extension } from 'resource:///org/gnome/shell/extensions/extension.js';

export default class DeskPilotWindowsExtension extends Extension {
  enable() {
    this._windows = createDeskPilotWindows({ Gio, GLib, Meta, Main, global, shellVersion: Config.PACKAGE_VERSION });
    this._windows.enable();
  }

  disable() {
    this._windows?.disable();
    this._windows = null;
  }
}

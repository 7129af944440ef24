// DeskPilot's GNOME Shell extension: the logic, shared by both forms of extension.js.
//
// GNOME on Wayland lets no client move another client's windows, so DeskPilot asks the shell
// itself: this exports org.deskpilot.Windows1 on the session bus (only this user's processes
// reach that bus) and does exactly what a call asks, after checking its arguments. Every refusal
// is a D-Bus error named org.deskpilot.Windows1.Error.* with a sentence a person can act on.
// List and Monitors answer JSON text (DeskPilot checks it with a schema).
//
// This file imports nothing and exports nothing: GNOME 43/44 load extension.js as a script
// (imports.gi), GNOME 45+ as an ES module (import … from 'gi://…'), and a file cannot be both.
// `deskpilot gnome-extension install` writes extension.js as this file followed by the entry for
// the running GNOME (entry-legacy.js or entry-esm.js), which hands in every GI module and `global`.

'use strict';

/**
 * The extension's enable/disable for the given shell objects.
 * @param {{Gio: object, GLib: object, Meta: object, Main: object, global: object, shellVersion: string}} shell
 */
// eslint-disable-next-line @typescript-eslint/no-unused-vars
function createDeskPilotWindows({ Gio, GLib, Meta, Main, global, shellVersion }) {
  const BUS_NAME = 'org.deskpilot.Windows1';
  const OBJECT_PATH = '/org/deskpilot/Windows1';
  /** Bumped when a method changes; DeskPilot says "update the extension" on a mismatch. */
  const API_VERSION = 1;

  const IFACE_XML = `
  <node>
    <interface name="org.deskpilot.Windows1">
      <method name="Info"><arg type="s" direction="out" name="info_json"/></method>
      <method name="List"><arg type="s" direction="out" name="windows_json"/></method>
      <method name="Monitors"><arg type="s" direction="out" name="monitors_json"/></method>
      <method name="MoveResize">
        <arg type="s" direction="in" name="id"/>
        <arg type="i" direction="in" name="x"/>
        <arg type="i" direction="in" name="y"/>
        <arg type="i" direction="in" name="width"/>
        <arg type="i" direction="in" name="height"/>
        <arg type="i" direction="out" name="frame_x"/>
        <arg type="i" direction="out" name="frame_y"/>
        <arg type="i" direction="out" name="frame_width"/>
        <arg type="i" direction="out" name="frame_height"/>
      </method>
      <method name="Activate">
        <arg type="s" direction="in" name="id"/>
        <arg type="b" direction="out" name="focused"/>
      </method>
      <method name="Raise">
        <arg type="s" direction="in" name="id"/>
        <arg type="b" direction="out" name="on_top"/>
      </method>
      <method name="Minimize"><arg type="s" direction="in" name="id"/></method>
      <method name="Unminimize"><arg type="s" direction="in" name="id"/></method>
      <method name="Unmaximize"><arg type="s" direction="in" name="id"/></method>
      <method name="Restore">
        <arg type="s" direction="in" name="id"/>
        <arg type="b" direction="out" name="reshaped"/>
        <arg type="b" direction="out" name="changed"/>
      </method>
      <method name="SetFullscreen">
        <arg type="s" direction="in" name="id"/>
        <arg type="b" direction="in" name="fullscreen"/>
      </method>
      <method name="Close"><arg type="s" direction="in" name="id"/></method>
    </interface>
  </node>`;

  // Windows a person would call windows (what a taskbar shows): no menus, tooltips, docks.
  const LISTED_TYPES = [Meta.WindowType.NORMAL, Meta.WindowType.DIALOG, Meta.WindowType.MODAL_DIALOG, Meta.WindowType.UTILITY];
  /** A frame is as large as a coordinate may be; beyond it a request is a mistake, not a placement. */
  const MAX_COORD = 100000;
  // A move settles when the frame equals the request; else once it held still QUIET_MS after
  // changing, or did not change at all within REACT_MS of asking twice (refused, or already there).
  const POLL_MS = 4;
  const QUIET_MS = 60;
  const REACT_MS = 300;
  const SETTLE_LIMIT_MS = 3000;
  const MOVE_ATTEMPTS = 2;

  function dbusError(kind, message) {
    const err = new Error(message);
    // GJS answers a thrown error whose name holds a dot with that D-Bus error name.
    err.name = `org.deskpilot.Windows1.Error.${kind}`;
    return err;
  }

  function listedWindows() {
    const windows = global
      .get_window_actors()
      .map((actor) => actor.get_meta_window())
      .filter((w) => w && !w.is_override_redirect() && !w.is_skip_taskbar() && LISTED_TYPES.includes(w.get_window_type()));
    // sort_windows_by_stacking gives bottom to top; DeskPilot wants the topmost first.
    return global.display.sort_windows_by_stacking(windows).reverse();
  }

  function windowById(id) {
    if (typeof id !== 'string' || !/^[0-9]{1,20}$/.test(id))
      throw dbusError('InvalidArgument', `id: expected a window id (digits, as List gives it), got ${JSON.stringify(String(id).slice(0, 40))}`);
    const win = listedWindows().find((w) => String(w.get_id()) === id);
    if (!win) throw dbusError('NoSuchWindow', `no window with id ${id} (it was closed, or is not a normal window)`);
    return win;
  }

  function frameOf(win) {
    const r = win.get_frame_rect();
    return [r.x, r.y, r.width, r.height];
  }

  function describeWindow(win, stacking, focusWindow) {
    const [x, y, width, height] = frameOf(win);
    return {
      id: String(win.get_id()),
      title: win.get_title() ?? '',
      wm_class: win.get_wm_class() ?? null,
      wm_class_instance: win.get_wm_class_instance() ?? null,
      gtk_app_id: win.get_gtk_application_id() ?? null,
      sandboxed_app_id: win.get_sandboxed_app_id() ?? null,
      pid: win.get_pid() > 0 ? win.get_pid() : null,
      frame: { x, y, width, height },
      minimized: win.minimized === true,
      fullscreen: win.is_fullscreen(),
      maximized: win.get_maximized() === Meta.MaximizeFlags.BOTH,
      focused: win === focusWindow,
      stacking,
      monitor: win.get_monitor(),
      client: win.get_client_type() === Meta.WindowClientType.WAYLAND ? 'wayland' : 'x11',
    };
  }

  function checkRect(x, y, width, height) {
    for (const [name, v] of [['x', x], ['y', y]])
      if (!Number.isInteger(v) || Math.abs(v) > MAX_COORD) throw dbusError('InvalidArgument', `${name}: expected an integer within ±${MAX_COORD}, got ${v}`);
    for (const [name, v] of [['width', width], ['height', height]])
      if (!Number.isInteger(v) || v < 1 || v > MAX_COORD) throw dbusError('InvalidArgument', `${name}: expected an integer from 1 to ${MAX_COORD}, got ${v}`);
  }

  function sameFrame(a, b) {
    return a[0] === b[0] && a[1] === b[1] && a[2] === b[2] && a[3] === b[3];
  }

  /**
   * Asks for the frame and calls back with the one the window got: once it equals the request, or
   * has held still QUIET_MS after changing. A request mutter did not act on at all within REACT_MS
   * (it can drop one for a window that has just mapped) is asked once more before giving up.
   */
  function moveAndSettle(win, target, done) {
    let start = GLib.get_monotonic_time() / 1000;
    let last = frameOf(win);
    let changedAt = null;
    let asked = 1;
    win.move_resize_frame(true, ...target);
    GLib.timeout_add(GLib.PRIORITY_DEFAULT, POLL_MS, () => {
      const now = GLib.get_monotonic_time() / 1000;
      // An unmanaged (closed) window has lost its actor.
      if (!win.get_compositor_private()) {
        done(null, dbusError('NoSuchWindow', 'the window closed while it was being moved'));
        return GLib.SOURCE_REMOVE;
      }
      const frame = frameOf(win);
      if (!sameFrame(frame, last)) {
        last = frame;
        changedAt = now;
      }
      if (sameFrame(frame, target) || (changedAt !== null && now - changedAt >= QUIET_MS) || now - start >= SETTLE_LIMIT_MS) {
        done(frame, null);
        return GLib.SOURCE_REMOVE;
      }
      if (changedAt === null && now - start >= REACT_MS) {
        if (asked === MOVE_ATTEMPTS) {
          done(frame, null);
          return GLib.SOURCE_REMOVE;
        }
        asked++;
        start = now;
        win.move_resize_frame(true, ...target);
      }
      return GLib.SOURCE_CONTINUE;
    });
  }

  /** Connector names (DP-1, Meta-0, …) and product names per monitor index, from mutter's DisplayConfig. */
  function readConnectors(callback) {
    Gio.DBus.session.call(
      'org.gnome.Mutter.DisplayConfig',
      '/org/gnome/Mutter/DisplayConfig',
      'org.gnome.Mutter.DisplayConfig',
      'GetCurrentState',
      null,
      null,
      Gio.DBusCallFlags.NONE,
      2000,
      null,
      (conn, res) => {
        const byIndex = new Map();
        try {
          const [, monitors] = conn.call_finish(res).deepUnpack();
          const manager = global.backend.get_monitor_manager();
          for (const [spec, , props] of monitors) {
            const [connector, vendor, product] = spec;
            const index = manager.get_monitor_for_connector(connector);
            const display = props['display-name'] ? props['display-name'].deepUnpack() : `${vendor} ${product}`.trim();
            if (index >= 0) byIndex.set(index, { connector, display_name: display || null });
          }
        } catch (e) {
          // Without DisplayConfig the monitors still have geometry; only their names are missing.
        }
        callback(byIndex);
      },
    );
  }

  class WindowsService {
    Info() {
      return JSON.stringify({ api_version: API_VERSION, shell_version: shellVersion });
    }

    List() {
      const focusWindow = global.display.get_focus_window();
      return JSON.stringify(listedWindows().map((w, i) => describeWindow(w, i, focusWindow)));
    }

    MonitorsAsync(_params, invocation) {
      // Connector names cost a DisplayConfig round trip inside the shell: read once, again after a monitor change.
      const answer = (names) => {
        const display = global.display;
        const workspace = global.workspace_manager.get_active_workspace();
        const primary = display.get_primary_monitor();
        const monitors = [];
        for (let i = 0; i < display.get_n_monitors(); i++) {
          const g = display.get_monitor_geometry(i);
          const a = workspace.get_work_area_for_monitor(i);
          const name = names.get(i);
          monitors.push({
            index: i,
            connector: name ? name.connector : null,
            display_name: name ? name.display_name : null,
            geometry: { x: g.x, y: g.y, width: g.width, height: g.height },
            work_area: { x: a.x, y: a.y, width: a.width, height: a.height },
            primary: i === primary,
            scale: display.get_monitor_scale(i),
          });
        }
        invocation.return_value(new GLib.Variant('(s)', [JSON.stringify(monitors)]));
      };
      if (this._connectors) {
        answer(this._connectors);
        return;
      }
      readConnectors((names) => {
        // None read (DisplayConfig not up yet): ask again next time rather than keep no names.
        if (names.size) this._connectors = names;
        answer(names);
      });
    }

    /** The monitors changed: read their connector names again on the next Monitors call. */
    forgetConnectors() {
      this._connectors = null;
    }

    MoveResizeAsync([id, x, y, width, height], invocation) {
      let win;
      try {
        checkRect(x, y, width, height);
        win = windowById(id);
      } catch (e) {
        invocation.return_dbus_error(e.name, e.message);
        return;
      }
      // A full-screen, maximised or minimised window ignores a placement: leave those states first.
      if (win.is_fullscreen()) win.unmake_fullscreen();
      if (win.get_maximized()) win.unmaximize(Meta.MaximizeFlags.BOTH);
      if (win.minimized) win.unminimize();
      moveAndSettle(win, [x, y, width, height], (frame, err) => {
        if (err) invocation.return_dbus_error(err.name, err.message);
        else invocation.return_value(new GLib.Variant('(iiii)', frame));
      });
    }

    /** Answers whether it has the focus now (mutter focuses a Wayland window at once, an X11 one when it answers). */
    Activate(id) {
      const win = windowById(id);
      // Main.activateWindow also switches to its workspace and un-minimises, as a click in the overview does.
      Main.activateWindow(win, global.get_current_time());
      return global.display.get_focus_window() === win;
    }

    /** Answers whether it is the topmost listed window now. */
    Raise(id) {
      const win = windowById(id);
      win.raise();
      return listedWindows()[0] === win;
    }

    Minimize(id) {
      const win = windowById(id);
      if (!win.can_minimize()) throw dbusError('Refused', `the window "${win.get_title()}" cannot be minimised (its app does not allow it)`);
      win.minimize();
    }

    Unminimize(id) {
      windowById(id).unminimize();
    }

    Unmaximize(id) {
      windowById(id).unmaximize(Meta.MaximizeFlags.BOTH);
    }

    /**
     * Leaves full screen and maximised and un-minimises, so that a placement applies. Answers whether
     * the frame will change (it left full screen or maximised: the app redraws at the old size) and
     * whether anything changed at all.
     */
    Restore(id) {
      const win = windowById(id);
      const reshaped = win.is_fullscreen() || win.get_maximized() !== 0;
      const changed = reshaped || win.minimized;
      if (win.is_fullscreen()) win.unmake_fullscreen();
      if (win.get_maximized()) win.unmaximize(Meta.MaximizeFlags.BOTH);
      if (win.minimized) win.unminimize();
      return [reshaped, changed];
    }

    SetFullscreen(id, on) {
      if (typeof on !== 'boolean') throw dbusError('InvalidArgument', `fullscreen: expected true or false, got ${on}`);
      const win = windowById(id);
      if (on) win.make_fullscreen();
      else win.unmake_fullscreen();
    }

    Close(id) {
      const win = windowById(id);
      // The close button's request, with the current time: the app may ask to save, and is never killed.
      win.delete(global.get_current_time());
    }
  }

  let service = null;
  let monitorManager = null;
  let monitorsChangedId = 0;
  let exported = null;
  let nameId = 0;
  return {
    enable() {
      service = new WindowsService();
      monitorManager = global.backend.get_monitor_manager();
      monitorsChangedId = monitorManager.connect('monitors-changed', () => service.forgetConnectors());
      exported = Gio.DBusExportedObject.wrapJSObject(IFACE_XML, service);
      exported.export(Gio.DBus.session, OBJECT_PATH);
      nameId = Gio.bus_own_name_on_connection(Gio.DBus.session, BUS_NAME, Gio.BusNameOwnerFlags.NONE, null, null);
    },
    disable() {
      if (monitorsChangedId) monitorManager.disconnect(monitorsChangedId);
      monitorsChangedId = 0;
      monitorManager = null;
      if (nameId) Gio.bus_unown_name(nameId);
      exported?.unexport();
      nameId = 0;
      exported = null;
      service = null;
    },
  };
}

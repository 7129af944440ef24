'use strict';
// A fake node-window-manager for tests: the module shape `{ addon, windowManager, Window }` with
// the raw binding's functions for one platform (the same names and answers as lib/windows.cc and
// lib/macos.mm in 2.2.4), driven by a scenario file that is the "desktop".
//
// load(dir) reads <dir>/scenario.json on every call and writes it back after changes, so a test
// can change the desktop between requests and the state survives a helper restart. Every call is
// appended to <dir>/calls.jsonl. Scenario faults make a function exit, abort, hang or throw.

const fs = require('node:fs');
const path = require('node:path');

const MINIMIZED = { x: -32000, y: -32000, width: 160, height: 28 };

function load(dir) {
  const scenarioPath = path.join(dir, 'scenario.json');
  const logPath = path.join(dir, 'calls.jsonl');
  const read = () => JSON.parse(fs.readFileSync(scenarioPath, 'utf8'));
  const write = (s) => fs.writeFileSync(scenarioPath, JSON.stringify(s, null, 2));
  const log = (fn, args, extra) => fs.appendFileSync(logPath, JSON.stringify({ fn, args, ...extra }) + '\n');

  const initial = read();
  if (initial.loadError) throw new Error(initial.loadError);

  function fault(s, fn) {
    const f = (s.faults || []).find((x) => x.fn === fn && !x.fired);
    if (!f) return;
    if (f.once) {
      f.fired = true;
      write(s);
    }
    log(fn, [], { fault: f.action });
    if (f.action === 'exit') process.exit(7);
    if (f.action === 'abort') process.abort();
    if (f.action === 'hang') Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60000);
    if (f.action === 'throw') throw new Error('fake native failure');
    if (f.action === 'assert') {
      // What a failed native assertion looks like: a message on stderr, then abort.
      process.stderr.write(`node[${process.pid}]: ../lib/macos.mm:52: Assertion \`window != NULL' failed.\n`);
      process.abort();
    }
  }

  // Wraps each binding function: fault injection, call log, fresh scenario in, changes out.
  function api(fns) {
    const out = {};
    for (const [name, fn] of Object.entries(fns)) {
      out[name] = (...args) => {
        const s = read();
        fault(s, name);
        log(name, args);
        const before = JSON.stringify(s);
        const result = fn(s, ...args);
        if (JSON.stringify(s) !== before) write(s);
        return result;
      };
    }
    return out;
  }

  const find = (s, h) => s.windows.find((w) => w.handle === h);
  const toFront = (s, w) => {
    s.windows = [w, ...s.windows.filter((x) => x !== w)];
  };
  const overlap = (a, b) =>
    Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)) *
    Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y));
  const monitorOf = (monitors, r) => {
    let best = monitors[0];
    for (const m of monitors) if (overlap(r, m.bounds) > overlap(r, best.bounds)) best = m;
    return best;
  };
  const containing = (monitors, x, y) =>
    monitors.find((m) => x >= m.bounds.x && x < m.bounds.x + m.bounds.width && y >= m.bounds.y && y < m.bounds.y + m.bounds.height) ||
    monitors[0];

  const win32 = {
    getWindows: (s) => s.windows.map((w) => w.handle),
    getActiveWindow: (s) => s.active || 0,
    initWindow: (s, h) => {
      const w = find(s, h);
      // GetWindowThreadProcessId/QueryFullProcessImageName on a dead handle: 0 and "".
      return w ? { processId: w.pid, path: w.path } : { processId: 0, path: '' };
    },
    getWindowTitle: (s, h) => (find(s, h) || {}).title || '',
    isWindow: (s, h) => !!find(s, h),
    isWindowVisible: (s, h) => !!(find(s, h) || {}).visible,
    getWindowOwner: (s, h) => (find(s, h) || {}).owner || 0,
    getWindowBounds: (s, h) => {
      const w = find(s, h);
      if (!w) return { x: 0, y: 0, width: 0, height: 0 };
      if (w.minimized) return { ...MINIMIZED };
      if (w.maximized) return { ...monitorOf(s.monitors, w.bounds).workArea };
      return { ...w.bounds };
    },
    getMonitorFromWindow: (s, h) => {
      const w = find(s, h);
      return w ? monitorOf(s.monitors, w.bounds).handle : 0;
    },
    getMonitors: (s) => s.monitors.map((m) => m.handle),
    getMonitorInfo: (s, m) => {
      const mon = s.monitors.find((x) => x.handle === m);
      return { bounds: { ...mon.bounds }, workArea: { ...mon.workArea }, isPrimary: !!mon.primary };
    },
    getMonitorScaleFactor: (s, m) => s.monitors.find((x) => x.handle === m).scale,
    setWindowBounds: (s, h, b) => {
      const w = find(s, h);
      if (!w) return false;
      const from = monitorOf(s.monitors, w.bounds);
      w.bounds = { x: b.x, y: b.y, width: b.width, height: b.height };
      const to = monitorOf(s.monitors, w.bounds);
      // A per-monitor-aware app takes WM_DPICHANGED's suggestion: its size times the scale change.
      if (w.dpiAware && to.scale !== from.scale) {
        w.bounds.width = Math.round((w.bounds.width * to.scale) / from.scale);
        w.bounds.height = Math.round((w.bounds.height * to.scale) / from.scale);
      }
      return true;
    },
    showWindow: (s, h, type) => {
      const w = find(s, h);
      if (!w) return false;
      if (type === 'restore') {
        if (w.minimized) w.minimized = false;
        else if (w.maximized) w.maximized = false;
      } else if (type === 'minimize') w.minimized = true;
      else if (type === 'maximize') w.maximized = true;
      return true;
    },
    bringWindowToTop: (s, h) => {
      const w = find(s, h);
      if (!w) return false;
      s.active = h;
      toFront(s, w);
      return true;
    },
    redrawWindow: () => true,
    setWindowOpacity: () => true,
    toggleWindowTransparency: () => true,
    setWindowOwner: () => true,
    getWindowOpacity: () => 1,
    createProcess: () => 0,
    getProcessMainWindow: () => 0,
  };

  const onScreen = (s, h) => {
    const w = find(s, h);
    return w && !w.minimized ? w : null;
  };
  // Models the macOS defect: moving keeps a window that is too big for the destination display
  // inside it by pushing it back; resizing is limited by the display the window is on.
  const setPosition = (s, w, x, y) => {
    const d = containing(s.displays, x, y).bounds;
    w.bounds.x = Math.max(d.x, Math.min(x, d.x + d.width - w.bounds.width));
    w.bounds.y = Math.max(d.y, Math.min(y, d.y + d.height - w.bounds.height));
    log('position', [x, y], { got: [w.bounds.x, w.bounds.y] });
  };
  const setSize = (s, w, width, height) => {
    const d = containing(s.displays, w.bounds.x, w.bounds.y).bounds;
    w.bounds.width = Math.min(width, d.x + d.width - w.bounds.x);
    w.bounds.height = Math.min(height, d.y + d.height - w.bounds.y);
    log('size', [width, height], { got: [w.bounds.width, w.bounds.height] });
  };

  const darwin = {
    getWindows: (s) => s.windows.filter((w) => !w.minimized && w.path).map((w) => w.handle),
    getActiveWindow: (s) => {
      const w = s.windows.find((x) => !x.minimized && x.pid === s.activePid);
      return w ? w.handle : 0;
    },
    initWindow: (s, h) => {
      const w = onScreen(s, h);
      return w ? { processId: w.pid, path: w.path } : {};
    },
    // kCGWindowOwnerName: the app's name, whatever the window's own title is.
    getWindowTitle: (s, h) => (onScreen(s, h) || {}).ownerName || '',
    getWindowBounds: (s, h) => {
      const w = onScreen(s, h);
      return w ? { ...w.bounds } : {};
    },
    setWindowBounds: (s, h, b) => {
      const w = find(s, h);
      if (w && s.trusted) {
        setPosition(s, w, b.x, b.y);
        setSize(s, w, b.width, b.height);
      }
      return true;
    },
    bringWindowToTop: (s, h, pid) => {
      const w = find(s, h);
      if (w && s.trusted) {
        s.activePid = pid;
        toFront(s, w);
      }
      return true;
    },
    setWindowMinimized: (s, h, flag) => {
      const w = find(s, h);
      if (w && s.trusted) w.minimized = !!flag;
      return true;
    },
    setWindowMaximized: () => true,
    requestAccessibility: (s) => !!s.trusted,
  };

  const addon = api(initial.platform === 'darwin' ? darwin : win32);
  return { addon, windowManager: {}, Window: function Window() {} };
}

module.exports = { load };

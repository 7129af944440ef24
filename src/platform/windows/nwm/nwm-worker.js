'use strict';
// The only code that touches node-window-manager's native addon. It runs in a child process
// because a fault in the addon (its macOS code dereferences unchecked Accessibility results)
// kills the process that loaded it; here that is this helper, not DeskPilot.
//
// Plain CommonJS with no relative imports on purpose: it is forked as is under tsx, vitest and
// the bundled app, with no transpiler and nothing else to ship next to it.
//
// argv: <absolute path of the module to require> <platform: win32 | darwin>
// It calls the raw binding (`require(module).addon`), not the JS wrapper: the wrapper's win32
// getBounds/setBounds rescale by the window's monitor while its monitor bounds stay physical
// (the DPI inconsistency), and its platform branches key on process.platform, which would make
// the platform logic untestable off macOS/Windows.
// Protocol: the parent sends {id, op, args}; this answers {id, ok: true, result} or
// {id, ok: false, error: {kind: 'gone' | 'load' | 'permission' | 'failed', message}}.

const { execFile } = require('node:child_process');

const [modulePath, platform] = process.argv.slice(2);
const isMac = platform === 'darwin';

// Windows parks minimised windows at (-32000, -32000); GetWindowRect is all the addon offers.
const MINIMIZED_COORD = -32000;
const SETTLE_TRIES = 6;
const SETTLE_INTERVAL_MS = 40;
const UNMINIMIZE_WAIT_MS = 1000;
const TOOL_TIMEOUT_MS = 15000;

class WorkerError extends Error {
  constructor(kind, message) {
    super(message);
    this.kind = kind;
  }
}

const describeError = (e) => (e instanceof Error ? e.message : String(e));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

let binding = null;

// Lazily, so that a module that fails to load becomes an answer, not a dead helper.
function addon() {
  if (binding) return binding;
  let mod;
  try {
    mod = require(modulePath);
  } catch (e) {
    // Not installed: npm installs it on macOS and Windows only (package.json's optional
    // packages/native-window-manager), so a Linux install never compiles it.
    if (e && e.code === 'MODULE_NOT_FOUND' && String(e.message).includes(`'${modulePath}'`)) {
      throw new WorkerError(
        'load',
        `node-window-manager is not installed (${modulePath}): npm installs it on macOS and Windows only. ` +
          'Run `npm install` in the DeskPilot folder on this Mac or PC; it compiles a native addon, which needs ' +
          "Xcode's command-line tools (macOS) or Visual Studio's C++ build tools (Windows)",
      );
    }
    throw new WorkerError('load', `node-window-manager could not be loaded (${modulePath}): ${describeError(e)}`);
  }
  if (!mod || !mod.addon) {
    // The package only builds its addon on win32 and darwin; elsewhere `addon` is undefined.
    throw new WorkerError(
      'load',
      `node-window-manager has no native addon here (${process.platform}); it only supports macOS and Windows`,
    );
  }
  binding = mod.addon;
  return binding;
}

const gone = (handle) => new WorkerError('gone', `window ${handle} no longer exists`);

const rect = (b) => ({
  x: Number(b && b.x) || 0,
  y: Number(b && b.y) || 0,
  width: Number(b && b.width) || 0,
  height: Number(b && b.height) || 0,
});

const sameRect = (a, b) => a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;

function isMinimizedWin(b) {
  return b.x <= MINIMIZED_COORD && b.y <= MINIMIZED_COORD;
}

// ---- Windows -------------------------------------------------------------------------------

function requireWinWindow(a, handle) {
  if (!a.isWindow(handle)) throw gone(handle);
}

function winMonitors(a) {
  return a.getMonitors().map((handle) => {
    const info = a.getMonitorInfo(handle) || {};
    return {
      handle,
      bounds: rect(info.bounds),
      workArea: rect(info.workArea),
      primary: !!info.isPrimary,
      scale: Number(a.getMonitorScaleFactor(handle)) || 1,
    };
  });
}

function listWinWindows(a) {
  const windows = [];
  for (const handle of a.getWindows()) {
    // Most EnumWindows handles are hidden helper windows; skipping them here saves the
    // OpenProcess that initWindow does for each. The parent applies the full filter.
    if (!a.isWindowVisible(handle)) continue;
    const info = a.initWindow(handle) || {};
    windows.push({
      handle,
      pid: Number(info.processId) || 0,
      path: info.path || '',
      title: a.getWindowTitle(handle) || '',
      bounds: rect(a.getWindowBounds(handle)),
      visible: true,
      owner: Number(a.getWindowOwner(handle)) || 0,
      monitor: Number(a.getMonitorFromWindow(handle)) || null,
    });
  }
  const activeHandle = Number(a.getActiveWindow()) || 0;
  const active = activeHandle
    ? { handle: activeHandle, pid: null, owner: Number(a.getWindowOwner(activeHandle)) || 0 }
    : null;
  return { windows, active, monitors: winMonitors(a) };
}

// SW_RESTORE twice: the first un-minimises (back to maximised if it was maximised before), the
// second un-maximises; on a normal window it does nothing. The addon has no IsZoomed to ask.
function restoreWin(a, handle) {
  a.showWindow(handle, 'restore');
  a.showWindow(handle, 'restore');
}

// ---- macOS ---------------------------------------------------------------------------------

// Without Accessibility trust the addon's setters silently do nothing, so fail loudly instead.
// requestAccessibility() also shows the system prompt when not yet trusted.
let trusted = false;
function requireAccessibility(a) {
  if (trusted) return;
  trusted = !!a.requestAccessibility();
  if (!trusted) {
    throw new WorkerError(
      'permission',
      'DeskPilot needs Accessibility permission to move, focus and restore windows: allow it in System Settings → Privacy & Security → Accessibility, then try again',
    );
  }
}

// initWindow answers {} for windows that are not on screen (closed, minimised, other Space).
function macInfo(a, handle) {
  const info = a.initWindow(handle) || {};
  return typeof info.processId === 'number' && info.path ? info : null;
}

// A minimised window is off screen, so it looks gone; the addon can still un-minimise it
// through the Accessibility element it cached while the window was listed.
async function requireMacWindow(a, handle, unminimize) {
  const info = macInfo(a, handle);
  if (info) return info;
  if (unminimize) {
    a.setWindowMinimized(handle, false);
    const deadline = Date.now() + UNMINIMIZE_WAIT_MS;
    while (Date.now() < deadline) {
      await sleep(SETTLE_INTERVAL_MS);
      const later = macInfo(a, handle);
      if (later) return later;
    }
  }
  throw gone(handle);
}

function listMacWindows(a) {
  const windows = [];
  for (const handle of a.getWindows()) {
    const info = macInfo(a, handle);
    if (!info) continue; // closed between the two calls
    windows.push({
      handle,
      pid: info.processId,
      path: info.path,
      title: a.getWindowTitle(handle) || '',
      bounds: rect(a.getWindowBounds(handle)),
      visible: true,
      owner: 0,
      monitor: null,
    });
  }
  const activeHandle = Number(a.getActiveWindow()) || 0;
  const activeInfo = activeHandle ? macInfo(a, activeHandle) : null;
  const active = activeHandle ? { handle: activeHandle, pid: activeInfo ? activeInfo.processId : null, owner: 0 } : null;
  return { windows, active, monitors: null };
}

// ---- bounds ----------------------------------------------------------------------------------

async function settledBounds(a, handle, target) {
  let last = rect(a.getWindowBounds(handle));
  for (let i = 0; i < SETTLE_TRIES && !sameRect(last, target); i++) {
    await sleep(SETTLE_INTERVAL_MS);
    const next = rect(a.getWindowBounds(handle));
    if (sameRect(next, last)) break;
    last = next;
  }
  return last;
}

async function setBoundsWin(a, handle, target) {
  requireWinWindow(a, handle);
  if (isMinimizedWin(rect(a.getWindowBounds(handle)))) restoreWin(a, handle);
  a.setWindowBounds(handle, target);
  let got = await settledBounds(a, handle, target);
  // Crossing onto a monitor with another scale, a per-monitor-aware app resizes itself to the
  // rectangle WM_DPICHANGED suggests; asking again on the new monitor sticks.
  if (!sameRect(got, target)) {
    a.setWindowBounds(handle, target);
    got = await settledBounds(a, handle, target);
  }
  if (!a.isWindow(handle)) throw gone(handle); // closed meanwhile: its bounds read as zeros
  return { bounds: got, monitor: Number(a.getMonitorFromWindow(handle)) || null };
}

async function setBoundsMac(a, handle, target) {
  requireAccessibility(a);
  await requireMacWindow(a, handle, false);
  // The addon sets position, then size. Moving first lets macOS push a window that is too big
  // for the destination display back; so: size (position unchanged), then position and size.
  const current = rect(a.getWindowBounds(handle));
  a.setWindowBounds(handle, { x: current.x, y: current.y, width: target.width, height: target.height });
  a.setWindowBounds(handle, target);
  const got = await settledBounds(a, handle, target);
  if (!macInfo(a, handle)) throw gone(handle); // closed meanwhile: its bounds read as zeros
  return { bounds: got, monitor: null };
}

// ---- close -----------------------------------------------------------------------------------
// The addon cannot close windows; these ask the OS the way the close button does.

function runTool(command, args) {
  return new Promise((resolve, reject) => {
    execFile(command, args, { timeout: TOOL_TIMEOUT_MS, windowsHide: true }, (error, stdout, stderr) => {
      if (error) {
        const detail = String(stderr || '').trim() || error.message;
        reject(Object.assign(new Error(detail), { code: error.code }));
      } else resolve(String(stdout));
    });
  });
}

// WM_SYSCOMMAND/SC_CLOSE is what the title-bar close button sends, so apps that hide to the
// tray or ask to save behave as for a click.
function winCloseScript(handle) {
  return [
    "$sig = '[DllImport(\"user32.dll\")] public static extern bool PostMessageW(IntPtr h, uint m, IntPtr w, IntPtr l);'",
    '$u = Add-Type -MemberDefinition $sig -Name DeskPilotClose -Namespace DeskPilot -PassThru',
    `if (-not $u::PostMessageW([IntPtr]${Math.trunc(handle)}, 0x0112, [IntPtr]0xF060, [IntPtr]0)) { exit 3 }`,
  ].join('; ');
}

async function closeWin(a, handle) {
  requireWinWindow(a, handle);
  try {
    // -EncodedCommand (UTF-16LE base64) sidesteps command-line quoting of the script's quotes.
    const encoded = Buffer.from(winCloseScript(handle), 'utf16le').toString('base64');
    await runTool('powershell.exe', ['-NoProfile', '-NonInteractive', '-ExecutionPolicy', 'Bypass', '-EncodedCommand', encoded]);
  } catch (e) {
    if (e.code === 3) {
      throw new WorkerError('permission', 'Windows refused to pass the close request (the window may belong to an app running as administrator)');
    }
    throw new WorkerError('failed', `could not ask the window to close: ${describeError(e)}`);
  }
}

// System Events finds the window by process and frame (the CGWindowID is not visible to
// AppleScript) and clicks its close button.
const MAC_CLOSE_SCRIPT = [
  'on run argv',
  'set {thePid, tx, ty, tw, th} to {(item 1 of argv) as integer, (item 2 of argv) as integer, (item 3 of argv) as integer, (item 4 of argv) as integer, (item 5 of argv) as integer}',
  'tell application "System Events"',
  'set proc to first application process whose unix id is thePid',
  'repeat with w in windows of proc',
  'set {px, py} to position of w',
  'set {pw, ph} to size of w',
  'if px = tx and py = ty and pw = tw and ph = th then',
  'click (first button of w whose subrole is "AXCloseButton")',
  'return "closed"',
  'end if',
  'end repeat',
  'end tell',
  'return "not-found"',
  'end run',
];

async function closeMac(a, handle) {
  const info = await requireMacWindow(a, handle, false);
  const b = rect(a.getWindowBounds(handle));
  const args = MAC_CLOSE_SCRIPT.flatMap((line) => ['-e', line]);
  args.push(String(info.processId), ...[b.x, b.y, b.width, b.height].map((n) => String(Math.round(n))));
  let out;
  try {
    out = await runTool('osascript', args);
  } catch (e) {
    const text = describeError(e);
    if (/-1743|not authori[sz]ed/i.test(text)) {
      throw new WorkerError('permission', 'DeskPilot needs permission to control System Events to close windows: allow it in System Settings → Privacy & Security → Automation');
    }
    if (/-1719|assistive access/i.test(text)) {
      throw new WorkerError('permission', 'DeskPilot needs Accessibility permission to close windows: allow it in System Settings → Privacy & Security → Accessibility');
    }
    throw new WorkerError('failed', `could not ask the window to close: ${text}`);
  }
  if (out.trim() !== 'closed') throw new WorkerError('failed', 'could not find the window’s close button through System Events');
}

// ---- requests --------------------------------------------------------------------------------

const handlers = {
  listWindows: () => (isMac ? listMacWindows(addon()) : listWinWindows(addon())),
  listMonitors: () => {
    if (isMac) throw new WorkerError('failed', 'node-window-manager cannot list displays on macOS');
    return winMonitors(addon());
  },
  focus: async ({ handle }) => {
    const a = addon();
    if (isMac) {
      requireAccessibility(a);
      const info = await requireMacWindow(a, handle, true);
      a.bringWindowToTop(handle, info.processId);
    } else {
      requireWinWindow(a, handle);
      // SetForegroundWindow activates but leaves a minimised window minimised.
      if (isMinimizedWin(rect(a.getWindowBounds(handle)))) a.showWindow(handle, 'restore');
      a.bringWindowToTop(handle);
    }
    return null;
  },
  restore: async ({ handle }) => {
    const a = addon();
    if (isMac) {
      requireAccessibility(a);
      await requireMacWindow(a, handle, true);
    } else {
      requireWinWindow(a, handle);
      restoreWin(a, handle);
    }
    return null;
  },
  minimize: async ({ handle }) => {
    const a = addon();
    if (isMac) {
      requireAccessibility(a);
      await requireMacWindow(a, handle, false);
      a.setWindowMinimized(handle, true);
    } else {
      requireWinWindow(a, handle);
      a.showWindow(handle, 'minimize');
    }
    return null;
  },
  setBounds: ({ handle, bounds }) => (isMac ? setBoundsMac(addon(), handle, rect(bounds)) : setBoundsWin(addon(), handle, rect(bounds))),
  close: async ({ handle }) => {
    await (isMac ? closeMac(addon(), handle) : closeWin(addon(), handle));
    return null;
  },
};

function reply(message) {
  // The parent may be gone already; then there is nobody to tell.
  if (process.connected) process.send(message, (error) => void error);
}

process.on('message', async (message) => {
  const { id, op, args } = message || {};
  try {
    const handler = Object.prototype.hasOwnProperty.call(handlers, op) ? handlers[op] : null;
    if (!handler) throw new WorkerError('failed', `unknown request "${op}"`);
    reply({ id, ok: true, result: await handler(args || {}) });
  } catch (e) {
    reply({ id, ok: false, error: { kind: e instanceof WorkerError ? e.kind : 'failed', message: describeError(e) } });
  }
});

// Never outlive DeskPilot.
process.on('disconnect', () => process.exit(0));

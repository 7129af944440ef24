// The KWin script every backend call runs. It is one fixed program; the only thing that varies
// is the request, embedded as a JSON literal built with JSON.stringify from values this module
// has already checked — no caller text is ever spliced into the JavaScript.
//
// Written against KWin 5.27's scripting API (workspace.clientList(), activeClient, per-window
// stackingOrder, numbered screens) with the Plasma 6 names (windowList(), activeWindow,
// workspace.stackingOrder, output objects) used where they exist.
import { z } from 'zod';
import type { BridgeAddress } from './kwin-bridge';

/** KWin's internalId: a UUID, written with braces by KWin 5 and without by KWin 6. */
export const KWIN_WINDOW_ID = /^\{?[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\}?$/;

const id = z.string().regex(KWIN_WINDOW_ID);
const coordinate = z.number().int().min(-100_000).max(100_000);
const size = z.number().int().min(1).max(100_000);

/** What one script run is asked to do. */
export const KwinRequest = z.discriminatedUnion('op', [
  z.strictObject({ op: z.literal('snapshot') }),
  z.strictObject({ op: z.literal('window'), id }),
  z.strictObject({ op: z.literal('activate'), id }),
  z.strictObject({ op: z.literal('minimize'), id }),
  z.strictObject({ op: z.literal('restore'), id }),
  z.strictObject({ op: z.literal('fullscreen'), id, on: z.boolean() }),
  z.strictObject({ op: z.literal('move'), id, x: coordinate, y: coordinate, width: size, height: size }),
  z.strictObject({ op: z.literal('close'), id }),
]);
export type KwinRequest = z.infer<typeof KwinRequest>;

/** A JSON text that is also a safe JavaScript literal (U+2028/2029 end a line in older engines). */
function jsLiteral(value: unknown): string {
  return JSON.stringify(value).replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/** The script for `request`, answering to `address` with `token`. Throws on a request that fails its schema. */
export function kwinScript(request: KwinRequest, address: BridgeAddress, token: string): string {
  const checked = KwinRequest.parse(request);
  return [
    `var BRIDGE = ${jsLiteral(address)};`,
    `var TOKEN = ${jsLiteral(token)};`,
    `var REQ = ${jsLiteral(checked)};`,
    PROGRAM,
  ].join('\n');
}

// Plain ES5 in KWin's QJSEngine. Answers { ok: true, value } or { ok: false, gone | refused | error }.
const PROGRAM = String.raw`
(function () {
  function answer(v) { callDBus(BRIDGE.service, BRIDGE.path, BRIDGE.iface, 'Answer', TOKEN, JSON.stringify(v)); }
  function all() { return workspace.windowList ? workspace.windowList() : workspace.clientList(); }
  function activeWin() { return workspace.activeWindow !== undefined ? workspace.activeWindow : workspace.activeClient; }
  function activate(c) { if (workspace.activeWindow !== undefined) workspace.activeWindow = c; else workspace.activeClient = c; }
  function rect(g) { return { x: g.x, y: g.y, width: g.width, height: g.height }; }
  function stacking(c) { return workspace.stackingOrder ? workspace.stackingOrder.indexOf(c) : c.stackingOrder; }
  function info(c) {
    var a = activeWin();
    return {
      id: String(c.internalId), resourceClass: String(c.resourceClass || ''), resourceName: String(c.resourceName || ''),
      desktopFile: String(c.desktopFileName || ''), caption: String(c.caption || ''), pid: c.pid || 0,
      frame: rect(c.frameGeometry), minimized: !!c.minimized, fullScreen: !!c.fullScreen,
      active: !!a && String(a.internalId) === String(c.internalId), stacking: stacking(c), normal: !!c.normalWindow
    };
  }
  /** The window after acting, with what it was before (KWin applies frames later; states at once). */
  function acted(c, act) {
    var before = { frame: rect(c.frameGeometry), minimized: !!c.minimized, fullScreen: !!c.fullScreen };
    act();
    var after = info(c);
    after.previous = before;
    return after;
  }
  function find(id) {
    var list = all();
    for (var i = 0; i < list.length; i++) if (String(list[i].internalId) === id) return list[i];
    return null;
  }
  function screens() {
    var out = [], desk = workspace.currentDesktop, list = workspace.screens;
    var n = list ? list.length : workspace.numScreens;
    for (var i = 0; i < n; i++) {
      var s = list ? list[i] : i;
      out.push({
        index: i, name: list ? String(s.name) : null, scale: list && s.devicePixelRatio ? s.devicePixelRatio : null,
        bounds: rect(workspace.clientArea(KWin.FullScreenArea, s, desk)), workArea: rect(workspace.clientArea(KWin.MaximizeArea, s, desk))
      });
    }
    return out;
  }
  function unshape(c) {
    if (c.minimized) c.minimized = false;
    if (c.fullScreen) c.fullScreen = false;
    if (c.setMaximize) c.setMaximize(false, false);
  }
  var OPS = {
    snapshot: function () {
      var list = all(), windows = [];
      for (var i = 0; i < list.length; i++) if (list[i].normalWindow && !list[i].deleted) windows.push(info(list[i]));
      return { windows: windows, screens: screens() };
    },
    window: function (c) { return info(c); },
    activate: function (c) { return acted(c, function () { if (c.minimized) c.minimized = false; activate(c); }); },
    minimize: function (c) {
      if (!c.minimizable) throw { refused: 'KWin says this window cannot be minimised' };
      return acted(c, function () { c.minimized = true; });
    },
    restore: function (c) { return acted(c, function () { unshape(c); }); },
    fullscreen: function (c) {
      if (REQ.on && !c.fullScreenable) throw { refused: 'KWin says this window cannot be full screen' };
      return acted(c, function () { c.fullScreen = REQ.on; });
    },
    move: function (c) {
      if (!c.moveable || !c.resizeable) throw { refused: 'KWin says this window cannot be moved or resized' };
      return acted(c, function () {
        unshape(c);
        c.frameGeometry = { x: REQ.x, y: REQ.y, width: REQ.width, height: REQ.height };
      });
    },
    close: function (c) {
      if (!c.closeable) throw { refused: 'KWin says this window cannot be closed' };
      c.closeWindow(); return null;
    }
  };
  try {
    if (REQ.op === 'snapshot') { answer({ ok: true, value: OPS.snapshot() }); return; }
    var c = find(REQ.id);
    if (!c) { answer({ ok: false, gone: true }); return; }
    answer({ ok: true, value: OPS[REQ.op](c) });
  } catch (e) {
    if (e && e.refused) answer({ ok: false, refused: e.refused });
    else answer({ ok: false, error: String(e && e.message ? e.message : e) });
  }
})();
`;

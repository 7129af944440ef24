// The in-page half of a verified click (see verified-click.ts), spliced into PAGE_SCRIPT so it
// shares the registry (byId), clickTarget, hits and describe. Plain ES2020 in a string, like the rest
// of the page script.
//
// Why: Chrome routes a mouse event to a frame by the compositor's last frame, not by the layout the
// page script just measured. After a scroll (or any layout change) that frame can be a second old in a
// background tab, and older on a busy machine; an event aimed at an out-of-process iframe then lands
// on the <iframe> element in the parent, and one aimed at the page can land in an iframe that has
// since moved away. So before the press the element's world and every world of the tab's other
// processes are armed: the document that receives it records whether it reached the element, and a
// press that reached anything else is swallowed — with its release and click — so the page never
// sees a stray click, and the click is tried again. (Within one process the renderer routes by the
// current layout, which prepare() has just checked with elementFromPoint.)
//
//   __dp.arm(id)    id: the element's registry number in this world, or null (any press here is stray)
//   __dp.probed()   { got: 'hit' | 'miss' | null, what } — what the press reached, if it came here
//   __dp.pressed()  whether the element is :active (the press reached it, seen or not)
//   __dp.disarm()   the same report, and stop watching
//   __dp.frames()   a promise that resolves after this document rendered two more frames

export interface ProbeReport {
  /** 'hit': the press reached the element; 'miss': it reached this document elsewhere; null: it did not come here. */
  got: 'hit' | 'miss' | null;
  /** A short description of what the press reached, e.g. `<iframe id="cross">`. */
  what: string;
}

export const HIT_PROBE_SCRIPT = String.raw`
  var probe = null;
  var PROBED = ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click', 'auxclick', 'dblclick', 'contextmenu'];
  function onProbe(e) {
    var p = probe;
    if (!p) return;
    if (p.got === null && (e.type === 'pointerdown' || e.type === 'mousedown')) {
      var path = e.composedPath();
      var reached = p.el !== null && (path.indexOf(p.el) !== -1 || (p.box !== null && path.indexOf(p.box) !== -1) || hits(p.el, e.target));
      p.got = reached ? 'hit' : 'miss';
      p.what = describe(e.target);
    }
    if (p.got === 'hit') return;
    // Registered at document start, so this runs before the page's own listeners.
    e.stopImmediatePropagation();
    // Cancelling pointer events would not stop the mouse events' defaults (focus, activation); these do.
    if (e.type.indexOf('pointer') !== 0) e.preventDefault();
  }
  var probedWindows = new WeakSet();
  function watchWindow(win) {
    if (!win || probedWindows.has(win)) return;
    probedWindows.add(win);
    for (var i = 0; i < PROBED.length; i++) win.addEventListener(PROBED[i], onProbe, true);
  }
  watchWindow(window);
  function probeReport() { return probe ? { got: probe.got, what: probe.what } : { got: null, what: '' }; }
  globalThis.__dp.arm = function (id) {
    var el = id === null ? null : byId(id);
    probe = { el: el, box: el ? clickTarget(el) : null, got: null, what: '' };
    // An element of a same-origin child document is numbered here but gets its events there.
    if (el) watchWindow(el.ownerDocument.defaultView);
    return id === null || el !== null;
  };
  globalThis.__dp.probed = probeReport;
  // Whether the element is being pressed: :active holds even when a page listener that ran
  // before ours stopped the press on its way.
  globalThis.__dp.pressed = function () {
    var p = probe;
    return !!p && p.el !== null && (p.el.matches(':active') || (p.box !== null && p.box.matches(':active')));
  };
  globalThis.__dp.disarm = function () { var r = probeReport(); probe = null; return r; };
  globalThis.__dp.frames = function () {
    return new Promise(function (resolve) { requestAnimationFrame(function () { requestAnimationFrame(function () { resolve(true); }); }); });
  };
`;

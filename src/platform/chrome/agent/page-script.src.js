// @ts-check
// The code that runs inside every frame of an agent tab, in an isolated world (Page.createIsolatedWorld /
// addScriptToEvaluateOnNewDocument with a worldName): page scripts share the DOM with it but cannot see
// its variables, so they can neither read nor forge the element numbers, the registry or the counters.
//
// A real, type-checked source (tsconfig.page.json: ES2021 and the DOM, checked by page-script.test.ts),
// shipped as text: scripts/gen-page-script.ts copies it into page-script.generated.ts, and
// page-script.ts evaluates it as `(function installPageScript(F) {…})(F)` with the hit probe
// (hit-probe.ts) spliced in at its marker. Never stringified from a compiled function: a bundler or
// tsx may wrap functions in helpers (`__name(...)`) that do not exist in the page. Keep it
// self-contained: no imports, nothing from outside but the DOM and F.
//
// Why one file of ~700 lines: it is one function evaluated in each world, its helpers (the registry,
// the hit test, the element kinds) shared by every part and by the hit probe spliced into its scope;
// split files would have to be concatenated back into that one scope, unchecked across the seams.
//
// What it provides, as globalThis.__dp inside the world:
//   collect(opts)   numbered interactive elements with boxes (one call per frame that is a collector root)
//   changes()       DOM mutation + input/change event counter and ms since the last one (settle detection)
//   prepare(id, o)  scroll into view, pick a hit-testable point (for Input.dispatchMouseEvent)
//   facts(id)       safety facts (password, payment form, submits a form)
//   hostCandidates/adopt   what only DevTools can see (hidden-clickables.ts): closed shadow roots, click listeners
//   focus/isFocused/placeCaret/fieldState/selectOption/ariaOptions/scroll/scrollTo/text/hasText/hasSelector/html/painted   action helpers
//   arm/probed/disarm/frames   the hit probe of a verified click (hit-probe.ts)

/* eslint-disable no-undef -- the page's globals (document, window …): tsc checks every name against the DOM */

/** @typedef {typeof import('./page-script').F} Flags */
/** @typedef {import('./page-script').CollectedElement} CollectedElement */
/** @typedef {import('./page-script').CollectResult} CollectResult */
/** @typedef {import('./page-script').PreparedPoint} PreparedPoint */

/**
 * An element as this script reads it. Which kind it is, is decided by localName — instanceof would
 * fail for the elements of same-origin child documents, which are walked too — so the properties of
 * form controls, links, <details> and <label> are all here, each read only where the tag (or a
 * check) says the element has it.
 * @typedef {HTMLElement & {
 *   type: string; value: string; checked: boolean; disabled: boolean; readOnly: boolean;
 *   labels: NodeListOf<HTMLLabelElement> | undefined; control: HTMLElement | null; form: HTMLFormElement | null;
 *   options: HTMLOptionsCollection; selectedOptions: HTMLCollectionOf<HTMLOptionElement>; selectedIndex: number;
 *   open: boolean; href: string; contentDocument: Document | null;
 *   select(): void; setSelectionRange(start: number, end: number): void;
 * }} El
 */

/** @typedef {{ frames: boolean; vh: number; far: number; farAbove: number; farBelow: number; ptr: Map<Element, boolean> }} WalkContext */
/** @typedef {{ off: boolean; x: number; y: number; covered?: Element | null }} HitPoint */
/** @typedef {{ value?: string; text?: string; index?: number }} OptionWanted */

/**
 * Installs globalThis.__dp in this world, once.
 * @param {Flags} F the element flag bits (page-script.ts), shared with the code that reads collect()
 */
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- called by the wrapper page-script.ts builds around this text
function installPageScript(F) {
  'use strict';
  /** @type {{ __dp?: Record<string, Function> }} */
  var G = /** @type {any} */ (globalThis);
  if (G.__dp) return;
  /** @type {WeakMap<Element, number>} */
  var ids = new WeakMap();
  /** @type {Map<number, WeakRef<Element>>} */
  var refs = new Map();
  var nextId = 1;
  // Found through DevTools (hidden-clickables.ts), which sees what no script of this world can:
  // closed shadow roots (host → root; el.shadowRoot is null for them) and elements with a click
  // listener of the page's (listeners are invisible across worlds).
  /** @type {WeakMap<Element, ShadowRoot>} */
  var closedRoots = new WeakMap();
  /** @type {WeakSet<Element>} */
  var listened = new WeakSet();
  /** Hosts already asked about, so each is asked once. @type {WeakSet<Element>} */
  var askedHosts = new WeakSet();
  var mutations = 0;
  var lastChange = performance.now();
  var swept = 0;
  function bump() { mutations++; lastChange = performance.now(); }
  var mo = new MutationObserver(function (records) { mutations += records.length; lastChange = performance.now(); });
  mo.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  addEventListener('input', bump, true);
  addEventListener('change', bump, true);

  /** @type {Record<string, number>} */
  var ROLES = { button: 1, link: 1, checkbox: 1, radio: 1, tab: 1, menuitem: 1, menuitemcheckbox: 1, menuitemradio: 1,
    option: 1, switch: 1, textbox: 1, combobox: 1, searchbox: 1, slider: 1, spinbutton: 1, treeitem: 1 };
  /** @type {Record<string, number>} */
  var VALUE_INPUTS = { text: 1, search: 1, email: 1, url: 1, tel: 1, number: 1, password: 1, date: 1, 'datetime-local': 1,
    month: 1, week: 1, time: 1, range: 1, color: 1 };
  /** @type {Record<string, number>} */
  var BUTTON_INPUTS = { submit: 1, button: 1, reset: 1, image: 1 };
  var MAX_TEXT = 100;
  var MAX_LABEL = 80;
  var MAX_OPTIONS = 12;

  /**
   * @param {unknown} s
   * @param {number} max
   */
  function squash(s, max) {
    if (!s) return '';
    var t = String(s).replace(/\s+/g, ' ').trim();
    return t.length > max ? t.slice(0, max - 1) + '\u2026' : t;
  }

  /** @param {Element} el */
  function idOf(el) {
    var id = ids.get(el);
    if (id === undefined) {
      id = nextId++;
      ids.set(el, id);
      refs.set(id, new WeakRef(el));
    }
    return id;
  }

  /**
   * @param {number} id
   * @returns {El | null}
   */
  function byId(id) {
    var ref = refs.get(id);
    var el = ref && ref.deref();
    if (!el) { refs.delete(id); return null; }
    return el.isConnected ? /** @type {El} */ (el) : null;
  }

  function sweep() {
    // WeakRefs of removed elements pile up on pages that re-render a lot.
    if (refs.size < 2 * swept + 1000) return;
    refs.forEach(function (ref, id) { var el = ref.deref(); if (!el || !el.isConnected) refs.delete(id); });
    swept = refs.size;
  }

  /** @param {El} el */
  function isPasswordLike(el) {
    if (el.localName !== 'input') return false;
    if (el.type === 'password') return true;
    var ac = (el.getAttribute('autocomplete') || '').toLowerCase();
    return ac.indexOf('password') >= 0 || ac.indexOf('one-time-code') >= 0;
  }

  // Interactive = native controls, ARIA widget roles, contenteditable roots, onclick attributes,
  // tabindex >= 0, and cursor:pointer elements whose parent is not cursor:pointer (the topmost of a
  // clickable area; children inherit the cursor). Returns 0 (no), 1 (yes) or -1 (decided by the cursor).
  /**
   * @param {El} el
   * @param {string} tag
   */
  function kind(el, tag) {
    switch (tag) {
      case 'a': return el.hasAttribute('href') ? 1 : (el.hasAttribute('onclick') || el.hasAttribute('role') && ROLES[el.getAttribute('role') || ''] ? 1 : 0);
      case 'button': case 'select': case 'textarea': case 'summary': return 1;
      case 'input': return el.type === 'hidden' ? 0 : 1;
      case 'details': return el.querySelector(':scope > summary') ? 0 : 1;
      case 'label': if (el.control) return 0; break;
      case 'script': case 'style': case 'head': case 'meta': case 'link': case 'title': case 'noscript': case 'template':
      case 'html': case 'body': case 'br': case 'option': case 'optgroup': case 'iframe': case 'frame': return 0;
    }
    var role = el.getAttribute('role');
    if (role && ROLES[role]) return 1;
    if (el.hasAttribute('contenteditable') && el.isContentEditable && !(el.parentElement && el.parentElement.isContentEditable)) return 1;
    if (el.hasAttribute('onclick')) return 1;
    if (el.hasAttribute('tabindex') && el.tabIndex >= 0) return 1;
    return -1; // decided by the cursor check
  }

  /** @param {El} el */
  function labelText(el) {
    var l = el.getAttribute('aria-label');
    if (l && l.trim()) return l;
    var by = el.getAttribute('aria-labelledby');
    if (by) {
      var root = /** @type {Partial<NonElementParentNode>} */ (el.getRootNode());
      /** @type {string[]} */
      var parts = [];
      by.split(/\s+/).forEach(function (id) {
        var n = root.getElementById ? root.getElementById(id) : null;
        if (!n && el.ownerDocument) n = el.ownerDocument.getElementById(id);
        if (n) parts.push(n.textContent || '');
      });
      if (parts.join('').trim()) return parts.join(' ');
    }
    if (el.labels && el.labels.length) {
      var ls = [];
      for (var i = 0; i < el.labels.length; i++) {
        var lab = /** @type {HTMLLabelElement} */ (el.labels[i]);
        var t = lab.textContent || '';
        if (lab.contains(el)) {
          var own = el.localName === 'select' || el.localName === 'textarea' ? (el.textContent || '') : '';
          if (own) t = t.replace(own, ' ');
        }
        ls.push(t);
      }
      if (ls.join('').trim()) return ls.join(' ');
    }
    var title = el.getAttribute('title');
    if (title && title.trim()) return title;
    if (el.localName === 'input' || el.localName === 'select' || el.localName === 'textarea') return el.getAttribute('name') || '';
    return '';
  }

  /**
   * @param {El} el
   * @param {string} tag
   */
  function ownText(el, tag) {
    // A submit or reset input without a value shows the browser's own caption.
    if (tag === 'input') return BUTTON_INPUTS[el.type] ? (el.value || el.getAttribute('alt') || (el.type === 'submit' ? 'Submit' : el.type === 'reset' ? 'Reset' : '')) : '';
    if (tag === 'select' || tag === 'textarea') return '';
    var t = squash(el.childElementCount > 200 ? el.textContent : el.innerText, MAX_TEXT);
    if (!t) {
      var alt = el.querySelector('img[alt], [aria-label], svg title');
      if (alt) t = squash(alt.getAttribute('alt') || alt.getAttribute('aria-label') || alt.textContent, MAX_TEXT);
    }
    return t;
  }

  var VIS = { opacityProperty: true, visibilityProperty: true, contentVisibilityAuto: true };

  /**
   * Whether a hit test that found `hit` reached el.
   * @param {El} el
   * @param {Element | null} hit
   */
  function hits(el, hit) {
    if (!hit) return false;
    if (hit === el || el.contains(hit)) return true;
    // A label over its own control (floating labels) still activates it.
    if (el.labels) for (var i = 0; i < el.labels.length; i++) if (el.labels[i] === hit || el.labels[i].contains(hit)) return true;
    // A shadow host hit while el is inside its shadow tree (or a tree nested in it; closed ones too).
    var root = /** @type {Node & { host?: Element }} */ (el.getRootNode());
    while (root.host) {
      if (root.host === hit) return true;
      root = /** @type {Node & { host?: Element }} */ (root.host.getRootNode());
    }
    return false;
  }

  /** @param {Element | null} n */
  function describe(n) {
    if (!n) return 'nothing';
    var s = '<' + n.localName;
    if (n.id) s += ' id="' + squash(n.id, 40) + '"';
    else if (typeof n.className === 'string' && n.className.trim()) s += ' class="' + squash(n.className, 40) + '"';
    return s + '>';
  }

  // The hit-testable point of el inside its own document's viewport (vw x vh), or what covers it,
  // or off: no part of it is in the viewport. r is el's client rect.
  /**
   * @param {El} el
   * @param {DOMRect} r
   * @param {number} vw
   * @param {number} vh
   * @returns {HitPoint}
   */
  function hitPoint(el, r, vw, vh) {
    var l = Math.max(r.left, 0), t = Math.max(r.top, 0), rr = Math.min(r.right, vw), b = Math.min(r.bottom, vh);
    if (rr - l < 1 || b - t < 1) return { off: true, x: 0, y: 0 };
    var root = /** @type {Document | ShadowRoot} */ (el.getRootNode());
    if (typeof root.elementFromPoint !== 'function') root = el.ownerDocument;
    var pts = [[(l + rr) / 2, (t + b) / 2], [l + (rr - l) * 0.25, t + (b - t) * 0.3], [l + (rr - l) * 0.75, t + (b - t) * 0.7]];
    var first = null;
    for (var i = 0; i < pts.length; i++) {
      var hit = root.elementFromPoint(pts[i][0], pts[i][1]);
      if (hits(el, hit)) return { off: false, x: pts[i][0], y: pts[i][1] };
      if (!first) first = hit;
    }
    return { off: false, x: 0, y: 0, covered: first };
  }

  /** @param {DOMRect} r */
  function sizeOk(r) { return r.width > 1 && r.height > 1; }

  // Collect from one document or shadow root. ox/oy: offset of this document's viewport in the
  // collector root's viewport; fvw/fvh: this document's own viewport size.
  /**
   * @param {ParentNode} root
   * @param {number} ox
   * @param {number} oy
   * @param {number} fvw
   * @param {number} fvh
   * @param {CollectedElement[]} out
   * @param {WalkContext} ctx
   */
  function walk(root, ox, oy, fvw, fvh, out, ctx) {
    var all = root.querySelectorAll('*');
    for (var i = 0; i < all.length; i++) {
      var el = /** @type {El} */ (all[i]);
      var tag = el.localName;
      var k = kind(el, tag);
      if (k === -1) {
        // Parents come first in document order: their answer is usually cached already.
        var ptr = getComputedStyle(el).cursor === 'pointer';
        ctx.ptr.set(el, ptr);
        if (ptr) {
          var p = el.parentElement;
          var pp = p ? ctx.ptr.get(p) : false;
          if (pp === undefined) pp = getComputedStyle(/** @type {Element} */ (p)).cursor === 'pointer';
          k = pp ? 0 : 1;
        } else k = 0;
      }
      if (k === 0 && listened.has(el) && listenerClickable(el, tag, fvw, fvh)) k = 1;
      if (k === 1) add(el, tag, ox, oy, fvw, fvh, out, ctx);
      var sr = el.shadowRoot || closedRoots.get(el);
      if (sr) walk(sr, ox, oy, fvw, fvh, out, ctx);
      if ((tag === 'iframe' || tag === 'frame') && ctx.frames) {
        var doc;
        try { doc = el.contentDocument; } catch (e) { doc = null; }
        if (doc && doc.documentElement) {
          var fr = el.getBoundingClientRect();
          if (!sizeOk(fr) || !el.checkVisibility(VIS)) continue;
          var fcs = getComputedStyle(el);
          var cx = fr.left + el.clientLeft + parseFloat(fcs.paddingLeft || '0');
          var cy = fr.top + el.clientTop + parseFloat(fcs.paddingTop || '0');
          var win = doc.defaultView;
          walk(doc, ox + cx, oy + cy, win ? win.innerWidth : el.clientWidth, win ? win.innerHeight : el.clientHeight, out, ctx);
        }
      }
    }
  }

  /** Anything a person would click on its own: with one inside, a listener on el is delegation, not el's. */
  var CONTROLS = 'a[href], button, input:not([type=hidden]), select, textarea, summary, [role], [tabindex], [onclick], [contenteditable]';

  // An element with a click listener of the page's, and nothing else making it interactive: listed
  // unless it is a page-sized container or holds controls of its own (a listener delegating for them).
  /**
   * @param {El} el
   * @param {string} tag
   * @param {number} fvw
   * @param {number} fvh
   */
  function listenerClickable(el, tag, fvw, fvh) {
    if (tag === 'html' || tag === 'body' || tag === 'label' || tag === 'option') return false;
    var r = el.getBoundingClientRect();
    if (r.width * r.height > fvw * fvh / 3) return false;
    return !el.querySelector(CONTROLS);
  }

  /**
   * Custom elements that may hold a closed shadow root, not asked about yet: defined (a constructor
   * ran, which is where closed roots are attached), no open root, visible. At most `max`, each once;
   * null when there is none (nothing for DevTools to list).
   * @param {number} max
   * @returns {Element[] | null}
   */
  function hostCandidates(max) {
    /** @type {Element[]} */
    var out = [];
    /** @param {ParentNode} root */
    function scan(root) {
      var all = root.querySelectorAll('*');
      for (var i = 0; i < all.length && out.length < max; i++) {
        var el = all[i];
        var sr = el.shadowRoot || closedRoots.get(el);
        if (sr) scan(sr);
        else if (el.localName.indexOf('-') > 0 && !askedHosts.has(el) && el.matches(':defined')) {
          askedHosts.add(el);
          var r = el.getBoundingClientRect();
          if (r.width > 0 && r.height > 0) out.push(el);
        }
      }
    }
    scan(document);
    return out.length ? out : null;
  }

  /**
   * Takes what DevTools found: `roots` closed shadow roots, `clicky` nodes with a click listener
   * (an element, or a shadow root — then its tree is adopted). Closed roots an element sits in are
   * adopted on the way. Returns how many nodes were new.
   * @param {Node[]} roots
   * @param {Node[]} clicky
   */
  function adopt(roots, clicky) {
    var added = 0;
    /** @param {Node} n a closed shadow root, or any node: the closed roots it sits in are adopted */
    function adoptRoots(n) {
      var root = /** @type {Node & { host?: Element }} */ (n.nodeType === 11 ? n : n.getRootNode());
      while (root.host) {
        if (root.host.shadowRoot !== root && !closedRoots.has(root.host)) {
          closedRoots.set(root.host, /** @type {ShadowRoot} */ (/** @type {unknown} */ (root)));
          added++;
        }
        root = /** @type {Node & { host?: Element }} */ (root.host.getRootNode());
      }
    }
    roots.forEach(function (r) { if (r && r.nodeType === 11) adoptRoots(r); });
    clicky.forEach(function (n) {
      if (!n || (n.nodeType !== 1 && n.nodeType !== 11)) return;
      adoptRoots(n);
      if (n.nodeType === 1 && !listened.has(/** @type {Element} */ (n))) { listened.add(/** @type {Element} */ (n)); added++; }
    });
    return added;
  }

  /**
   * @param {El} el
   * @param {string} tag
   * @param {number} ox
   * @param {number} oy
   * @param {number} fvw
   * @param {number} fvh
   * @param {CollectedElement[]} out
   * @param {WalkContext} ctx
   */
  function add(el, tag, ox, oy, fvw, fvh, out, ctx) {
    /** @type {El} */
    var box = el;
    var r = el.getBoundingClientRect();
    var flags = 0;
    var visible = sizeOk(r) && el.checkVisibility(VIS);
    if (!visible && tag === 'input' && (el.type === 'checkbox' || el.type === 'radio' || el.type === 'file') && el.labels) {
      // A visually hidden control styled through its label: show (and click) the label.
      for (var j = 0; j < el.labels.length; j++) {
        var lr = el.labels[j].getBoundingClientRect();
        if (sizeOk(lr) && el.labels[j].checkVisibility(VIS)) { box = /** @type {El} */ (/** @type {HTMLElement} */ (el.labels[j])); r = lr; visible = true; flags |= F.viaLabel; break; }
      }
    }
    if (!visible) return;
    // Far above or below the collector root's viewport: only counted ("N more below").
    var yr = r.top + oy;
    if (yr + r.height < -ctx.far) { ctx.farAbove++; return; }
    if (yr > ctx.vh + ctx.far) { ctx.farBelow++; return; }
    var hp = hitPoint(box, r, fvw, fvh);
    if (hp.covered !== undefined) return;
    if (!hp.off) flags |= F.inView;
    var role = el.getAttribute('role') || (el.isContentEditable && tag !== 'input' && tag !== 'textarea' ? 'textbox' : '');
    var type = '';
    var value = '';
    var options = '';
    var placeholder = el.getAttribute('placeholder') || el.getAttribute('aria-placeholder') || '';
    var ac = (el.getAttribute('autocomplete') || '').toLowerCase();
    if (tag === 'input') {
      type = el.type;
      if (type === 'checkbox' || type === 'radio') flags |= el.checked ? F.checked : F.unchecked;
      else if (VALUE_INPUTS[type] || !BUTTON_INPUTS[type] && type !== 'file') {
        flags |= F.valued;
        if (isPasswordLike(el)) { flags |= F.password; if (el.value) flags |= F.hasSecret; }
        else value = squash(el.value, 200);
      }
    } else if (tag === 'textarea') {
      flags |= F.valued;
      value = squash(el.value, 300);
    } else if (tag === 'select') {
      flags |= F.valued;
      var sel = el.selectedOptions;
      var vs = [];
      for (var s = 0; s < sel.length; s++) vs.push(squash(sel[s].label || sel[s].text, 60));
      value = vs.join(', ');
      var opts = [];
      var n = el.options.length;
      for (var o = 0; o < Math.min(n, MAX_OPTIONS); o++) opts.push(squash(el.options[o].label || el.options[o].text, 40));
      options = opts.join(' | ') + (n > MAX_OPTIONS ? ' | \u2026 (' + (n - MAX_OPTIONS) + ' more)' : '');
    } else if (tag === 'button') {
      if (el.form) type = el.type;
    } else if (role === 'slider' || role === 'spinbutton') {
      value = el.getAttribute('aria-valuetext') || el.getAttribute('aria-valuenow') || '';
    }
    if (el.isContentEditable && tag !== 'input' && tag !== 'textarea') flags |= F.valued;
    if (el.disabled === true || el.getAttribute('aria-disabled') === 'true') flags |= F.disabled;
    var ch = el.getAttribute('aria-checked');
    if (ch === 'true') flags |= F.checked; else if (ch === 'false') flags |= F.unchecked;
    var ex = el.getAttribute('aria-expanded');
    if (ex === 'true') flags |= F.expanded; else if (ex === 'false') flags |= F.collapsed;
    if (el.getAttribute('aria-selected') === 'true' || tag === 'details' && el.open) flags |= F.selected;
    var text = flags & F.valued && el.isContentEditable ? '' : ownText(el, tag);
    if (el.isContentEditable && tag !== 'input' && tag !== 'textarea') value = squash(el.innerText, 300);
    var label = squash(labelText(el), MAX_LABEL);
    if (label === text) label = '';
    var href = tag === 'a' && el.hasAttribute('href') ? el.href : '';
    out.push([idOf(el), tag, role, label, text, value, placeholder ? squash(placeholder, 80) : '', href, type, flags,
      Math.round(r.left + ox), Math.round(r.top + oy), Math.round(r.width), Math.round(r.height), options, ac]);
  }

  /**
   * @param {{ root: boolean; farScreens?: number }} o
   * @returns {CollectResult | { skip: true }}
   */
  function collect(o) {
    var t0 = performance.now();
    if (!o.root && window.frameElement) {
      // A same-origin child: its parent's collector walks it.
      return { skip: true };
    }
    /** @type {CollectedElement[]} */
    var out = [];
    var screens = typeof o.farScreens === 'number' ? o.farScreens : 2;
    /** @type {WalkContext} */
    var ctx = { frames: true, vh: innerHeight, far: screens * innerHeight, farAbove: 0, farBelow: 0, ptr: new Map() };
    var de = document.documentElement;
    if (de) walk(document, 0, 0, innerWidth, innerHeight, out, ctx);
    sweep();
    return { url: location.href, title: document.title, vw: innerWidth, vh: innerHeight, sx: scrollX, sy: scrollY,
      docH: de ? Math.max(de.scrollHeight, document.body ? document.body.scrollHeight : 0) : 0, els: out,
      farAbove: ctx.farAbove, farBelow: ctx.farBelow, ms: Math.round((performance.now() - t0) * 100) / 100 };
  }

  // Offset of el's document viewport within this world's window (same-origin iframes walked up).
  /** @param {Element} el */
  function frameOffset(el) {
    var x = 0, y = 0;
    var win = el.ownerDocument.defaultView;
    while (win && win !== window) {
      var fe = win.frameElement;
      if (!fe) break;
      var fr = fe.getBoundingClientRect();
      var cs = getComputedStyle(fe);
      x += fr.left + fe.clientLeft + parseFloat(cs.paddingLeft || '0');
      y += fr.top + fe.clientTop + parseFloat(cs.paddingTop || '0');
      win = fe.ownerDocument.defaultView;
    }
    return { x: x, y: y };
  }

  /**
   * What a click on el aims at: el itself, or the visible label of a visually hidden control.
   * @param {El} el
   * @returns {El | null}
   */
  function clickTarget(el) {
    var r = el.getBoundingClientRect();
    if (sizeOk(r) && el.checkVisibility(VIS)) return el;
    if (el.labels) for (var i = 0; i < el.labels.length; i++) {
      var lr = el.labels[i].getBoundingClientRect();
      if (sizeOk(lr) && el.labels[i].checkVisibility(VIS)) return /** @type {El} */ (/** @type {HTMLElement} */ (el.labels[i]));
    }
    return null;
  }

  /**
   * @param {number} id
   * @param {{ needEnabled: boolean }} o
   * @returns {PreparedPoint}
   */
  function prepare(id, o) {
    var el = byId(id);
    if (!el) return { ok: false, reason: 'not_found', x: 0, y: 0 };
    var tag = el.localName;
    if (o.needEnabled && (el.disabled === true || el.getAttribute('aria-disabled') === 'true')) return { ok: false, reason: 'disabled', x: 0, y: 0, tag: tag };
    var box = clickTarget(el);
    if (!box) return { ok: false, reason: 'hidden', x: 0, y: 0, tag: tag };
    var win = /** @type {Window} */ (box.ownerDocument.defaultView);
    var vw = win.innerWidth, vh = win.innerHeight;
    var r = box.getBoundingClientRect();
    if (r.top < 0 || r.left < 0 || r.bottom > vh || r.right > vw) {
      box.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
      r = box.getBoundingClientRect();
    }
    var hp = hitPoint(box, r, vw, vh);
    var off = frameOffset(box);
    if (hp.off) return { ok: false, reason: 'hidden', x: 0, y: 0, tag: tag };
    if (hp.covered !== undefined) {
      var c = hp.covered;
      return { ok: false, reason: 'covered', x: off.x + (r.left + r.right) / 2, y: off.y + (r.top + r.bottom) / 2, cover: describe(c), tag: tag };
    }
    return { ok: true, x: off.x + hp.x, y: off.y + hp.y, tag: tag };
  }

  /**
   * The focused element, looking into shadow roots and same-origin frames.
   * @param {Document} doc
   */
  function deepActive(doc) {
    var a = doc.activeElement;
    while (a) {
      if (a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
      else if ((a.localName === 'iframe' || a.localName === 'frame')) {
        var d;
        try { d = /** @type {HTMLIFrameElement} */ (a).contentDocument; } catch (e) { d = null; }
        if (d && d.activeElement) a = d.activeElement; else break;
      } else break;
    }
    return a;
  }

  /** @param {number} id */
  function isFocused(id) {
    var el = byId(id);
    return !!el && deepActive(document) === el;
  }

  /** @param {number} id */
  function focusEl(id) {
    var el = byId(id);
    if (!el) return false;
    el.scrollIntoView({ block: 'nearest', inline: 'nearest', behavior: 'instant' });
    el.focus({ preventScroll: true });
    return true;
  }

  /**
   * 'text' for fields with a value, 'rich' for contenteditable, '' for anything else.
   * @param {El} el
   */
  function editable(el) {
    var tag = el.localName;
    if (tag === 'textarea') return 'text';
    if (tag === 'input') return VALUE_INPUTS[el.type] || !BUTTON_INPUTS[el.type] && el.type !== 'checkbox' && el.type !== 'radio' && el.type !== 'file' ? 'text' : '';
    if (el.isContentEditable) return 'rich';
    return '';
  }

  /**
   * A field itself, or the first field inside it (a wrapper the page made clickable).
   * @param {El} el
   * @returns {El | null}
   */
  function innerField(el) {
    return /** @type {El | null} */ (el.querySelector('input:not([type=hidden]), textarea, [contenteditable]'));
  }

  // Selects the whole content of the field (replace) or puts the caret at its end (append).
  /**
   * @param {number} id
   * @param {'replace' | 'append'} mode
   */
  function placeCaret(id, mode) {
    var el = byId(id);
    if (!el) return 'not_found';
    var kindOf = editable(el);
    if (!kindOf) {
      var inner = innerField(el);
      if (inner) { el = inner; kindOf = editable(el); }
    }
    if (!kindOf) return 'not_editable';
    if (el.disabled || el.readOnly) return 'disabled';
    if (deepActive(document) !== el) el.focus({ preventScroll: true });
    if (kindOf === 'text') {
      if (mode === 'replace') el.select();
      else { try { var n = el.value.length; el.setSelectionRange(n, n); } catch (e) { /* number/email inputs */ } }
    } else {
      var s = /** @type {Selection} */ (el.ownerDocument.getSelection());
      if (mode === 'replace') s.selectAllChildren(el);
      else { s.selectAllChildren(el); s.collapseToEnd(); }
    }
    return deepActive(document) === el ? 'ok' : 'not_focused';
  }

  /** @param {number} id */
  function fieldState(id) {
    var el = byId(id);
    if (!el) return null;
    if (!editable(el)) {
      var inner = innerField(el);
      if (inner) el = inner;
    }
    if (isPasswordLike(el)) return { secret: true, length: el.value.length, value: '' };
    var v = el.localName === 'input' || el.localName === 'textarea' ? el.value : el.innerText;
    return { secret: false, length: v.length, value: squash(v, 300) };
  }

  /** @param {{ id?: number }} o */
  function textOf(o) {
    var t0 = performance.now();
    var el = o.id ? byId(o.id) : /** @type {El} */ (document.body || document.documentElement);
    if (!el) return null;
    /** @type {string} */
    var t;
    if (el.localName === 'input' || el.localName === 'textarea') t = isPasswordLike(el) ? '' : el.value;
    else if (el.localName === 'select') t = Array.prototype.map.call(el.options, function (/** @type {HTMLOptionElement} */ x) { return (x.selected ? '[selected] ' : '') + x.text; }).join('\n');
    else t = el.innerText || '';
    t = t.replace(/[ \t]+\n/g, '\n').replace(/\n{3,}/g, '\n\n').trim();
    return { text: t, ms: performance.now() - t0 };
  }

  /** @param {string} s */
  function hasText(s) {
    var b = document.body;
    if (!b) return false;
    if ((b.innerText || '').indexOf(s) >= 0) return true;
    var inputs = /** @type {NodeListOf<El>} */ (document.querySelectorAll('input, textarea'));
    for (var i = 0; i < inputs.length; i++) if (!isPasswordLike(inputs[i]) && (inputs[i].value || '').indexOf(s) >= 0) return true;
    return false;
  }

  /**
   * @param {string} optText
   * @param {string} optValue
   * @param {OptionWanted} want
   */
  function optionMatches(optText, optValue, want) {
    if (want.value !== undefined) return optValue === want.value;
    if (want.text !== undefined) return optText === want.text;
    return false;
  }

  /** @param {unknown} s */
  function norm(s) { return String(s || '').replace(/\s+/g, ' ').trim().toLowerCase(); }

  /**
   * @param {number} id
   * @param {OptionWanted} want
   */
  function selectOption(id, want) {
    var el = byId(id);
    if (!el) return { status: 'not_found' };
    if (el.localName !== 'select') return { status: 'not_select' };
    if (el.disabled) return { status: 'disabled' };
    var opts = el.options;
    var idx = -1;
    if (want.index !== undefined) idx = want.index < opts.length ? want.index : -1;
    else {
      for (var i = 0; i < opts.length && idx < 0; i++) if (optionMatches(squash(opts[i].text, 1000), opts[i].value, want)) idx = i;
      var key = norm(want.value !== undefined ? want.value : want.text);
      for (var j = 0; j < opts.length && idx < 0; j++) if (norm(opts[j].text) === key || norm(opts[j].value) === key || norm(opts[j].label) === key) idx = j;
      for (var k = 0; k < opts.length && idx < 0; k++) if (key && norm(opts[k].text).indexOf(key) >= 0) idx = k;
    }
    var names = Array.prototype.slice.call(opts, 0, 30).map(function (/** @type {HTMLOptionElement} */ x) { return squash(x.text, 40); });
    if (idx < 0) return { status: 'no_option', options: names, total: opts.length };
    if (opts[idx].disabled) return { status: 'option_disabled', chosen: squash(opts[idx].text, 80) };
    var before = el.selectedIndex;
    el.selectedIndex = idx;
    el.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
    return { status: 'ok', chosen: squash(opts[idx].text, 80), value: opts[idx].value, changed: before !== idx };
  }

  // ARIA listbox/combobox options reachable from el (its own [role=option]s, or those of the
  // element it controls/owns); each registered so Node can click it by number.
  /** @param {number} id */
  function ariaOptions(id) {
    var el = byId(id);
    if (!el) return null;
    var owner = el;
    /** @type {Element[]} */
    var scopes = [el];
    ['aria-controls', 'aria-owns'].forEach(function (a) {
      var v = owner.getAttribute(a);
      if (!v) return;
      var root = /** @type {Partial<NonElementParentNode>} */ (owner.getRootNode());
      v.split(/\s+/).forEach(function (x) { var n = root.getElementById ? root.getElementById(x) : document.getElementById(x); if (n) scopes.push(n); });
    });
    /** @type {Array<{ id: number; text: string; value: string; label: string; visible: boolean }>} */
    var res = [];
    scopes.forEach(function (s) {
      var list = /** @type {NodeListOf<HTMLElement>} */ (s.querySelectorAll('[role=option]'));
      for (var i = 0; i < list.length; i++) {
        var o = list[i];
        res.push({ id: idOf(o), text: squash(o.innerText || o.textContent, 80), value: o.getAttribute('data-value') || o.getAttribute('value') || '',
          label: o.getAttribute('aria-label') || '', visible: sizeOk(o.getBoundingClientRect()) && o.checkVisibility(VIS) });
      }
    });
    return { expanded: el.getAttribute('aria-expanded'), role: el.getAttribute('role') || el.localName, options: res };
  }

  /** @param {Element} el */
  function scrollable(el) {
    var cs = getComputedStyle(el);
    return (/(auto|scroll|overlay)/.test(cs.overflowY) && el.scrollHeight > el.clientHeight + 1) ||
      (/(auto|scroll|overlay)/.test(cs.overflowX) && el.scrollWidth > el.clientWidth + 1);
  }

  /** @param {{ id?: number; direction: 'up' | 'down' | 'top' | 'bottom'; amount?: number }} o */
  function doScroll(o) {
    /** @type {Element | null} */
    var target;
    if (o.id) {
      var el = byId(o.id);
      if (!el) return { status: 'not_found' };
      target = el;
      while (target && !scrollable(target)) target = target.parentElement;
      if (!target) target = document.scrollingElement;
    } else target = document.scrollingElement || document.documentElement;
    var t = /** @type {Element} */ (target);
    var isPage = t === document.scrollingElement || t === document.documentElement || t === document.body;
    var view = isPage ? innerHeight : t.clientHeight;
    var amount = o.amount || Math.max(100, Math.round(view * 0.85));
    var before = t.scrollTop;
    var max = t.scrollHeight - (isPage ? innerHeight : t.clientHeight);
    var to = o.direction === 'top' ? 0 : o.direction === 'bottom' ? max : o.direction === 'up' ? before - amount : before + amount;
    t.scrollTo({ top: Math.max(0, Math.min(max, to)), behavior: 'instant' });
    var after = t.scrollTop;
    return { status: 'ok', before: Math.round(before), after: Math.round(after), max: Math.max(0, Math.round(max)), page: isPage, view: Math.round(view),
      what: isPage ? 'page' : describe(t) };
  }

  /** @param {number} id */
  function facts(id) {
    var el = byId(id);
    if (!el) return null;
    var tag = el.localName;
    var type = tag === 'input' || tag === 'button' ? el.type : null;
    var form = el.form || el.closest('form');
    var payment = false;
    var scope = form || null;
    if (scope) {
      var fields = scope.querySelectorAll('input, select');
      for (var i = 0; i < fields.length && !payment; i++) {
        var f = fields[i];
        var ac = (f.getAttribute('autocomplete') || '').toLowerCase();
        var nm = ((f.getAttribute('name') || '') + ' ' + (f.id || '') + ' ' + (f.getAttribute('aria-label') || '')).toLowerCase();
        if (/(^|\s)cc-/.test(ac) || /card|cvc|cvv|csc|expiry|exp-?date|cc-?num|security.?code/.test(nm)) payment = true;
      }
    } else {
      var ac1 = (el.getAttribute('autocomplete') || '').toLowerCase();
      payment = /(^|\s)cc-/.test(ac1);
    }
    var submits = false;
    if (el.form) {
      if ((tag === 'button' && el.type === 'submit') || (tag === 'input' && (el.type === 'submit' || el.type === 'image'))) submits = true;
      else if (tag === 'input' && VALUE_INPUTS[el.type]) {
        // Implicit submission: Enter in a text field submits when the form has a submit button or one field only.
        var fm = el.form;
        var hasSubmit = !!fm.querySelector('button:not([type]), button[type=submit], input[type=submit], input[type=image]');
        var textFields = 0;
        for (var j = 0; j < fm.elements.length; j++) { var x = /** @type {El} */ (fm.elements[j]); if (x.localName === 'input' && VALUE_INPUTS[x.type]) textFields++; }
        submits = hasSubmit || textFields === 1;
      }
    }
    return { tag: tag, type: type, isPassword: isPasswordLike(el), inPaymentForm: payment, submitsForm: submits };
  }

  /**
   * Brings an element to the middle of its scrolling boxes (the page's too).
   * @param {number} id
   */
  function scrollToEl(id) {
    var el = byId(id);
    if (!el) return { status: 'not_found' };
    var se = document.scrollingElement || document.documentElement;
    var before = se.scrollTop;
    el.scrollIntoView({ block: 'center', inline: 'nearest', behavior: 'instant' });
    var r = el.getBoundingClientRect();
    return { status: 'ok', before: Math.round(before), after: Math.round(se.scrollTop), inView: r.bottom > 0 && r.top < innerHeight && r.width > 0 && r.height > 0 };
  }

  /**
   * Whether a CSS selector matches an element a person can see ('invalid' for a selector that does not parse).
   * @param {string} sel
   */
  function hasSelector(sel) {
    /** @type {NodeListOf<HTMLElement>} */
    var all;
    try { all = document.querySelectorAll(sel); } catch (e) { return 'invalid'; }
    for (var i = 0; i < all.length; i++) {
      var r = all[i].getBoundingClientRect();
      if (r.width > 0 && r.height > 0 && getComputedStyle(all[i]).visibility !== 'hidden') return 'found';
    }
    return 'missing';
  }

  /**
   * The HTML of an element or the whole page, for extraction: scripts, styles and comments left out,
   * password fields' values blanked, cut at `max` characters.
   * @param {{ id?: number; max: number }} o
   */
  function htmlOf(o) {
    var el = o.id ? byId(o.id) : document.documentElement;
    if (!el) return null;
    var copy = /** @type {Element} */ (el.cloneNode(true));
    var drop = copy.querySelectorAll('script, style, noscript, template, svg');
    for (var i = 0; i < drop.length; i++) drop[i].remove();
    var fields = /** @type {NodeListOf<El>} */ (copy.querySelectorAll('input[value]'));
    for (var j = 0; j < fields.length; j++) if (isPasswordLike(fields[j]) || fields[j].getAttribute('type') === 'hidden') fields[j].removeAttribute('value');
    var walker = document.createTreeWalker(copy, NodeFilter.SHOW_COMMENT);
    /** @type {Node[]} */
    var comments = [];
    while (walker.nextNode()) comments.push(walker.currentNode);
    comments.forEach(function (c) { if (c.parentNode) c.parentNode.removeChild(c); });
    var h = copy.outerHTML.replace(/\n\s*\n+/g, '\n');
    return { html: h.length > o.max ? h.slice(0, o.max) : h, total: h.length };
  }

  // Chrome drops input that reaches a document before its first paint; background tabs paint late.
  function painted() { return performance.getEntriesByType('paint').length > 0; }

  function changes() { return { n: mutations, quietMs: performance.now() - lastChange, loading: document.readyState !== 'complete' }; }

  G.__dp = { collect: collect, changes: changes, prepare: prepare, facts: facts, focus: focusEl, isFocused: isFocused,
    placeCaret: placeCaret, fieldState: fieldState, text: textOf, hasText: hasText, selectOption: selectOption,
    ariaOptions: ariaOptions, scroll: doScroll, painted: painted, scrollTo: scrollToEl, hasSelector: hasSelector, html: htmlOf,
    hostCandidates: hostCandidates, adopt: adopt };

  // @hit-probe — the in-page half of a verified click (hit-probe.ts) goes here, in this scope.
}

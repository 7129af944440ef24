// Input to one agent tab the way a person gives it: clicks at an element's visible point (verified
// to have reached it, see verified-click.ts), typing into a focused field, choosing options of
// <select>s and ARIA listboxes, keys and scrolling. Each waits for the page to react (settling.ts)
// and says what was done; a recoverable problem is an ActionError with its code.

import type { ActionOutcome, ElementFacts } from '../../../engine/agent-ports';
import { sleep, type CdpParams } from '../cdp-connection';
import { ActionError, notFound, unusable } from './action-error';
import { frameOffset, revealFrame } from './frame-geometry';
import type { FrameSession, World } from './frames';
import { keyEvents, KeyParseError, parseKeyCombo } from './keys';
import type { PreparedPoint } from './page-script';
import { maskPii } from './pii';
import type { Settling, Watch } from './settling';
import type { TabSession, WorldRef } from './tab-session';
import type { Located, TabSnapshots } from './tab-snapshot';
import { keystrokes } from './typing';
import { verifiedClick, type ClickPort } from './verified-click';

type Option = { value: string } | { text: string } | { index: number };

interface Prepared {
  x: number;
  y: number;
  tag: string;
}

export class TabInput {
  constructor(
    private readonly s: TabSession,
    private readonly settling: Settling,
    private readonly snapshots: TabSnapshots,
  ) {}

  private need(id: number): Located {
    const r = this.snapshots.locate(id);
    if (!r) throw notFound(id);
    return r;
  }

  private inputWorlds(fs: FrameSession, w: World): WorldRef[] {
    const out = [{ fs, w }];
    const top = this.s.topWorld();
    if (top && top !== w) out.push({ fs: this.s.top, w: top });
    const root = fs.worlds.get(fs.rootFrameId);
    if (root && root !== w && fs !== this.s.top) out.push({ fs, w: root });
    return out;
  }

  /** Scrolls the element into view and returns a hit-testable point in top-level viewport coordinates. */
  private async point(id: number, needEnabled: boolean): Promise<Prepared> {
    const r = this.need(id);
    await this.settling.waitForPaint(this.inputWorlds(r.fs, r.w));
    await revealFrame(this.s, r.fs, r.w.frameId);
    const p = await this.s.call<PreparedPoint>(r.fs, r.w, 'prepare', r.ref.local, { needEnabled });
    if (!p.ok) {
      switch (p.reason) {
        case 'not_found':
          throw notFound(id);
        case 'disabled':
          throw unusable(`Element ID ${id} is disabled.`);
        case 'covered':
          throw unusable(`Element ID ${id} is covered by ${p.cover ?? 'another element'}; close or scroll away what covers it first.`);
        default:
          throw unusable(`Element ID ${id} is not visible (hidden or without a size).`);
      }
    }
    const off = await frameOffset(this.s, r.fs, r.w.frameId);
    if (!off) throw unusable(`Element ID ${id} is inside a frame that is not visible.`);
    return { x: p.x + off.x, y: p.y + off.y, tag: p.tag ?? '' };
  }

  private readonly clickPort: ClickPort = {
    worlds: () => this.s.worlds(),
    call: (fs, w, fn, ...args) => this.s.call(fs, w, fn, ...args),
    frames: async (fs, w) => {
      const expression = 'globalThis.__dp ? __dp.frames() : true';
      // As long as a page gets to load: a background tab renders about once a second, and one that
      // has not painted yet (it drops input until then) may take longer on a busy machine.
      await this.s.send(fs, 'Runtime.evaluate', { expression, uniqueContextId: w.uniqueId, awaitPromise: true, silent: true }, this.s.timings.loadTimeoutMs).catch(() => undefined);
    },
    mouse: async (type, at, button, buttons, clickCount) => {
      await this.s.send(this.s.top, 'Input.dispatchMouseEvent', { type, x: at.x, y: at.y, button, buttons, ...(clickCount ? { clickCount } : {}) });
    },
  };

  /** Clicks element `id` (or the element `local` of its world) where a person would, and makes sure the press reached it. */
  private async clickElement(id: number, r: Located, aim: () => Promise<Prepared>, button: 'left' | 'right', count: number, local = r.ref.local): Promise<void> {
    const res = await verifiedClick(this.clickPort, { fs: r.fs, w: r.w, local }, aim, button, count);
    if (res.kind === 'not_found') throw notFound(id);
    if (res.kind === 'missed') {
      throw unusable(`The click on element ${id} did not reach it: ${res.attempts} tries landed on ${res.landed || 'nothing'} instead; close or scroll away what is there, or take a fresh snapshot.`);
    }
  }

  private async pressCombo(key: string): Promise<void> {
    for (const ev of keyEvents(parseKeyCombo(key))) await this.s.send(this.s.top, 'Input.dispatchKeyEvent', ev as unknown as CdpParams<'Input.dispatchKeyEvent'>);
  }

  async click(id: number, button: 'left' | 'right', count: number, noChangeMs: number): Promise<ActionOutcome> {
    const r = this.need(id);
    const watch = await this.settling.watch();
    await this.clickElement(id, r, () => this.point(id, true), button, count);
    const changed = await this.settling.waitForChange(watch, noChangeMs);
    const what = `${count === 2 ? 'Double-clicked' : button === 'right' ? 'Right-clicked' : 'Clicked'} element ${id}`;
    return this.outcome(changed, watch, `${what}.`);
  }

  async type(id: number, value: string, mode: 'replace' | 'append', submit: boolean, opts: { noChangeMs: number; maskPii: boolean }): Promise<ActionOutcome> {
    const r = this.need(id);
    const facts = await this.s.call<Omit<ElementFacts, 'id'> | null>(r.fs, r.w, 'facts', r.ref.local);
    if (!facts) throw notFound(id);
    const watch = await this.settling.watch();
    // Focus it the way a person would: a click at its centre (unless it already has the focus).
    if (!(await this.s.call<boolean>(r.fs, r.w, 'isFocused', r.ref.local))) await this.clickElement(id, r, () => this.point(id, true), 'left', 1);
    const placed = await this.s.call<string>(r.fs, r.w, 'placeCaret', r.ref.local, mode);
    if (placed === 'not_found') throw notFound(id);
    if (placed === 'not_editable') throw unusable(`Element ID ${id} (<${facts.tag}>) is not a text field.`);
    if (placed === 'disabled') throw unusable(`Element ID ${id} is disabled or read-only.`);
    if (placed !== 'ok') throw unusable(`Element ID ${id} could not be focused.`);
    if (facts.isPassword && value) this.s.secrets.add(value);
    if (value !== '') await this.typeText(value);
    else if (mode === 'replace') await this.pressCombo('Backspace');
    // The value is checked before Enter: a submitted search field is often cleared by the page.
    const state = await this.s.call<{ secret: boolean; length: number; value: string } | null>(r.fs, r.w, 'fieldState', r.ref.local).catch(() => null);
    const mask = (t: string) => (opts.maskPii ? maskPii(t) : t);
    const mismatch = state ? this.valueMismatch(state, value, mode) : null;
    if (mismatch !== null) {
      const changed = await this.settling.waitForChange(watch, Math.min(opts.noChangeMs, 500));
      const typed = facts.isPassword ? `${value.length} characters` : `"${mask(value)}"`;
      const shows = facts.isPassword ? `${mismatch.length} characters` : `"${mask(mismatch)}"`;
      const msg = `Typed ${typed} into element ${id}, but the field now holds ${shows}${submit ? ', so Enter was not pressed' : ''}.`;
      return { ok: false, code: 'action_failed', changed, message: msg };
    }
    if (submit) await this.pressCombo('Enter');
    const changed = await this.settling.waitForChange(watch, opts.noChangeMs);
    let msg: string;
    if (facts.isPassword) msg = `Typed ${value.length} characters into password field ${id}.`;
    else msg = value === '' ? `Cleared element ${id}.` : `Typed "${mask(value)}" into element ${id}.`;
    if (submit) msg += ' Pressed Enter.';
    return this.outcome(changed, watch, msg);
  }

  /** Key presses per character (see typing.ts), into the focused field. */
  private async typeText(value: string): Promise<void> {
    for (const k of keystrokes(value)) {
      if (k.kind === 'insert') await this.s.send(this.s.top, 'Input.insertText', { text: k.text });
      else for (const ev of k.events) await this.s.send(this.s.top, 'Input.dispatchKeyEvent', ev as unknown as CdpParams<'Input.dispatchKeyEvent'>);
    }
  }

  /**
   * What the field holds when it is not what was typed (null when it is). The page script reports a
   * field's text with runs of white space as one space and cut at 300 characters; a password field
   * only by its length. Appending is checked by length only, as the earlier text is not known.
   */
  private valueMismatch(state: { secret: boolean; length: number; value: string }, value: string, mode: 'replace' | 'append'): string | null {
    if (mode === 'append' || state.secret) {
      const ok = mode === 'append' ? state.length >= value.length : state.length === value.length;
      return ok ? null : state.secret ? '•'.repeat(state.length) : state.value;
    }
    const want = value.replace(/\s+/g, ' ').trim();
    const squashed = want.length > 300 ? `${want.slice(0, 299)}\u2026` : want;
    return state.value === squashed ? null : state.value;
  }

  async select(id: number, option: Option, noChangeMs: number): Promise<ActionOutcome> {
    const r = this.need(id);
    const watch = await this.settling.watch();
    const res = await this.s.call<{ status: string; chosen?: string; options?: string[]; total?: number; changed?: boolean }>(r.fs, r.w, 'selectOption', r.ref.local, option);
    const wanted = 'value' in option ? `value "${option.value}"` : 'text' in option ? `"${option.text}"` : `index ${option.index}`;
    switch (res.status) {
      case 'not_found':
        throw notFound(id);
      case 'disabled':
        throw unusable(`Element ID ${id} is disabled.`);
      case 'no_option':
        throw unusable(`Element ID ${id} has no option ${wanted}. Options: ${(res.options ?? []).map((o) => `"${o}"`).join(', ')}${(res.total ?? 0) > 30 ? ' …' : ''}.`);
      case 'option_disabled':
        throw unusable(`Option "${res.chosen}" of element ${id} is disabled.`);
      case 'ok': {
        const changed = await this.settling.waitForChange(watch, noChangeMs);
        const out = this.outcome(changed || res.changed === true, watch, `Selected "${res.chosen}" in element ${id}.`);
        if (!changed && res.changed === false) out.message = `Element ${id} already had "${res.chosen}" selected.`;
        out.output = res.chosen;
        return out;
      }
    }
    return this.selectAria(id, r, option, wanted, watch, noChangeMs);
  }

  private async selectAria(
    id: number,
    r: Located,
    option: Option,
    wanted: string,
    watch: Watch,
    noChangeMs: number,
  ): Promise<ActionOutcome> {
    type Opt = { id: number; text: string; value: string; label: string; visible: boolean };
    const list = () => this.s.call<{ expanded: string | null; role: string; options: Opt[] } | null>(r.fs, r.w, 'ariaOptions', r.ref.local);
    let info = await list();
    if (!info) throw notFound(id);
    if (info.options.length === 0 && !/combobox|listbox|button/.test(info.role) && info.expanded === null) {
      throw unusable(`Element ID ${id} is not a dropdown (<select>, listbox or combobox).`);
    }
    if (info.options.length === 0 || !info.options.some((o) => o.visible)) {
      // A collapsed combobox: open it and wait (bounded) for its options to show.
      await this.clickElement(id, r, () => this.point(id, true), 'left', 1);
      const deadline = Date.now() + Math.min(2000, noChangeMs);
      do {
        await sleep(50);
        info = await list();
        if (!info) throw notFound(id);
      } while (!info.options.some((o) => o.visible) && Date.now() < deadline);
    }
    const opts = info.options;
    const norm = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();
    let pick: Opt | undefined;
    if ('index' in option) pick = opts[option.index];
    else {
      const want = 'value' in option ? option.value : option.text;
      pick =
        opts.find((o) => ('value' in option ? o.value === want : o.text === want)) ??
        opts.find((o) => norm(o.text) === norm(want) || norm(o.value) === norm(want) || norm(o.label) === norm(want)) ??
        opts.find((o) => norm(want) !== '' && norm(o.text).includes(norm(want)));
    }
    if (!pick) throw unusable(`Element ID ${id} has no option ${wanted}. Options: ${opts.slice(0, 30).map((o) => `"${o.text}"`).join(', ')}.`);
    const aimAtOption = async (): Promise<Prepared> => {
      const optPoint = await this.s.call<PreparedPoint>(r.fs, r.w, 'prepare', pick.id, { needEnabled: true });
      if (!optPoint.ok) throw unusable(`Option "${pick.text}" of element ${id} cannot be clicked (${optPoint.reason}).`);
      const off = await frameOffset(this.s, r.fs, r.w.frameId);
      if (!off) throw unusable(`Element ID ${id} is inside a frame that is not visible.`);
      return { x: optPoint.x + off.x, y: optPoint.y + off.y, tag: optPoint.tag ?? '' };
    };
    await this.clickElement(id, r, aimAtOption, 'left', 1, pick.id);
    const changed = await this.settling.waitForChange(watch, noChangeMs);
    const out = this.outcome(changed, watch, `Selected "${pick.text}" in element ${id}.`);
    out.output = pick.text;
    return out;
  }

  async pressKey(key: string, id: number | undefined, noChangeMs: number): Promise<ActionOutcome> {
    try {
      parseKeyCombo(key);
    } catch (e) {
      if (e instanceof KeyParseError) throw new ActionError('invalid_argument', e.message);
      throw e;
    }
    if (id !== undefined) {
      const r = this.need(id);
      await revealFrame(this.s, r.fs, r.w.frameId);
      if (!(await this.s.call<boolean>(r.fs, r.w, 'focus', r.ref.local))) throw notFound(id);
    }
    const top = this.s.topWorld();
    if (top) await this.settling.waitForPaint([{ fs: this.s.top, w: top }]);
    const watch = await this.settling.watch();
    await this.pressCombo(key);
    const changed = await this.settling.waitForChange(watch, noChangeMs);
    return this.outcome(changed, watch, `Pressed ${key}${id !== undefined ? ` in element ${id}` : ''}.`);
  }

  async scroll(direction: 'up' | 'down' | 'top' | 'bottom' | 'toElement', id: number | undefined, amount: number | undefined, noChangeMs: number): Promise<ActionOutcome> {
    if (direction === 'toElement') return this.scrollToElement(id, noChangeMs);
    let target: { fs: FrameSession; w: World; local?: number };
    if (id !== undefined) {
      const r = this.need(id);
      target = { fs: r.fs, w: r.w, local: r.ref.local };
    } else {
      const w = this.s.topWorld() ?? (await this.s.waitForTopWorld(2000));
      if (!w) throw new ActionError('action_failed', 'The page is not ready to scroll yet.');
      target = { fs: this.s.top, w };
    }
    const watch = await this.settling.watch();
    const res = await this.s.call<{ status: string; before: number; after: number; max: number; page: boolean; view: number; what: string }>(
      target.fs,
      target.w,
      'scroll',
      { id: target.local, direction, amount },
    );
    if (res.status === 'not_found') throw notFound(id!);
    const moved = res.after !== res.before;
    const what = res.page ? 'the page' : id !== undefined ? `element ${id}` : res.what;
    const moves = direction === 'top' || direction === 'bottom' ? `to the ${direction}` : direction;
    if (!moved) {
      const edge = direction === 'up' || direction === 'top' ? 'top' : 'bottom';
      return { ok: true, changed: false, message: `Did not scroll ${what}: it is already at the ${edge}${res.max === 0 ? ' (it does not scroll)' : ''}.` };
    }
    // Scrolling can load more content (infinite lists): give it a short settle.
    await this.settling.waitForChange(watch, Math.min(noChangeMs, 500));
    const pos = res.max > 0 ? ` (now at ${res.after} of ${res.max} px)` : '';
    return { ok: true, changed: true, message: `Scrolled ${what} ${moves} by ${Math.abs(res.after - res.before)} px${pos}.` };
  }

  /** Brings element `id` into view (the frame it is in too); lazy content it reveals gets a short settle. */
  private async scrollToElement(id: number | undefined, noChangeMs: number): Promise<ActionOutcome> {
    if (id === undefined) throw new ActionError('invalid_argument', 'scroll toElement needs "id": the number of the element to bring into view.');
    const r = this.need(id);
    const watch = await this.settling.watch();
    const res = await this.s.call<{ status: string; before: number; after: number; inView: boolean }>(r.fs, r.w, 'scrollTo', r.ref.local);
    if (res.status === 'not_found') throw notFound(id);
    await revealFrame(this.s, r.fs, r.w.frameId);
    if (!res.inView) throw unusable(`Element ID ${id} could not be brought into view (it is hidden or has no size).`);
    const changed = await this.settling.waitForChange(watch, Math.min(noChangeMs, 500));
    const moved = res.after !== res.before;
    return { ok: true, changed: changed || moved, message: moved ? `Scrolled element ${id} into view.` : `Element ${id} is in view.` };
  }

  /** What was done; whether the page changed is said by `changed` (the loop words it for the model). */
  private outcome(changed: boolean, w: Watch, message: string): ActionOutcome {
    const nav = this.s.navCount !== w.nav ? ` The page is now ${this.s.url}.` : '';
    return { ok: true, changed, message: `${message}${nav}` };
  }
}

import { world } from './dom';

// contextBridge's two sides, one in each world of a page (the preload's isolated world and the
// page's main world). They share the DOM, so they talk by synchronous DOM events, whose detail
// Chromium structured-clones from one world into the other — the same copy semantics as
// Electron's contextBridge. What cannot be cloned crosses as a reference: a function stays in
// the world that made it and the other side gets a proxy that calls it (synchronously, so a
// function that returns a value returns it at once); a promise is settled later by an event.

export type WorldName = 'main' | 'preload';

export const BRIDGE_EVENTS = {
  /** preload → main: an API to define on the main world's window. */
  expose: 'deskpilot-stand-in:expose',
  /** main → preload: the main world is listening (repeat the exposures it may have missed). */
  hello: 'deskpilot-stand-in:hello',
  call: 'deskpilot-stand-in:call',
  result: 'deskpilot-stand-in:result',
} as const;

type Ref = { __standInFn: number; world: WorldName } | { __standInPromise: number; world: WorldName };
type Outcome = { ok: true; value: unknown } | { ok: false; error: string };

interface CallDetail {
  to: WorldName;
  callId: number;
  fn: number;
  args: unknown[];
}
type ResultDetail = { to: WorldName; callId: number } & ({ sync: Outcome } | { settled: Outcome });

const isPlainObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype;

export class BridgeSide {
  private readonly fns = new Map<number, (...args: unknown[]) => unknown>();
  private readonly promises = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  private readonly syncResults = new Map<number, Outcome | { promise: number }>();
  private seq = 0;
  private readonly other: WorldName;

  constructor(private readonly me: WorldName) {
    this.other = me === 'main' ? 'preload' : 'main';
    world.document.addEventListener(BRIDGE_EVENTS.call, (e) => this.onCall(e.detail as CallDetail));
    world.document.addEventListener(BRIDGE_EVENTS.result, (e) => this.onResult(e.detail as ResultDetail));
  }

  /** A value as it crosses: clonable data as it is, functions and promises as references. */
  encode(v: unknown): unknown {
    if (typeof v === 'function') {
      const id = ++this.seq;
      this.fns.set(id, v as (...args: unknown[]) => unknown);
      return { __standInFn: id, world: this.me } satisfies Ref;
    }
    if (v instanceof Promise) {
      const id = ++this.seq;
      v.then(
        (value) => this.dispatch(BRIDGE_EVENTS.result, { to: this.other, callId: id, settled: { ok: true, value: this.encode(value) } }),
        (e: unknown) => this.dispatch(BRIDGE_EVENTS.result, { to: this.other, callId: id, settled: { ok: false, error: e instanceof Error ? e.message : String(e) } }),
      );
      return { __standInPromise: id, world: this.me } satisfies Ref;
    }
    if (Array.isArray(v)) return v.map((x) => this.encode(x));
    if (isPlainObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, this.encode(x)]));
    return v;
  }

  decode(v: unknown): unknown {
    if (Array.isArray(v)) return v.map((x) => this.decode(x));
    if (!isPlainObject(v)) return v;
    if (typeof v.__standInFn === 'number') {
      const id = v.__standInFn;
      if (v.world === this.me) return this.fns.get(id);
      return (...args: unknown[]) => this.call(id, args);
    }
    if (typeof v.__standInPromise === 'number') {
      const id = v.__standInPromise;
      return new Promise((resolve, reject) => this.promises.set(id, { resolve, reject }));
    }
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, this.decode(x)]));
  }

  /** Calls a function of the other world; its answer comes back before dispatchEvent returns. */
  private call(fn: number, args: unknown[]): unknown {
    const callId = ++this.seq;
    this.dispatch(BRIDGE_EVENTS.call, { to: this.other, callId, fn, args: args.map((a) => this.encode(a)) } satisfies CallDetail);
    const r = this.syncResults.get(callId);
    this.syncResults.delete(callId);
    if (!r) throw new Error('the other world did not answer');
    if ('promise' in r) return new Promise((resolve, reject) => this.promises.set(r.promise, { resolve, reject }));
    if (!r.ok) throw new Error(r.error);
    return this.decode(r.value);
  }

  private onCall(d: CallDetail): void {
    if (d.to !== this.me) return;
    const fn = this.fns.get(d.fn);
    let outcome: Outcome | { promise: number };
    try {
      if (!fn) throw new Error('a function that no longer exists was called');
      const value = fn(...(d.args.map((a) => this.decode(a)) as unknown[]));
      const encoded = this.encode(value);
      outcome = value instanceof Promise ? { promise: (encoded as { __standInPromise: number }).__standInPromise } : { ok: true, value: encoded };
    } catch (e) {
      outcome = { ok: false, error: e instanceof Error ? e.message : String(e) };
    }
    this.dispatch(BRIDGE_EVENTS.result, 'promise' in outcome ? { to: this.other, callId: d.callId, sync: { ok: true, value: { __standInPromise: outcome.promise, world: this.me } } } : { to: this.other, callId: d.callId, sync: outcome });
  }

  private onResult(d: ResultDetail): void {
    if (d.to !== this.me) return;
    if ('sync' in d) {
      const v = d.sync;
      const ref = v.ok && isPlainObject(v.value) && typeof v.value.__standInPromise === 'number' ? v.value.__standInPromise : null;
      this.syncResults.set(d.callId, ref !== null ? { promise: ref } : v);
      return;
    }
    const p = this.promises.get(d.callId);
    if (!p) return;
    this.promises.delete(d.callId);
    if (d.settled.ok) p.resolve(this.decode(d.settled.value));
    else p.reject(new Error(d.settled.error));
  }

  dispatch(type: string, detail: unknown): void {
    world.document.dispatchEvent(new world.CustomEvent(type, { detail }));
  }
}

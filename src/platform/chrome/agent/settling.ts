// Knowing when a page has reacted: a watch taken before an action (the page script's mutation
// counters, navigations, popups, dialogs), waiting for a change after it, then for the page to go
// quiet (load, mutations, XHR/fetch). Also the first-paint wait: Chrome drops input that reaches a
// document before it has painted, and a background tab paints late.

import { CdpTimeoutError, sleep } from '../cdp-connection';
import type { TabSession, WorldRef } from './tab-session';

/** Bound for waiting on a document's first paint before sending it input. */
const PAINT_WAIT_MS = 2000;

/** The page's state before an action, to tell whether it changed. */
export interface Watch {
  counters: Map<string, number>;
  nav: number;
  popups: number;
  dialogs: number;
}

type Counters = Map<string, { n: number; quietMs: number }>;

export class Settling {
  constructor(private readonly s: TabSession) {}

  /** Waits (bounded) until these documents have painted once; false at the deadline. */
  async waitForPaint(worlds: WorldRef[], timeoutMs = PAINT_WAIT_MS): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const done = await Promise.all(worlds.map(({ fs, w }) => this.s.call<boolean>(fs, w, 'painted').catch(() => true)));
      if (done.every(Boolean)) return true;
      if (Date.now() >= deadline) return false;
      await sleep(30);
    }
  }

  async watch(): Promise<Watch> {
    const c = await this.counters();
    return { counters: new Map([...c].map(([k, v]) => [k, v.n])), nav: this.s.navCount, popups: this.s.popups.length, dialogs: this.s.dialogs };
  }

  /** Waits up to `ms` for a DOM change (mutation, input/change event, navigation, new document, dialog, popup), then for the page to settle. */
  async waitForChange(w: Watch, ms: number): Promise<boolean> {
    const s = this.s;
    const deadline = Date.now() + ms;
    for (;;) {
      s.assertAlive();
      let changed = s.navCount !== w.nav || s.popups.length !== w.popups || s.dialogs !== w.dialogs;
      if (!changed) {
        const now = await this.counters();
        for (const [uid, c] of now) {
          const before = w.counters.get(uid);
          if (before === undefined || c.n > before) {
            changed = true;
            break;
          }
        }
        // A watched document that vanished (navigation, iframe removed) is a change too.
        if (!changed) for (const uid of w.counters.keys()) if (!now.has(uid)) changed = true;
      }
      if (changed) {
        await this.settle(s.navCount !== w.nav);
        return true;
      }
      if (Date.now() >= deadline) return false;
      await sleep(Math.min(50, Math.max(1, deadline - Date.now())));
    }
  }

  /** After a change: wait for a navigation's load, then for mutations and XHR/fetch to go quiet (bounded). */
  async settle(navigated: boolean): Promise<void> {
    const s = this.s;
    const t = s.timings;
    if (navigated || s.loading) {
      await s.waitForLoad(t.loadTimeoutMs);
      await s.waitForTopWorld(2000).catch(() => null);
    }
    const deadline = Date.now() + t.settleMaxMs;
    while (Date.now() < deadline) {
      s.assertAlive();
      const c = await this.counters().catch((): Counters => new Map());
      const domQuiet = [...c.values()].every((x) => x.quietMs >= t.quietMs);
      if (domQuiet && s.api.pending(true) === 0 && !s.loading) return;
      await sleep(40);
    }
  }

  private async counters(): Promise<Counters> {
    const out: Counters = new Map();
    await Promise.all(
      this.s.worlds().map(async ({ fs, w }) => {
        try {
          const c = await this.s.call<{ n: number; quietMs: number }>(fs, w, 'changes');
          if (c) out.set(w.uniqueId, c);
        } catch (e) {
          if (e instanceof CdpTimeoutError) throw e;
          // a world that went away: its absence from the next poll is the change
        }
      }),
    );
    return out;
  }
}

// The in-tab commands that are not input to an element: going to a URL, back, forward or
// reloading (a DevTools endpoint refused), waiting (bounded) for text, a navigation or the network
// to go idle, and reading the page's or one element's visible text.

import type { ActionOutcome } from '../../../engine/agent-ports';
import { sleep } from '../cdp-connection';
import { refusalMessage } from '../devtools-guard';
import { ActionError, checkUrl, notFound } from './action-error';
import { maskPii } from './pii';
import type { Settling } from './settling';
import type { TabSession } from './tab-session';
import type { TabSnapshots } from './tab-snapshot';

export class TabNavigation {
  constructor(
    private readonly s: TabSession,
    private readonly settling: Settling,
    private readonly snapshots: TabSnapshots,
  ) {}

  async navigate(to: 'back' | 'forward' | 'reload' | { url: string }, noChangeMs: number): Promise<ActionOutcome> {
    const watch = await this.settling.watch();
    let label: string;
    if (to === 'back' || to === 'forward') {
      const h = await this.s.send(this.s.top, 'Page.getNavigationHistory');
      const entry = h.entries[h.currentIndex + (to === 'back' ? -1 : 1)];
      if (!entry) throw new ActionError('action_failed', `There is no ${to === 'back' ? 'previous' : 'next'} page in this tab's history.`);
      await this.s.send(this.s.top, 'Page.navigateToHistoryEntry', { entryId: entry.id });
      label = to === 'back' ? 'Went back' : 'Went forward';
    } else if (to === 'reload') {
      await this.s.send(this.s.top, 'Page.reload', {});
      label = 'Reloaded the page';
    } else {
      const url = checkUrl(to.url, this.s.url);
      const refusal = await this.s.guard.refusal(url);
      if (refusal) throw new ActionError('url_refused', `${refusalMessage(refusal)}.`);
      this.s.refusedNavigation = null;
      const r = await this.s.send(this.s.top, 'Page.navigate', { url }, this.s.timings.loadTimeoutMs);
      if (r.errorText && this.s.refusedNavigation) throw new ActionError('url_refused', `${refusalMessage(this.s.refusedNavigation, url)}.`);
      if (r.errorText) throw new ActionError('action_failed', `Failed to open URL "${url}". ${r.errorText}`);
      label = 'Navigated';
    }
    const waitMs = Math.max(noChangeMs, this.s.timings.loadTimeoutMs);
    const deadline = Date.now() + waitMs;
    while (this.s.navCount === watch.nav && Date.now() < deadline) {
      this.s.assertAlive();
      await sleep(20);
    }
    if (this.s.navCount === watch.nav) return { ok: false, code: 'timed_out', changed: false, message: `${label}, but the page did not change within ${Math.round(waitMs / 1000)} seconds.` };
    await this.settling.settle(true);
    return { ok: true, changed: true, message: `${label}: now at ${this.s.url}.` };
  }

  async waitFor(condition: { text: string } | { selector: string } | 'navigation' | 'network_idle', timeoutMs: number): Promise<ActionOutcome> {
    const deadline = Date.now() + timeoutMs;
    const secs = `${Math.round(timeoutMs / 100) / 10} seconds`;
    if (condition === 'navigation') {
      const nav = this.s.navCount;
      while (this.s.navCount === nav) {
        this.s.assertAlive();
        if (Date.now() > deadline) return { ok: false, code: 'timed_out', changed: false, message: `No navigation within ${secs}.` };
        await sleep(25);
      }
      await this.settling.settle(true);
      return { ok: true, changed: true, message: `The page navigated to ${this.s.url}.` };
    }
    if (condition === 'network_idle') {
      const IDLE_MS = 500;
      while (!(this.s.api.pending(false) === 0 && this.s.api.quietMs() >= IDLE_MS && !this.s.loading)) {
        this.s.assertAlive();
        if (Date.now() > deadline) return { ok: false, code: 'timed_out', changed: false, message: `The network did not go idle within ${secs} (${this.s.api.pending(false)} requests still pending).` };
        await sleep(50);
      }
      return { ok: true, changed: false, message: 'The network is idle.' };
    }
    if ('selector' in condition) return this.waitForSelector(condition.selector, deadline, secs);
    const text = condition.text;
    for (;;) {
      this.s.assertAlive();
      const found = await Promise.all(
        this.s.worlds().map(({ fs, w }) => this.s.call<boolean>(fs, w, 'hasText', text).catch(() => false)),
      );
      if (found.some(Boolean)) return { ok: true, changed: false, message: `The text "${text}" is on the page.` };
      if (Date.now() > deadline) return { ok: false, code: 'timed_out', changed: false, message: `The text "${text}" did not appear within ${secs}.` };
      await sleep(100);
    }
  }

  private async waitForSelector(selector: string, deadline: number, secs: string): Promise<ActionOutcome> {
    for (;;) {
      this.s.assertAlive();
      const found = await Promise.all(this.s.worlds().map(({ fs, w }) => this.s.call<string>(fs, w, 'hasSelector', selector).catch(() => 'missing')));
      if (found.includes('found')) return { ok: true, changed: false, message: `An element matching "${selector}" is visible.` };
      if (found.length > 0 && found.every((f) => f === 'invalid')) throw new ActionError('invalid_argument', `"${selector}" is not a valid CSS selector.`);
      if (Date.now() > deadline) return { ok: false, code: 'timed_out', changed: false, message: `No visible element matched "${selector}" within ${secs}.` };
      await sleep(100);
    }
  }

  /** The HTML of an element or of the page's top document, cut at `maxChars`; PII masked when asked (secrets are redacted by the loop). */
  async readHtml(id: number | undefined, maxChars: number, mask: boolean): Promise<ActionOutcome> {
    let res: { html: string; total: number } | null;
    if (id !== undefined) {
      const r = this.snapshots.locate(id);
      if (!r) throw notFound(id);
      res = await this.s.call<{ html: string; total: number } | null>(r.fs, r.w, 'html', { id: r.ref.local, max: maxChars });
    } else {
      const w = this.s.topWorld() ?? (await this.s.waitForTopWorld(2000));
      if (!w) throw new ActionError('action_failed', 'The page is not ready to read yet.');
      res = await this.s.call<{ html: string; total: number } | null>(this.s.top, w, 'html', { max: maxChars });
    }
    if (!res) throw notFound(id!);
    const cut = res.total > maxChars;
    const html = mask ? maskPii(res.html) : res.html;
    return {
      ok: true,
      changed: false,
      message: `Read ${Math.min(res.total, maxChars)} characters of the HTML of ${id !== undefined ? `element ${id}` : 'the page'}${cut ? ` (of ${res.total}; cut)` : ''}.`,
      output: cut ? `${html}\n… (cut: ${maxChars} of ${res.total} characters)` : html,
    };
  }

  async readPage(id: number | undefined, maxChars: number): Promise<ActionOutcome> {
    let text: string;
    if (id !== undefined) {
      const r = this.snapshots.locate(id);
      if (!r) throw notFound(id);
      const res = await this.s.call<{ text: string } | null>(r.fs, r.w, 'text', { id: r.ref.local });
      if (!res) throw notFound(id);
      text = res.text;
    } else {
      const parts: string[] = [];
      for (const { fs, w } of this.s.worlds()) {
        const res = await this.s.call<{ text: string } | null>(fs, w, 'text', {}).catch(() => null);
        if (!res || !res.text) continue;
        const isTop = fs === this.s.top && w.frameId === fs.rootFrameId;
        parts.push(isTop ? res.text : `--- frame ---\n${res.text}`);
      }
      text = parts.join('\n\n');
    }
    const total = text.length;
    if (total > maxChars) text = `${text.slice(0, maxChars)}\n… (cut: ${maxChars} of ${total} characters)`;
    return {
      ok: true,
      changed: false,
      message: `Read ${Math.min(total, maxChars)} characters of ${id !== undefined ? `element ${id}` : 'page'} text${total > maxChars ? ` (of ${total})` : ''}.`,
      output: text,
    };
  }
}

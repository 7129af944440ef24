import type { AgentBrowser, PageSnapshot } from '../agent-ports';
import { errorMessage } from '../errors';
import { framedSnapshot } from './prompts';
import { domainProblem, type DomainPolicy, type Secrets } from './safety';

// The target tabs of one agent run: the tabs the agent opened and still controls, numbered for
// the model (never reused within a run), the current one, their latest snapshots, and the
// tab limit (3 by default) — opening past it releases the oldest (left open for the person, no longer a target).

export interface Target {
  /** The number the model uses (switch_tab / close_tab); never reused within a run. */
  n: number;
  targetId: string;
  url: string;
  snapshot: PageSnapshot | null;
  /** The element last typed into or clicked: where a bare Enter goes. */
  lastFocused: number | null;
  /** The person's own tab the run started on (closing it asks first); false for tabs the agent opened. */
  theirs: boolean;
}

export interface TargetTabsDeps {
  browser: AgentBrowser;
  limit: number;
  /** Snapshot budget of the current tab; the others get a quarter (at least 1000). */
  snapshotChars: number;
  maskPii: boolean;
  policy: DomainPolicy;
  secrets: Secrets;
  /** A target tab that could not be read after an action (the run goes on without its snapshot). */
  unreadable(t: Target, error: string): void;
}

export class TargetTabs {
  private readonly targets: Target[] = [];
  private currentTab: Target | null = null;
  private nextNumber = 1;

  constructor(private readonly d: TargetTabsDeps) {}

  get current(): Target | null {
    return this.currentTab;
  }

  /** Every target tab, oldest first. */
  get all(): readonly Target[] {
    return this.targets;
  }

  get isEmpty(): boolean {
    return this.targets.length === 0;
  }

  find(n: number): Target | undefined {
    return this.targets.find((t) => t.n === n);
  }

  /** A tab the agent just opened becomes the current target; returns the tabs released past the limit. */
  add(targetId: string, url: string, theirs = false): { target: Target; released: Target[] } {
    const target: Target = { n: this.nextNumber++, targetId, url, snapshot: null, lastFocused: null, theirs };
    this.targets.push(target);
    this.currentTab = target;
    const released: Target[] = [];
    while (this.targets.length > this.d.limit) released.push(this.targets.shift()!);
    return { target, released };
  }

  switchTo(t: Target): void {
    this.currentTab = t;
  }

  /** A closed tab is no target any more; the newest remaining one becomes current if it was. */
  remove(t: Target): void {
    this.targets.splice(this.targets.indexOf(t), 1);
    if (this.currentTab === t) this.currentTab = this.targets.at(-1) ?? null;
  }

  /** "Target tabs: 1 (current) https://…; 2 https://…." — or null when there is none. */
  list(): string | null {
    if (this.targets.length === 0) return null;
    return `Target tabs: ${this.targets.map((t) => `${t.n}${t === this.currentTab ? ' (current)' : ''} ${this.d.secrets.redact(t.url)}`).join('; ')}.`;
  }

  /** `list()` for messages that always name the tabs. */
  listText(): string {
    return this.list() ?? 'No target tabs are open.';
  }

  /**
   * Fresh snapshots of every target tab after an action. A tab on a domain the rules refuse
   * ends the run: returns why, and that page is never shown to the model.
   */
  async refresh(): Promise<string | null> {
    for (const t of [...this.targets]) {
      const maxChars = t === this.currentTab ? this.d.snapshotChars : Math.max(1_000, Math.floor(this.d.snapshotChars / 4));
      try {
        t.snapshot = await this.d.browser.snapshot(t.targetId, { maxChars, maskPii: this.d.maskPii });
        t.url = t.snapshot.url;
      } catch (e) {
        t.snapshot = null;
        this.d.unreadable(t, errorMessage(e));
      }
      const problem = domainProblem(t.url, this.d.policy);
      if (problem) {
        t.snapshot = null;
        return `tab ${t.n} went to ${this.d.secrets.redact(t.url)}, and ${problem}; the run was stopped there`;
      }
    }
    return null;
  }

  /** The target tabs' latest snapshots, current first, redacted and framed as page data. */
  forModel(): PageSnapshot[] {
    const current = this.currentTab;
    const ordered = current ? [current, ...this.targets.filter((t) => t !== current)] : [...this.targets];
    const out: PageSnapshot[] = [];
    for (const t of ordered) {
      if (!t.snapshot) continue;
      const s = t.snapshot;
      const redact = (text: string) => this.d.secrets.redact(text);
      const url = redact(s.url);
      const title = redact(s.title);
      out.push({ ...s, url, title, text: framedSnapshot(t.n, t === current, url, title, redact(s.text)) });
    }
    return out;
  }
}

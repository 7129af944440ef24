// One tab under agent control, as CdpAgentBrowser sees it: a thin façade over its collaborators,
// each handed the tab's CDP session (tab-session.ts) — the snapshots and element numbers
// (tab-snapshot.ts), settling after an action (settling.ts), input to elements (tab-input.ts) and
// the other in-tab commands (tab-navigation.ts). It turns what goes wrong inside an action into
// the action's typed outcome.

import type { ActionOutcome, ElementFacts, InTabCommand } from '../../../engine/agent-ports';
import { TabGoneError, errorMessage } from '../../../engine/errors';
import { CdpTimeoutError, type CdpConnection } from '../cdp-connection';
import type { DevtoolsGuard } from '../devtools-guard';
import { ActionError } from './action-error';
import { maskPii, removeSecrets } from './pii';
import { Settling } from './settling';
import { TabInput } from './tab-input';
import { TabNavigation } from './tab-navigation';
import { TabSession, WorldGone, type TabTimings } from './tab-session';
import { TabSnapshots, type TimedSnapshot } from './tab-snapshot';

export { DEFAULT_TIMINGS, type TabTimings } from './tab-session';

type ActOptions = { noChangeMs: number; maskPii: boolean };

export class AgentTab {
  readonly session: TabSession;
  private readonly settling: Settling;
  private readonly snapshots: TabSnapshots;
  private readonly input: TabInput;
  private readonly navigation: TabNavigation;

  constructor(conn: CdpConnection, targetId: string, sessionId: string, timings: TabTimings, guard: DevtoolsGuard) {
    this.session = new TabSession(conn, targetId, sessionId, timings, guard);
    this.settling = new Settling(this.session);
    this.snapshots = new TabSnapshots(this.session);
    this.input = new TabInput(this.session, this.settling, this.snapshots);
    this.navigation = new TabNavigation(this.session, this.settling, this.snapshots);
  }

  get targetId(): string {
    return this.session.targetId;
  }

  get gone(): boolean {
    return this.session.gone;
  }

  /** After a load: waits (bounded) for our world in the page and its first paint, so input is not dropped. */
  async ready(): Promise<void> {
    const s = this.session;
    await s.waitForLoad(s.timings.loadTimeoutMs);
    const w = await s.waitForTopWorld(2000);
    if (w) await this.settling.waitForPaint([{ fs: s.top, w }]).catch(() => false);
  }

  snapshot(opts: { maxChars: number; maskPii: boolean }): Promise<TimedSnapshot> {
    return this.snapshots.take(opts);
  }

  element(id: number): Promise<ElementFacts | null> {
    return this.snapshots.facts(id);
  }

  async perform(cmd: InTabCommand, opts: ActOptions): Promise<ActionOutcome> {
    const s = this.session;
    s.assertAlive();
    s.beginAction();
    try {
      const out = await this.dispatch(cmd, opts);
      // What the page did meanwhile on its own (a dialog, a popup, a blocked request) belongs to the outcome.
      const meanwhile = s.takeActionNotices();
      if (meanwhile.length > 0) out.message += ` ${meanwhile.join(' ')}`;
      out.message = removeSecrets(out.message, s.secrets);
      if (out.output !== undefined) out.output = removeSecrets(opts.maskPii ? maskPii(out.output) : out.output, s.secrets);
      return out;
    } catch (e) {
      if (s.gone || e instanceof TabGoneError) throw new TabGoneError(s.targetId);
      if (e instanceof ActionError) return { ok: false, code: e.code, changed: false, message: e.message };
      if (e instanceof WorldGone) return { ok: false, code: 'page_changed', changed: false, message: 'The page changed while acting (its document went away); take a fresh snapshot.' };
      if (e instanceof CdpTimeoutError) return { ok: false, code: 'timed_out', changed: false, message: `The page did not respond within ${e.timeoutMs / 1000} seconds (${e.method}).` };
      if (/websocket|not open|disconnected/i.test(errorMessage(e))) throw e;
      return { ok: false, code: 'action_failed', changed: false, message: `The action failed: ${errorMessage(e)}` };
    }
  }

  private dispatch(cmd: InTabCommand, opts: ActOptions): Promise<ActionOutcome> {
    switch (cmd.action) {
      case 'click':
        return this.input.click(cmd.id, cmd.button ?? 'left', cmd.count ?? 1, opts.noChangeMs);
      case 'type':
        return this.input.type(cmd.id, cmd.value, cmd.mode ?? 'replace', cmd.submit === true, opts);
      case 'select':
        return this.input.select(cmd.id, cmd.option, opts.noChangeMs);
      case 'press_key':
        return this.input.pressKey(cmd.key, cmd.id, opts.noChangeMs);
      case 'scroll':
        return this.input.scroll(cmd.direction, cmd.id, cmd.amount, opts.noChangeMs);
      case 'navigate':
        return this.navigation.navigate(cmd.to, opts.noChangeMs);
      case 'wait_for':
        return this.navigation.waitFor(cmd.condition, cmd.timeout_ms ?? 10_000);
      case 'read_page':
        return this.navigation.readPage(cmd.id, cmd.max_chars ?? 4000);
      case 'get_html':
        return this.navigation.readHtml(cmd.id, cmd.max_chars ?? 8000, opts.maskPii);
    }
  }
}

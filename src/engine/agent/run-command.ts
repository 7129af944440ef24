import type { AgentTool, PageCommand } from '../../protocol/agent';
import type { ErrorCode, NoticeCode } from '../../protocol/codes';
import type { ActionOutcome, AgentBrowser, InTabCommand } from '../agent-ports';
import { DeskPilotError, errorMessage } from '../errors';
import { normalizeUrl } from '../normalize-url';
import { plural } from '../words';
import { freshSnapshotText, noChangeText, tabReleasedText } from './prompts';
import { domainProblem, hostOf, type DomainPolicy, type Secrets } from './safety';
import { tabListing } from './tab-listing';
import type { Target, TargetTabs } from './target-tabs';
import type { AgentStatus } from './types';

// One page command, checked and carried out: tab commands on the target tabs, in-tab commands
// through the AgentBrowser after the safety rules (domains, secrets, the questions before typing
// a password or submitting a payment form). Every failure is a typed outcome the model hears
// about; nothing here throws for a command that merely did not work.

/** Set when the run ends with this command (done, or a page on a refused domain). */
export interface Ending {
  status: AgentStatus;
  reason: string | null;
  answer?: string;
}

export interface Executed {
  ok: boolean;
  /** Why it failed; null when it worked. */
  code: ErrorCode | null;
  /** What happened, in plain words (redacted). */
  message: string;
  /** Page text the command read, kept apart from the message (for clipping, and framed as data for the model). */
  data?: { attrs: Record<string, string | number>; body: string };
  /** The target tab number the command acted on, when it acted inside a tab. */
  tab: number | null;
  /** It typed into a password field: its value is never shown. */
  intoPassword: boolean;
  end?: Ending;
}

export interface CommandRunnerDeps {
  browser: AgentBrowser;
  tabs: TargetTabs;
  tools: readonly AgentTool[];
  secrets: Secrets;
  policy: DomainPolicy;
  tabLimit: number;
  noChangeMs: number;
  maskPii: boolean;
  /** A safety question for the person (already bound to Stop). */
  confirm(question: string): Promise<boolean>;
  notice(code: NoticeCode, text: string): void;
}

const isEnter = (key: string) => /(^|\+)(enter|return)$/i.test(key.trim());
/** Actions after which no DOM change (within noChangeMs, 15 s by default) is worth telling the model. */
const EXPECTS_CHANGE = new Set<PageCommand['action']>(['click', 'type', 'select', 'press_key', 'navigate']);
const codeOf = (e: unknown, fallback: ErrorCode): ErrorCode => (e instanceof DeskPilotError ? e.code : fallback);

/** What the safety check found before acting on an element. */
interface Gate {
  refusal: { code: ErrorCode; message: string } | null;
  intoPassword: boolean;
}

export class CommandRunner {
  constructor(private readonly d: CommandRunnerDeps) {}

  async run(cmd: PageCommand): Promise<Executed> {
    const { tabs, secrets } = this.d;
    switch (cmd.action) {
      case 'done':
        return { ok: true, code: null, message: 'Done.', tab: null, intoPassword: false, end: { status: 'done', reason: null, answer: secrets.redact(cmd.answer) } };
      case 'open_tab':
        return this.open(cmd.url, null);
      case 'open_tool': {
        const wanted = cmd.name.trim().toLowerCase();
        const tool = this.d.tools.find((t) => t.name.trim().toLowerCase() === wanted);
        if (!tool) {
          const names = this.d.tools.map((t) => `"${t.name}"`).join(', ');
          return this.failed('unknown_tool', `Tool "${cmd.name}" not found. Available tools: ${names || 'none'}`);
        }
        return this.open(tool.url, tool.name);
      }
      case 'switch_tab': {
        const t = tabs.find(cmd.tab);
        if (!t) return this.failed('unknown_tab', `Tab ${cmd.tab} is not a target tab. ${tabs.listText()}`);
        tabs.switchTo(t);
        return this.done(`Switched to tab ${t.n} (${secrets.redact(t.url)}).`, t.n, await this.refresh());
      }
      case 'close_tab': {
        const t = tabs.find(cmd.tab);
        if (!t) return this.failed('unknown_tab', `Tab ${cmd.tab} is not a target tab. ${tabs.listText()}`);
        // The person's own tab (the run started on it) is theirs to close: asked like the other safety questions.
        if (t.theirs) {
          const q = `close your tab ${secrets.redact(t.url)} (tab ${t.n}; the agent did not open it)`;
          if (!(await this.d.confirm(`${q[0]!.toUpperCase()}${q.slice(1)}?`))) {
            return this.failed('declined', `The user declined: ${q}. Do not try it again; choose another way, or finish with done.`, t.n);
          }
        }
        try {
          await this.d.browser.closeTab(t.targetId);
        } catch (e) {
          return this.failed(codeOf(e, 'action_failed'), `Could not close tab ${t.n}: ${errorMessage(e)}`, t.n);
        }
        tabs.remove(t);
        const end = await this.refresh();
        return this.done(`Closed tab ${t.n} (${secrets.redact(t.url)}). ${tabs.listText()}`, t.n, end);
      }
      case 'list_tabs':
        return this.listTabs();
      default:
        return this.inTab(cmd);
    }
  }

  /** The tabs open in the browser, the person's read-only; titles and URLs are page data. */
  private async listTabs(): Promise<Executed> {
    const { tabs } = this.d;
    let open;
    try {
      open = await this.d.browser.listTabs({ maskPii: this.d.maskPii });
    } catch (e) {
      return this.failed(codeOf(e, 'action_failed'), `Could not list the tabs: ${errorMessage(e)}`);
    }
    const body = tabListing({ targets: tabs.all, current: tabs.current, open, policy: this.d.policy, secrets: this.d.secrets });
    const others = open.filter((o) => !tabs.all.some((t) => t.targetId === o.targetId)).length;
    return {
      ok: true,
      code: null,
      message: `Listed ${plural(tabs.all.length, 'target tab')} and ${plural(others, 'other tab')}.`,
      data: { attrs: { source: 'list_tabs' }, body },
      tab: null,
      intoPassword: false,
    };
  }

  private failed(code: ErrorCode, message: string, tab: number | null = null): Executed {
    return { ok: false, code, message: this.d.secrets.redact(message), tab, intoPassword: false };
  }

  private done(message: string, tab: number, end: Ending | null): Executed {
    return { ok: true, code: null, message, tab, intoPassword: false, ...(end ? { end } : {}) };
  }

  private async refresh(): Promise<Ending | null> {
    const refused = await this.d.tabs.refresh();
    return refused ? { status: 'refused', reason: refused } : null;
  }

  private async open(url: string, toolName: string | null): Promise<Executed> {
    const { secrets } = this.d;
    const norm = normalizeUrl(url);
    if (!norm.ok) return this.failed('url_refused', `Failed to open URL "${url}": it ${norm.reason}.`);
    const problem = domainProblem(norm.url, this.d.policy);
    if (problem) return this.failed('navigation_refused', `Refused to open "${norm.url}": ${problem}. Choose another site.`);
    let opened: { targetId: string };
    try {
      opened = await this.d.browser.openTab(norm.url);
    } catch (e) {
      return this.failed(codeOf(e, 'action_failed'), `Failed to open URL "${norm.url}". ${errorMessage(e)}`);
    }
    const { target, released } = this.d.tabs.add(opened.targetId, norm.url);
    for (const oldest of released) this.d.notice('tab_released', tabReleasedText(this.d.tabLimit, secrets.redact(oldest.url)));
    const end = await this.refresh();
    const via = toolName ? ` (tool "${toolName}")` : '';
    return this.done(`Opened tab ${target.n}${via}: ${secrets.redact(target.url)}`, target.n, end);
  }

  private async inTab(cmd: InTabCommand): Promise<Executed> {
    const { secrets } = this.d;
    const t = this.d.tabs.current;
    if (!t) return this.failed('unknown_tab', 'No tab is open yet: open one with open_tab or open_tool first.');

    let real: InTabCommand = cmd;
    if (cmd.action === 'navigate' && typeof cmd.to === 'object') {
      const norm = normalizeUrl(cmd.to.url);
      if (!norm.ok) return this.failed('url_refused', `Failed to open URL "${cmd.to.url}": it ${norm.reason}.`, t.n);
      const problem = domainProblem(norm.url, this.d.policy);
      if (problem) return this.failed('navigation_refused', `Refused to navigate to "${norm.url}": ${problem}. Choose another site.`, t.n);
      real = { ...cmd, to: { url: norm.url } };
    }

    // Secrets are put in here, for the browser only; the model's command keeps the placeholders.
    if (cmd.action === 'type' && secrets.uses(cmd.value)) {
      const filled = secrets.substitute(cmd.value);
      if (!filled.ok) return this.failed('unknown_secret', filled.error, t.n);
      real = { ...cmd, value: filled.text };
    }

    const gate = await this.gate(t, cmd);
    if (gate.refusal) {
      const refused = { ...this.failed(gate.refusal.code, gate.refusal.message, t.n), intoPassword: gate.intoPassword };
      if (gate.refusal.code === 'element_not_found') {
        const end = await this.refresh();
        if (end) return { ...refused, end };
        this.d.notice('fresh_snapshot', freshSnapshotText(t.n));
      }
      return refused;
    }

    let outcome: ActionOutcome;
    try {
      outcome = await this.d.browser.perform(t.targetId, real, { noChangeMs: this.d.noChangeMs, maskPii: this.d.maskPii });
    } catch (e) {
      outcome = { ok: false, code: codeOf(e, 'action_failed'), message: errorMessage(e), changed: false };
    }
    if (outcome.ok && 'id' in cmd && cmd.id !== undefined && (cmd.action === 'type' || cmd.action === 'click' || cmd.action === 'press_key' || cmd.action === 'select')) {
      t.lastFocused = cmd.id;
    }
    const expectsChange = EXPECTS_CHANGE.has(cmd.action);
    if (outcome.ok && !outcome.changed && expectsChange) this.d.notice('no_change', noChangeText(this.d.noChangeMs));

    const end = await this.refresh();
    if (!outcome.ok && outcome.code === 'element_not_found') this.d.notice('fresh_snapshot', freshSnapshotText(t.n));
    const data = outcome.output ? { attrs: { tab: t.n, source: cmd.action }, body: secrets.redact(outcome.output) } : undefined;
    return {
      ok: outcome.ok,
      code: outcome.ok ? null : outcome.code,
      message: secrets.redact(outcome.message),
      tab: t.n,
      intoPassword: gate.intoPassword,
      ...(data ? { data } : {}),
      ...(end ? { end } : {}),
    };
  }

  /**
   * The safety prompts before acting on an element: typing into a password field, typing a
   * secret into anything else, submitting a payment form. A refusal is what to tell the model.
   */
  private async gate(t: Target, cmd: InTabCommand): Promise<Gate> {
    const pass: Gate = { refusal: null, intoPassword: false };
    const enter = cmd.action === 'press_key' && isEnter(cmd.key);
    if (cmd.action !== 'type' && cmd.action !== 'click' && !enter) return pass;
    const explicit = 'id' in cmd && cmd.id !== undefined ? cmd.id : null;
    // A bare Enter goes to whatever has focus: the element last typed into or clicked.
    const id = explicit ?? (enter ? t.lastFocused : null);
    if (id === null) return pass;

    let facts;
    try {
      facts = await this.d.browser.element(t.targetId, id);
    } catch (e) {
      return { ...pass, refusal: { code: codeOf(e, 'action_failed'), message: `Could not check element ${id} before acting on it: ${errorMessage(e)}` } };
    }
    if (facts === null) {
      if (explicit === null) return pass; // the focused element went away; Enter goes nowhere special
      return { ...pass, refusal: { code: 'element_not_found', message: `Element ID ${id} not found.` } };
    }
    const intoPassword = cmd.action === 'type' && facts.isPassword;
    const where = hostOf(t.url) ?? t.url;
    const questions: string[] = [];
    if (intoPassword) questions.push(`type into the password field (element ${id}) on ${where}`);
    // A secret typed anywhere but a password field is what a page's injected text would aim for.
    const secretsUsed = cmd.action === 'type' ? this.d.secrets.namesIn(cmd.value) : [];
    if (secretsUsed.length && !facts.isPassword) {
      questions.push(`type the secret ${secretsUsed.join(', ')} into element ${id} (${facts.tag}, not a password field) on ${where}`);
    }
    const submits = (cmd.action === 'type' && cmd.submit === true) || cmd.action === 'click' || enter;
    if (submits && facts.inPaymentForm && facts.submitsForm) questions.push(`submit the payment form (element ${id}) on ${where}`);
    for (const q of questions) {
      if (!(await this.d.confirm(`${q[0]!.toUpperCase()}${q.slice(1)}?`))) {
        return { intoPassword, refusal: { code: 'declined', message: `The user declined: ${q}. Do not try it again; choose another way, or finish with done.` } };
      }
    }
    return { intoPassword, refusal: null };
  }
}

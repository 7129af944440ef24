import type {
  AgentBrowser,
  AgentModels,
  ElementFacts,
  ExecutorRequest,
  InTabCommand,
  PageSnapshot,
  PlannerPage,
} from '../../src/engine/agent-ports';
import type { AgentEvent } from '../../src/engine/agent';
import type { ErrorCode } from '../../src/protocol/codes';

// An in-memory AgentBrowser and scripted models for the agent loop's own logic. Pages are
// plain objects: a title, the snapshot lines, the facts of their elements, and what an
// action does (change the page, navigate, fail). Everything the loop asks for is recorded.

export interface FakeTab {
  targetId: string;
  url: string;
  /** Free state for pages (e.g. typed values shown in the next snapshot). */
  state: Record<string, string>;
}

export interface FakePage {
  title?: string;
  /** The snapshot's element lines (the <browsing_context> format), or a function of the tab's state. */
  body: string | ((tab: FakeTab) => string);
  elements?: Record<number, Partial<ElementFacts>>;
  /** What an action does; return nothing for the default "ok, the page changed" (a failure without a code is action_failed). */
  perform?: (cmd: InTabCommand, tab: FakeTab) => Partial<{ ok: boolean; code: ErrorCode; message: string; changed: boolean; output: string }> | void;
}

export interface ScriptedBrowser extends AgentBrowser {
  tabs: Map<string, FakeTab>;
  opened: string[];
  closed: string[];
  performed: Array<{ targetId: string; cmd: InTabCommand }>;
  snapshotCalls: Array<{ targetId: string; maxChars: number }>;
  elementCalls: number[];
  screenshotCalls: string[];
  disposed: boolean;
  /** What currentTab() answers: a tab of `tabs` (add it with userTab), or null. */
  current: string | null;
  /** A tab the person opened (not counted in `opened`). */
  userTab(url: string): string;
}

const NOT_FOUND_PAGE: FakePage = { title: 'Not found', body: '' };

export function scriptedBrowser(pages: Record<string, FakePage>): ScriptedBrowser {
  let next = 1;
  const b: ScriptedBrowser = {
    tabs: new Map(),
    opened: [],
    closed: [],
    performed: [],
    snapshotCalls: [],
    elementCalls: [],
    screenshotCalls: [],
    disposed: false,
    current: null,
    userTab(url) {
      const targetId = `U${next++}`;
      b.tabs.set(targetId, { targetId, url, state: {} });
      return targetId;
    },
    async currentTab() {
      const t = b.current ? b.tabs.get(b.current) : undefined;
      if (!t) return { tab: null, why: 'no Chrome window shows a tab' };
      return { tab: { targetId: t.targetId, url: t.url, title: pages[t.url]?.title ?? '' } };
    },
    async screenshot(targetId, opts) {
      b.screenshotCalls.push(targetId);
      return { mimeType: 'image/jpeg', data: new Uint8Array([0xff, 0xd8, 0xff, 0xd9]), width: opts.maxWidth, height: 1 };
    },
    async openTab(url) {
      const targetId = `T${next++}`;
      b.opened.push(url);
      b.tabs.set(targetId, { targetId, url, state: {} });
      return { targetId };
    },
    async closeTab(targetId) {
      b.closed.push(targetId);
      b.tabs.delete(targetId);
    },
    async listTabs() {
      return [...b.tabs.values()].map((t) => ({ targetId: t.targetId, url: t.url, title: pages[t.url]?.title ?? '' }));
    },
    async snapshot(targetId, opts): Promise<PageSnapshot> {
      b.snapshotCalls.push({ targetId, maxChars: opts.maxChars });
      const tab = b.tabs.get(targetId);
      if (!tab) throw new Error(`no tab ${targetId}`);
      const page = pages[tab.url] ?? NOT_FOUND_PAGE;
      const body = typeof page.body === 'function' ? page.body(tab) : page.body;
      const text = `<browsing_context>\nURL: ${tab.url}\n\nInteractive Elements:\n${body}\n</browsing_context>`;
      return { targetId, url: tab.url, title: page.title ?? '', text, elementCount: Object.keys(page.elements ?? {}).length, newIds: [], truncated: false };
    },
    async element(targetId, id) {
      b.elementCalls.push(id);
      const tab = b.tabs.get(targetId)!;
      const facts = (pages[tab.url] ?? NOT_FOUND_PAGE).elements?.[id];
      if (!facts) return null;
      return { id, tag: 'input', type: 'text', isPassword: false, inPaymentForm: false, submitsForm: false, ...facts };
    },
    async perform(targetId, cmd) {
      b.performed.push({ targetId, cmd });
      const tab = b.tabs.get(targetId)!;
      const page = pages[tab.url] ?? NOT_FOUND_PAGE;
      const id = 'id' in cmd ? cmd.id : undefined;
      if (id !== undefined && !page.elements?.[id]) return { ok: false, code: 'element_not_found', message: `Element ID ${id} not found.`, changed: false };
      if (cmd.action === 'navigate' && typeof cmd.to === 'object') tab.url = cmd.to.url;
      const { ok = true, code = 'action_failed', ...words } = page.perform?.(cmd, tab) ?? {};
      const outcome = { message: `${cmd.action} done.`, changed: true, ...words };
      return ok ? { ok, ...outcome } : { ok, code, ...outcome };
    },
    async dispose() {
      b.disposed = true;
    },
  };
  return b;
}

export type ExecutorAnswer = string | object | ((req: ExecutorRequest) => string | object | Promise<string | object>);

export interface ScriptedModels extends AgentModels {
  planRequests: Array<{ goal: string; context: string; page?: PlannerPage }>;
  nextRequests: ExecutorRequest[];
}

/** Plans and executor answers in order; an object answer is sent as its JSON text. */
export function scriptedModels(plans: unknown[], answers: ExecutorAnswer[]): ScriptedModels {
  const planQueue = [...plans];
  const queue = [...answers];
  const m: ScriptedModels = {
    planRequests: [],
    nextRequests: [],
    async plan(req) {
      m.planRequests.push({ goal: req.goal, context: req.context, ...(req.page ? { page: req.page } : {}) });
      const p = planQueue.shift();
      if (p === undefined) throw new Error('scripted planner: no plan left');
      if (p instanceof Error) throw p;
      return { plan: p, raw: JSON.stringify(p), usage: { prompt_tokens: 10, completion_tokens: 5 } };
    },
    async next(req) {
      // Copies: the loop may reuse arrays between turns.
      m.nextRequests.push(structuredClone({ ...req, signal: undefined }) as ExecutorRequest);
      const a = queue.shift();
      if (a === undefined) throw new Error(`scripted executor: no answer left (turn ${m.nextRequests.length}, step ${JSON.stringify(req.step)})`);
      const v = typeof a === 'function' ? await a(req) : a;
      return { raw: typeof v === 'string' ? v : JSON.stringify(v), usage: { prompt_tokens: 100, completion_tokens: 10 } };
    },
  };
  return m;
}

export const tool = (cmd: object) => `<tool_code>${JSON.stringify(cmd)}</tool_code>`;

export function eventLog() {
  const events: AgentEvent[] = [];
  return { events, onEvent: (e: AgentEvent) => void events.push(e), types: () => events.map((e) => e.type) };
}

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCdpAgentBrowser } from '../../src/platform/chrome/agent';
import { describeDesktop } from '../../tests/support/describe-desktop';
import { startDesktop, type Desktop } from '../../tests/support/desktop';
import { startFakeOpenAi, type FakeOpenAi, type ScriptedAnswer } from '../../tests/support/fake-openai-server';
import { main as evalMain, type Io } from '../run';
import { PageProbe } from './page-probe';
import { AGENT_LLM_MISSING, agentLlmEnv, confirmAnswer, defaultDeps, parseAgentArgs, runAgentEval } from './run-agent-eval';
import { startEvalPages, type EvalPages } from './serve';
import { LOGIN_PASSWORD, TASKS, taskResultExpression } from './tasks';

// The agent task suite's own tests: the runner (eval/agent/run-agent-eval.ts) on a real Xvfb +
// Chromium desktop, the real agent loop and CDP agent browser, and the real OpenAI SDK over real
// HTTP to a scripted OpenAI-compatible server. The scripted commands use the element numbers of
// one real snapshot of each page, taken first, exactly as the executor model would see them.

function captureIo(env: NodeJS.ProcessEnv): Io & { lines: string[]; errors: string[] } {
  const lines: string[] = [];
  const errors: string[] = [];
  return { lines, errors, out: (l) => lines.push(l), err: (l) => errors.push(l), env };
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/"/g, '(?:"|&quot;)');

/** The number of the element with this tag whose label or text is `name`, in a snapshot's text. */
function elementId(snapshot: string, tag: string, name: string): number {
  const m = snapshot.match(new RegExp(`<${tag} id="(\\d+)"[^>]*?(?:label="${escapeRe(name)}"[^>]*>|>${escapeRe(name)}</${tag}>)`));
  if (!m) throw new Error(`no <${tag}> "${name}" in the snapshot:\n${snapshot}`);
  return Number(m[1]);
}

/** Answers a correct run would give: before any action, the pages must say no even to these. */
const RIGHT_ANSWERS: Record<string, string> = {
  search: 'The brass desk lamp costs $42.50.',
  'table-sort': 'Espresso machine',
  'follow-link': 'Extension 4417.',
  dynamic: 'ZX-5531-0872',
  pagination: 'M-2047',
};

describe('agent eval: arguments and configuration (no desktop needed)', () => {
  it('without an LLM configured, `eval/run.ts --agent` prints one clear sentence and exits 2', async () => {
    const io = captureIo({});
    expect(await evalMain(['--agent'], io)).toBe(2);
    expect(io.errors).toEqual([AGENT_LLM_MISSING]);
    expect(io.lines).toEqual([]);
    expect(AGENT_LLM_MISSING.match(/\. /g)).toBeNull(); // one sentence
  });

  it('reads planner and executor from the environment; a model alone or a base URL alone is not enough', () => {
    expect(agentLlmEnv({ DESKPILOT_LLM_MODEL: 'm' })).toBeNull();
    expect(agentLlmEnv({ DESKPILOT_LLM_BASE_URL: 'http://h/v1' })).toBeNull();
    expect(agentLlmEnv({ DESKPILOT_LLM_BASE_URL: 'http://h/v1', DESKPILOT_AGENT_PLANNER_MODEL: 'p' })).toBeNull();
    expect(agentLlmEnv({ DESKPILOT_LLM_BASE_URL: 'http://h/v1', DESKPILOT_LLM_MODEL: 'm', DESKPILOT_AGENT_EXECUTOR_MODEL: 'fast', OPENAI_API_KEY: 'k' })).toEqual({
      planner: { baseURL: 'http://h/v1', model: 'm', apiKey: 'k' },
      executor: { baseURL: 'http://h/v1', model: 'fast', apiKey: 'k' },
    });
    expect(
      agentLlmEnv({ DESKPILOT_LLM_BASE_URL: 'http://h/v1', DESKPILOT_AGENT_PLANNER_MODEL: 'p', DESKPILOT_AGENT_EXECUTOR_MODEL: 'e', DESKPILOT_LLM_API_KEY: 'a', OPENAI_API_KEY: 'b' }),
    ).toMatchObject({ planner: { model: 'p', apiKey: 'a' }, executor: { model: 'e', apiKey: 'a' } });
    expect(agentLlmEnv({ DESKPILOT_LLM_BASE_URL: 'http://h/v1', DESKPILOT_LLM_MODEL: 'm', DESKPILOT_LLM_MODE: 'loose' })).toMatch(/DESKPILOT_LLM_MODE/);
  });

  it('bad arguments and unknown task ids exit 2 before anything starts', async () => {
    expect(parseAgentArgs(['--filter', 'search,login', '--filter=todo', '-v', '--timeout', '5000'])).toEqual({ filter: ['search', 'login', 'todo'], verbose: true, timeoutMs: 5000 });
    expect(parseAgentArgs(['--bogus'])).toMatch(/^unknown argument "--bogus"/);
    const io = captureIo({ DESKPILOT_LLM_BASE_URL: 'http://127.0.0.1:9/v1', DESKPILOT_LLM_MODEL: 'm' });
    expect((await runAgentEval(['--filter', 'nope'], io)).code).toBe(2);
    expect(io.errors[0]).toMatch(/^No task has the id "nope"; tasks: search, contact-form, /);
  });

  it('has at least 15 tasks with distinct ids and pages; says yes only to the login task typing its password', () => {
    expect(TASKS.length).toBeGreaterThanOrEqual(15);
    expect(new Set(TASKS.map((t) => t.id)).size).toBe(TASKS.length);
    expect(new Set(TASKS.map((t) => t.page)).size).toBe(TASKS.length);
    const login = TASKS.find((t) => t.id === 'login')!;
    const form = TASKS.find((t) => t.id === 'contact-form')!;
    expect(confirmAnswer(login, 'Type into the password field (element 2) on 127.0.0.1?')).toBe(true);
    expect(confirmAnswer(login, 'Type the secret PASSWORD into element 1 (input, not a password field) on 127.0.0.1?')).toBe(false);
    expect(confirmAnswer(login, 'Submit the payment form (element 3) on 127.0.0.1?')).toBe(false);
    expect(confirmAnswer(form, 'Type into the password field (element 2) on 127.0.0.1?')).toBe(false);
  });
});

describeDesktop('agent eval: the task suite on real Chromium (scripted OpenAI-compatible server)', () => {
  let desk: Desktop;
  let pages: EvalPages;
  let probe: PageProbe;
  let llm: FakeOpenAi;

  beforeAll(async () => {
    [desk, pages] = await Promise.all([startDesktop({ chrome: true }), startEvalPages()]);
    probe = await PageProbe.connect(desk.chrome!.browserWsUrl);
  });

  afterAll(async () => {
    await probe?.dispose();
    await Promise.all([desk?.stop(), pages?.stop()]);
  });

  beforeEach(async () => {
    llm = await startFakeOpenAi();
  });

  afterEach(async () => {
    await llm?.stop();
  });

  it("every task page's own check says no before any action (even given the right answer)", async () => {
    for (const task of TASKS) {
      const tab = await probe.open(pages.url(task.page));
      const evaluate = (expression: string) => probe.evaluate(tab, expression);
      const answer = RIGHT_ANSWERS[task.id] ?? null;
      const said = await evaluate(taskResultExpression(answer));
      expect(said, task.id).toMatchObject({ done: false });
      expect((said as { detail: string }).detail, task.id).not.toMatch(/no success check/);
      expect(await task.check(evaluate, { answer }), task.id).toBe(false);
      expect(await task.check(evaluate, { answer: null }), task.id).toBe(false);
      await probe.close(tab);
    }
  });

  it('reports scripted correct runs as ✓ (the page checks pass) and a run that clicks the wrong element as ✗', async () => {
    // One real snapshot of each page first: the numbers the executor will see.
    const snap: Record<string, string> = {};
    const browser = createCdpAgentBrowser({ browserWsUrl: desk.chrome!.browserWsUrl });
    try {
      for (const id of ['search', 'contact-form', 'settings', 'login']) {
        const task = TASKS.find((t) => t.id === id)!;
        const { targetId } = await browser.openTab(pages.url(task.page));
        snap[id] = (await browser.snapshot(targetId, { maxChars: 12_000, maskPii: true })).text;
        await browser.closeTab(targetId);
      }
    } finally {
      await browser.dispose();
    }
    const n = (task: string, tag: string, name: string) => elementId(snap[task]!, tag, name);
    const plan = (...steps: string[]): ScriptedAnswer => ({ json: { steps, message: 'Scripted plan.' } });
    const cmd = (command: Record<string, unknown>): ScriptedAnswer => ({ json: { command } });
    const open = (page: string) => cmd({ action: 'open_tab', url: pages.url(page) });

    // The runner goes through the tasks in the suite's order: search, contact-form, settings, login.
    llm.script(
      // search: type and submit, read the results, answer with the price the page showed.
      plan('Open the catalogue', 'Search for lamp', 'Read the results', 'Report the price'),
      open('/search.html'),
      cmd({ action: 'type', id: n('search', 'input', 'Search the catalogue'), value: 'lamp', submit: true }),
      cmd({ action: 'read_page' }),
      { content: '<tool_code>{"action": "done", "answer": "The brass desk lamp costs $42.50."}</tool_code>' },
      // contact-form: three text fields, the dropdown, the message, the checkbox, submit.
      plan('Open the form', 'Name', 'Email', 'Topic', 'Message', 'Copy', 'Send', 'Report'),
      open('/form.html'),
      cmd({ action: 'type', id: n('contact-form', 'input', 'Full name'), value: 'Ada Lovelace' }),
      cmd({ action: 'type', id: n('contact-form', 'input', 'Email'), value: 'ada@example.com' }),
      cmd({ action: 'select', id: n('contact-form', 'select', 'Topic'), option: { text: 'Billing' } }),
      cmd({ action: 'type', id: n('contact-form', 'textarea', 'Message'), value: 'Please resend my invoice for March' }),
      cmd({ action: 'click', id: n('contact-form', 'input', 'Send me a copy') }),
      cmd({ action: 'click', id: n('contact-form', 'button', 'Send message') }),
      cmd({ action: 'done', answer: 'The message was sent.' }),
      // settings, scripted to fail: the wrong switch (email notifications, not dark mode), then save.
      plan('Open the settings', 'Turn on dark mode', 'Save', 'Report'),
      open('/settings.html'),
      cmd({ action: 'click', id: n('settings', 'button', 'Email notifications') }),
      cmd({ action: 'click', id: n('settings', 'button', 'Save settings') }),
      cmd({ action: 'done', answer: 'Dark mode is on and saved.' }),
      // login: the password only as {{SECRET:PASSWORD}}; the suite says yes to the password field.
      plan('Open the sign-in page', 'User name', 'Password', 'Sign in', 'Report'),
      open('/login.html'),
      cmd({ action: 'type', id: n('login', 'input', 'User name'), value: 'eval-user' }),
      cmd({ action: 'type', id: n('login', 'input', 'Password'), value: '{{SECRET:PASSWORD}}' }),
      cmd({ action: 'click', id: n('login', 'button', 'Sign in') }),
      cmd({ action: 'done', answer: 'Signed in as eval-user.' }),
    );

    const io = captureIo({
      DESKPILOT_LLM_BASE_URL: llm.baseURL,
      DESKPILOT_LLM_MODEL: 'scripted-planner',
      DESKPILOT_AGENT_EXECUTOR_MODEL: 'scripted-executor',
      DESKPILOT_LLM_TIMEOUT_MS: '60000',
    });
    // The runner's own path (it starts its own Xvfb + Chromium desktop), on this test's page
    // server so the scripted URLs are the ones it serves.
    const { code, outcomes } = await runAgentEval(['--filter', 'login,settings,search,contact-form'], io, {
      ...defaultDeps,
      startPages: async () => ({ ...pages, stop: async () => undefined }),
    });
    expect(io.errors).toEqual([]);
    expect(code).toBe(0);

    const byId = Object.fromEntries(outcomes!.map((o) => [o.id, o]));
    expect(outcomes!.map((o) => o.id)).toEqual(['search', 'contact-form', 'settings', 'login']);
    expect(byId.search).toMatchObject({ passed: true, status: 'done', steps: 4, detail: 'searched for lamp and reported $42.50' });
    expect(byId['contact-form']).toMatchObject({ passed: true, status: 'done', steps: 8, detail: 'sent with every field right' });
    expect(byId.login).toMatchObject({ passed: true, status: 'done', steps: 5, detail: 'signed in as eval-user' });
    expect(byId.login!.confirms).toEqual([{ question: expect.stringMatching(/^Type into the password field \(element \d+\) on 127\.0\.0\.1\?$/), answer: true }]);
    // The agent said done, but the page knows better.
    expect(byId.settings).toMatchObject({ passed: false, status: 'done', steps: 4, answer: 'Dark mode is on and saved.' });
    expect(byId.settings!.detail).toBe('saved: dark mode off, email notifications off, automatic updates on');

    // The printed report.
    const out = io.lines;
    expect(out[0]).toMatch(/^Agent eval: 4 tasks in a real Chromium; planner scripted-planner, executor scripted-executor at http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(out[1]).toMatch(/^✓ search + 4 steps +done +\d+\.\d s$/);
    expect(out[2]).toMatch(/^✓ contact-form +8 steps +done +\d+\.\d s$/);
    expect(out[3]).toMatch(/^✗ settings +4 steps +done +\d+\.\d s +saved: dark mode off, email notifications off, automatic updates on$/);
    expect(out[4]).toMatch(/^✓ login +5 steps +done +\d+\.\d s$/);
    // 4 plans + 4 + 8 + 4 + 5 executor turns, each reported by the scripted server as 321 + 23 tokens.
    expect(out.slice(5)).toEqual([
      '',
      'Success rate: 3/4 tasks (75.0%)',
      'Mean steps per successful task: 5.7',
      'Tokens: 8,025 prompt / 575 completion (planner and executor, all tasks)',
      'SUMMARY agent tasks=4 passed=3 rate=75.0% mean_steps=5.7 prompt_tokens=8025 completion_tokens=575',
    ]);

    // Every scripted answer was used, by the right model; the password never reached a model.
    expect(llm.requests).toHaveLength(25);
    expect(llm.requests.filter((r) => r.model === 'scripted-planner')).toHaveLength(4);
    expect(JSON.stringify(llm.requests.map((r) => r.body))).not.toContain(LOGIN_PASSWORD);
  }, 600_000); // its own desktop, four tasks, 25 model turns: minutes on a busy machine
});

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runAgentCommand, type AgentArgs, type AgentDeps } from '../../src/cli/agent-command';
import type { Io } from '../../src/cli/io';
import { loadConfig } from '../../src/platform/config/load-config';
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai-server';
import { scriptedBrowser, tool, type ScriptedBrowser } from './scripted';

// `deskpilot agent` in-process with a scripted browser: the real LLM models over real HTTP to
// the scripted OpenAI-compatible server, and a fake terminal. The real CLI against real
// Chromium is tests/agent-loop/agent-e2e.test.ts.

const SEARCH = 'https://shop.example.com/search';
const plan = { steps: ['Open the shop search page', 'Search for cats'], message: 'I will search the shop for cats.' };

function fakeIo(interactive: boolean, answers: string[] = []) {
  const io = {
    stdout: '',
    stderr: '',
    asked: [] as string[],
    out: (t: string) => void (io.stdout += t),
    err: (t: string) => void (io.stderr += t),
    readStdin: async () => '',
    interactive: () => interactive,
    ask: async (q: string) => {
      io.asked.push(q);
      io.stderr += q;
      const a = answers.shift();
      if (a === undefined) throw new Error(`unexpected question: ${q}`);
      return a;
    },
  };
  return io satisfies Io;
}

describe('deskpilot agent, in-process (scripted browser and OpenAI-compatible server)', () => {
  let llm: FakeOpenAi;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let browser: ScriptedBrowser;
  let interrupt: (() => void) | null;
  let deps: AgentDeps;

  beforeAll(async () => {
    llm = await startFakeOpenAi();
    dir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-agent-cli-'));
  });
  afterAll(async () => {
    await llm.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    llm.requests.length = 0;
    rmSync(path.join(dir, 'config.json'), { force: true });
    env = { DESKPILOT_CONFIG_DIR: dir, DESKPILOT_LLM_MODEL: 'scripted-model', DESKPILOT_LLM_BASE_URL: llm.baseURL, DESKPILOT_LLM_TIMEOUT_MS: '60000' };
    browser = scriptedBrowser({
      [SEARCH]: { title: 'Search', body: '<input id="1" type="search">', elements: { 1: { tag: 'input', submitsForm: true } } },
    });
    interrupt = null;
    deps = {
      env,
      connectBrowser: async () => browser,
      onInterrupt: (h) => {
        interrupt = h;
        return () => {
          interrupt = null;
        };
      },
    };
  });

  const args = (over: Partial<AgentArgs> = {}): AgentArgs => ({ goal: 'find cats in the shop', yes: true, json: false, ...over });
  const scriptRun = () =>
    llm.script(
      { json: plan },
      { content: tool({ action: 'open_tab', url: SEARCH }) },
      { json: { command: { action: 'type', id: 1, value: 'cats', mode: null, submit: true } } },
      { content: tool({ action: 'done', answer: 'Found: Cat toy, Cat bed.' }) },
    );

  it('without an LLM it says what to set, exits 1, and touches no browser', async () => {
    const io = fakeIo(false);
    let connected = false;
    const code = await runAgentCommand({}, args(), io, { ...deps, env: { DESKPILOT_CONFIG_DIR: dir }, connectBrowser: async () => ((connected = true), browser) });
    expect(code).toBe(1);
    expect(io.stderr).toBe('deskpilot: agent mode needs an LLM: set DESKPILOT_LLM_MODEL (and DESKPILOT_LLM_BASE_URL for Ollama or LM Studio), or llm.model in config.json.\n');
    expect(connected).toBe(false);
  });

  it('--yes: runs the plan; progress on stderr, the answer on stdout, exit 0; planner and executor models as configured', async () => {
    scriptRun();
    const io = fakeIo(false);
    const code = await runAgentCommand({}, args({ executorModel: 'fast-one' }), io, { ...deps, env: { ...env, DESKPILOT_AGENT_PLANNER_MODEL: 'big-one' } });
    expect(code).toBe(0);
    expect(io.stdout).toBe('Found: Cat toy, Cat bed.\n');
    expect(io.stderr).toBe(
      'Plan: I will search the shop for cats.\n  1. Open the shop search page\n  2. Search for cats\n' +
        '[1/2] Open the shop search page\n' +
        `  ✓ open tab ${SEARCH} — Opened tab 1: ${SEARCH}\n` +
        '[2/2] Search for cats\n' +
        '  ✓ type #1 "cats" + Enter — type done.\n' +
        '[finishing]\n' +
        'done after 3 commands\n',
    );
    expect(llm.requests.map((r) => r.model)).toEqual(['big-one', 'fast-one', 'fast-one', 'fast-one']);
    expect(browser.performed.map((p) => p.cmd)).toEqual([{ action: 'type', id: 1, value: 'cats', submit: true }]);
    expect(browser.disposed).toBe(true);
  });

  it('no terminal and no --yes: prints the plan, runs nothing, exit 3', async () => {
    llm.script({ json: plan });
    const io = fakeIo(false);
    const code = await runAgentCommand({}, args({ yes: false }), io, deps);
    expect(code).toBe(3);
    expect(io.stdout).toBe('Plan: I will search the shop for cats.\n  1. Open the shop search page\n  2. Search for cats\n');
    expect(io.stderr).toBe('not run: approve the plan on a terminal, or run again with --yes\n');
    expect(llm.requests).toHaveLength(1);
    expect(browser.opened).toEqual([]);
  });

  it('on a terminal: "n" cancels (exit 3); "e" edits the steps, then "y" runs the edited plan', async () => {
    llm.script({ json: plan });
    const no = fakeIo(true, ['n']);
    expect(await runAgentCommand({}, args({ yes: false }), no, deps)).toBe(3);
    expect(no.asked).toEqual(['Run these steps? [y/N/e(dit)] ']);
    expect(no.stderr).toContain('cancelled: nothing was run\n');
    expect(browser.opened).toEqual([]);

    const start = llm.requests.length;
    llm.script({ json: plan }, { content: tool({ action: 'open_tab', url: SEARCH }) }, { content: tool({ action: 'done', answer: 'opened' }) });
    // Keep step 1, remove step 2, add one step, finish; then approve.
    const edit = fakeIo(true, ['e', '', '-', 'Say that the page is open', '', 'y']);
    expect(await runAgentCommand({}, args({ yes: false }), edit, deps)).toBe(0);
    expect(edit.stderr).toContain('Plan: I will search the shop for cats.\n  1. Open the shop search page\n  2. Say that the page is open\n');
    const executorSteps = llm.requests.slice(start + 1).map((r) => r.messages!.find((m) => m.role === 'user')!.content.match(/Current instruction: (.*)/)![1]);
    expect(executorSteps).toEqual(['"Open the shop search page"', '"Say that the page is open"']);
    expect(edit.stdout).toBe('opened\n');
  });

  it('--json prints the whole result; password prompts are declined without a terminal', async () => {
    browser = scriptedBrowser({ [SEARCH]: { title: 'Login', body: '<input id="1" type="password">', elements: { 1: { tag: 'input', isPassword: true } } } });
    llm.script(
      { json: plan },
      { content: tool({ action: 'open_tab', url: SEARCH }) },
      { content: tool({ action: 'type', id: 1, value: 'x' }) },
      { content: tool({ action: 'done', answer: 'could not log in' }) },
    );
    const io = fakeIo(false);
    const code = await runAgentCommand({}, args({ json: true }), io, deps);
    expect(code).toBe(0);
    const json = JSON.parse(io.stdout);
    expect(json).toMatchObject({ status: 'done', answer: 'could not log in', commands: 3, plan });
    expect(json.steps[1]).toMatchObject({ ok: false, command: { action: 'type' } });
    expect(io.stderr).toContain('  ! declined, no terminal to ask: Type into the password field (element 1) on shop.example.com?\n');
    expect(browser.performed).toEqual([]);
  });

  it('Ctrl-C stops the run cleanly: the request in flight is aborted, the browser detached, exit 3', async () => {
    llm.script({ json: plan }, { content: tool({ action: 'open_tab', url: SEARCH }) }, { hang: true });
    const io = fakeIo(false);
    const running = runAgentCommand({}, args(), io, deps);
    await llm.waitForRequests(3);
    interrupt!();
    expect(await running).toBe(3);
    expect(io.stderr).toContain('\nstopping… (the step in progress finishes first)\n');
    expect(io.stderr).toMatch(/stopped after 1 command; the tabs the agent opened stay open\n$/);
    expect(browser.disposed).toBe(true);
    expect(interrupt).toBeNull(); // unsubscribed
  });

  it('config.json agent settings: models, limits, tools, domain lists, secrets by environment variable', async () => {
    writeFileSync(
      path.join(dir, 'config.json'),
      JSON.stringify({
        agent: {
          executor_model: 'file-executor',
          max_steps: 2,
          tab_limit: 1,
          allow_domains: ['example.com'],
          deny_domains: ['bad.example.com'],
          tools: [{ name: 'Shop', url: SEARCH }],
          secrets: { TOKEN: 'MY_TOKEN_VAR', OTHER: 'UNSET_VAR' },
        },
      }),
    );
    const c = await loadConfig({}, { ...env, MY_TOKEN_VAR: 'tok-123' });
    expect(c.agent.plannerModel).toEqual({ value: 'scripted-model', from: 'env' }); // the LLM model
    expect(c.agent.executorModel).toEqual({ value: 'file-executor', from: 'file' });
    expect(c.agent.maxSteps).toEqual({ value: 2, from: 'file' });
    const envOverride = await loadConfig({}, { ...env, DESKPILOT_AGENT_EXECUTOR_MODEL: 'env-executor' });
    expect(envOverride.agent.executorModel).toEqual({ value: 'env-executor', from: 'env' });

    llm.script(
      { json: plan },
      { content: tool({ action: 'open_tool', name: 'shop' }) },
      { content: tool({ action: 'type', id: 1, value: '{{SECRET:TOKEN}}' }) },
    );
    const io = fakeIo(true, ['y']); // --yes approves the plan; the secret's safety prompt is asked on the terminal
    const code = await runAgentCommand({}, args(), io, { ...deps, env: { ...env, MY_TOKEN_VAR: 'tok-123' } });
    expect(io.asked).toEqual(['  Type the secret TOKEN into element 1 (input, not a password field) on shop.example.com? [y/N] ']);
    expect(code).toBe(1); // max_steps 2 → budget
    expect(io.stderr).toContain('warning: secret OTHER (UNSET_VAR) is not set in the environment, so the agent cannot use it\n');
    expect(io.stderr).toMatch(/budget: the step budget \(2 commands\) ran out before the goal was reached \(after 2 commands\)\n$/);
    expect(browser.performed.map((p) => p.cmd)).toEqual([{ action: 'type', id: 1, value: 'tok-123' }]);
    expect(llm.requests[1]!.model).toBe('file-executor');
    const planContext = llm.requests[0]!.messages!.find((m) => m.role === 'user')!.content;
    expect(planContext).toContain('"Shop" → https://shop.example.com/search');
    expect(planContext).toContain('Never visit these domains: bad.example.com');
    expect(planContext).toContain('Tab limit: 1 target tabs');
    expect(JSON.stringify(llm.requests)).not.toContain('tok-123');

    writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ agent: { tab_limit: 0, tools: [{ name: 'x' }] } }));
    await expect(loadConfig({}, env)).rejects.toThrow(/agent\.tab_limit: must be at least 1; agent\.tools\[0\]\.url: is required/);
  });
});

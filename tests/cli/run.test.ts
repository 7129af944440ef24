import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { CLI, runCli } from '../support/cli';
import { describeDesktop } from '../support/describe-desktop';
import { startDesktop, type Desktop } from '../support/desktop';
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai-server';
import { RawCdp } from '../support/raw-cdp';
import { frameOf } from '../support/x-observe';

// Words to effects: `deskpilot plan` and `deskpilot run` as child processes, with the offline
// matcher and with the LLM planner talking real HTTP to a scripted OpenAI-compatible server
// on 127.0.0.1 (no real model is reachable here), against real Chromium and a real X desktop.

describeDesktop('deskpilot plan/run: words to effects (scripted OpenAI-compatible server on 127.0.0.1)', () => {
  let desk: Desktop;
  let raw: RawCdp;
  let llm: FakeOpenAi;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let llmEnv: NodeJS.ProcessEnv;

  beforeAll(async () => {
    [desk, llm] = await Promise.all([startDesktop({ chrome: true, apps: ['xterm'] }), startFakeOpenAi()]);
    raw = await RawCdp.connect(desk.chrome!.browserWsUrl);
    dir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-run-'));
    env = { ...desk.env, DESKPILOT_CONFIG_DIR: dir, DESKPILOT_CHROME_URL: desk.chrome!.browserWsUrl, DESKPILOT_LLM_MODEL: '' };
    llmEnv = { ...env, DESKPILOT_LLM_MODEL: 'scripted-model', DESKPILOT_LLM_BASE_URL: llm.baseURL, DESKPILOT_LLM_TIMEOUT_MS: '60000' };
  });

  afterAll(async () => {
    await raw?.dispose();
    await Promise.all([desk?.stop(), llm?.stop()]);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  beforeEach(async () => {
    const before = await raw.pages();
    for (const t of ['Reddit - front page', 'Hacker News', 'Reddit - r/node', 'Docs']) {
      await raw.open(desk.pages.url('page', { title: t }));
    }
    for (const p of before) await raw.close(p.targetId);
    rmSync(path.join(dir, 'turns.json'), { force: true });
  });

  const run = (args: string[], e = env) => runCli(['run', ...args], { env: e });

  it('plan prints exactly the envelope, and --explain says who answered', async () => {
    const r = await runCli(['plan', '--planner', 'local', '--explain', 'switch to hacker news'], { env });
    expect(r.code).toBe(0);
    expect(r.json).toEqual({ commands: [{ type: 'switch_tab', tab_index: 2 }], needs_clarification: false, clarification_reason: null });
    expect(r.stderr).toMatch(/^planner: local \(offline matcher\), confidence 1, [\d.]+ ms\n$/);
  });

  it('run (offline matcher) switches the tab for real, and says so in one sentence on stdout', async () => {
    const target = (await raw.pages()).find((p) => p.title === 'Docs')!.targetId;
    const r = await run(['--planner', 'local', 'go to the docs tab']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('Switched to tab 4 "Docs" (127.0.0.1)\n');
    expect(r.stderr).toBe('');
    await raw.waitFor(async () => (await raw.evaluate(target, 'document.visibilityState')) === 'visible');
  });

  it('run --json prints the full report (with the envelope and the planner) and does not repeat it on stderr', async () => {
    const r = await run(['--planner', 'local', '--json', 'switch to hacker news']);
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({
      status: 'done',
      planner: 'local',
      envelope: { commands: [{ type: 'switch_tab', tab_index: 2 }] },
      results: [{ ok: true, type: 'switch_tab', message: 'Switched to tab 2 "Hacker News" (127.0.0.1)' }],
    });
    expect(r.stderr).toBe('');
  });

  it('run lists tabs for people: the count, then one line per tab with the active one starred', async () => {
    const r = await run(['--planner', 'local', 'list my tabs']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('4 tabs open in 1 window');
    expect(lines.slice(1).map((l) => l.replace(/^ +\d+[* ] /, ''))).toEqual([
      'Reddit - front page · 127.0.0.1',
      'Hacker News · 127.0.0.1',
      'Reddit - r/node · 127.0.0.1',
      'Docs · 127.0.0.1',
    ]);
    expect(lines.filter((l) => /^ +\d+\* /.test(l))).toHaveLength(1);
  });

  it('run asks before closing: without a terminal and without --yes nothing closes (exit 3); with --yes it does', async () => {
    llm.script({ json: { commands: [{ type: 'close_tab', tab_indices: [1, 3] }], needs_clarification: false, clarification_reason: null } });
    const refused = await run(['--planner', 'llm', '--json', 'close the reddit tabs'], llmEnv);
    expect(refused.code).toBe(3);
    expect(refused.json.status).toBe('cancelled');
    expect(refused.stderr).toContain('not run: this needs confirmation — run again with --yes to allow:');
    expect(refused.stderr).toContain('close tab 1 "Reddit - front page" (127.0.0.1), tab 3 "Reddit - r/node" (127.0.0.1)');
    expect(await raw.titles()).toEqual(['Docs', 'Hacker News', 'Reddit - front page', 'Reddit - r/node']);

    llm.script({ json: { commands: [{ type: 'close_tab', tab_indices: [1, 3] }], needs_clarification: false, clarification_reason: null } });
    const allowed = await run(['--planner', 'llm', '--yes', 'close the reddit tabs'], llmEnv);
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toBe('Closed 2 tabs: tab 1 "Reddit - front page" (127.0.0.1), tab 3 "Reddit - r/node" (127.0.0.1)\n');
    expect(await raw.titles()).toEqual(['Docs', 'Hacker News']);
  });

  it('the LLM gets the strict schema and the context; an invalid answer gets one repair round with the exact errors', async () => {
    const start = llm.requests.length;
    llm.script(
      { json: { commands: [{ type: 'switch_tab', tab_index: 9 }], needs_clarification: false, clarification_reason: null } },
      { json: { commands: [{ type: 'switch_tab', tab_index: 4 }], needs_clarification: false, clarification_reason: null } },
    );
    const r = await run(['--planner', 'llm', '--explain', 'show me the docs'], llmEnv);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/planner: llm \(scripted-model at http:\/\/127\.0\.0\.1:\d+\/v1\).*after one repair round, tokens: 642 prompt \+ 46 completion/);
    const [first, repair] = llm.requests.slice(start);
    expect(first!.response_format.type).toBe('json_schema');
    expect(first!.response_format.json_schema.strict).toBe(true);
    expect(first!.temperature).toBe(0);
    const userText = first!.messages!.map((m) => m.content).join('\n');
    expect(userText).toContain('"Hacker News"');
    expect(userText).toContain('show me the docs');
    expect(repair!.messages!.map((m) => m.content).join('\n')).toContain('commands[0].tab_index: tab 9 does not exist (open tabs are 1–4)');
  });

  it('an answer invalid twice is an error and nothing runs', async () => {
    const bad = { json: { commands: [{ type: 'close_tab', tab_indices: [7] }], needs_clarification: false, clarification_reason: null } };
    llm.script(bad, bad);
    const r = await run(['--planner', 'llm', '--yes', 'close something'], llmEnv);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^deskpilot: the model's answer was invalid twice, so nothing was run: commands\[0\]\.tab_indices\[0\]: tab 7 does not exist/);
    expect(await raw.titles()).toEqual(['Docs', 'Hacker News', 'Reddit - front page', 'Reddit - r/node']);
  });

  it('a clarification runs nothing, shows the question, exits 3', async () => {
    llm.script({ json: { commands: [], needs_clarification: true, clarification_reason: 'Which Reddit tab: 1 "Reddit - front page" or 3 "Reddit - r/node"?' } });
    const r = await run(['--planner', 'llm', 'go to reddit'], llmEnv);
    expect(r.code).toBe(3);
    expect(r.stderr).toBe('needs clarification: Which Reddit tab: 1 "Reddit - front page" or 3 "Reddit - r/node"?\n');
    expect(r.stdout).toBe('');
  });

  it('auto: the offline matcher answers what it is sure of without calling the LLM; the rest goes to the LLM', async () => {
    const start = llm.requests.length;
    const sure = await run(['switch to hacker news'], llmEnv);
    expect(sure.code).toBe(0);
    expect(llm.requests.length).toBe(start);

    llm.script({ json: { commands: [{ type: 'list_tabs' }], needs_clarification: false, clarification_reason: null } });
    const vague = await run(['--json', 'whatever is most relevant to my afternoon'], llmEnv);
    expect(vague.code).toBe(0);
    expect(llm.requests.length).toBe(start + 1);
    expect(vague.json.planner).toBe('llm');
  });

  it('without an LLM, auto answers what it cannot do offline with a clarification', async () => {
    const r = await run(['whatever is most relevant to my afternoon']);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^needs clarification: /);
    const llmOnly = await run(['--planner', 'llm', 'switch to docs']);
    expect(llmOnly.code).toBe(1);
    expect(llmOnly.stderr).toMatch(/no LLM is configured: set DESKPILOT_LLM_MODEL/);
  });

  it('auto with the LLM down still gives the offline answer (its question), and says the LLM was not used', async () => {
    const down = { ...llmEnv, DESKPILOT_LLM_BASE_URL: 'http://127.0.0.1:9/v1' };
    const r = await run(['go to reddit'], down);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^note: the LLM was not used: cannot reach the LLM at http:\/\/127\.0\.0\.1:9\/v1/m);
    expect(r.stderr).toMatch(/^needs clarification: Which tab: 1 "Reddit - front page" .* or 3 "Reddit - r\/node"/m);
  });

  it('follow-ups: "now put it on the right" refers to the app just moved', async () => {
    const xterm = (await runCli(['context', '--json', '--no-summaries'], { env })).json.running_apps.find((a: { pid: number }) => a.pid === desk.pids.apps.xterm);
    const id = xterm.windows[0].id as string;
    const first = await run(['--planner', 'local', 'xterm left']);
    expect(first.code).toBe(0);
    expect(frameOf(env, id)[0]).toBeLessThan(1920);
    const second = await run(['--planner', 'local', 'now put it on the right']);
    expect(second.code).toBe(0);
    expect(frameOf(env, id)[0]).toBeGreaterThanOrEqual(1920);
  });

  it('on a terminal, run asks and lists what will close: "n" keeps the tabs, "y" closes them', async () => {
    // `script` gives the CLI a real pseudo-terminal, so it takes the interactive path.
    const inTerminal = (answer: string) =>
      new Promise<{ code: number | null; output: string }>((resolve, reject) => {
        const cmd = `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} run --planner local "close tab 3"`;
        const child = spawn('script', ['-qec', cmd, '/dev/null'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
        let output = '';
        child.stdout.on('data', (d: Buffer) => {
          output += d.toString();
          if (output.includes('Go ahead? [y/N]') && !child.stdin.writableEnded) child.stdin.end(`${answer}\n`);
        });
        child.on('error', reject);
        child.on('close', (code) => resolve({ code, output }));
      });
    const no = await inTerminal('n');
    expect(no.output).toContain('This will:');
    expect(no.output).toContain('close tab 3 "Reddit - r/node" (127.0.0.1)');
    expect(no.code).toBe(3);
    expect(await raw.titles()).toEqual(['Docs', 'Hacker News', 'Reddit - front page', 'Reddit - r/node']);
    const yes = await inTerminal('y');
    expect(yes.code).toBe(0);
    expect(await raw.titles()).toEqual(['Docs', 'Hacker News', 'Reddit - front page']);
  });
});

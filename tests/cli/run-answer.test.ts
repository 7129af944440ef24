import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { CLI, runCli } from '../support/cli';
import { describeDesktop } from '../support/describe-desktop';
import { startDesktop, type Desktop } from '../support/desktop';
import { onlyTabs, tabVisible } from '../support/only-tabs';
import { RawCdp } from '../support/raw-cdp';

// Issue 26 item 3: when `deskpilot run` asks "Which tab?" in a terminal, the person answers in
// place — a number or words — and the command goes on; Enter runs nothing. The CLI runs as a
// child process under `script`, which gives it a real pseudo-terminal, against real Chromium.

describeDesktop('deskpilot run: answering its question in the terminal', () => {
  let desk: Desktop;
  let raw: RawCdp;
  let dir: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    desk = await startDesktop({ chrome: true });
    raw = await RawCdp.connect(desk.chrome!.browserWsUrl);
    dir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-run-answer-'));
    env = { ...desk.env, DESKPILOT_CONFIG_DIR: dir, DESKPILOT_CHROME_URL: desk.chrome!.browserWsUrl, DESKPILOT_LLM_MODEL: '' };
  });

  afterAll(async () => {
    await raw?.dispose();
    await desk?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  beforeEach(() => onlyTabs(raw, desk, ['Reddit - front page', 'Hacker News', 'Reddit - r/node']));

  const PICK = 'Which one? A number or words (Enter: none)';

  /**
   * `run` on a pseudo-terminal: each time a prompt appears (in order), the next answer is typed;
   * an answer of null ends the input instead.
   */
  const inTerminal = (text: string, steps: Array<[prompt: string, answer: string | null]>) =>
    new Promise<{ code: number | null; output: string }>((resolve, reject) => {
      const cmd = `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} run --planner local ${JSON.stringify(text)}`;
      const child = spawn('script', ['-qec', cmd, '/dev/null'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
      let output = '';
      let from = 0;
      let step = 0;
      child.stdout.on('data', (d: Buffer) => {
        output += d.toString();
        while (step < steps.length) {
          const [prompt, answer] = steps[step]!;
          const at = output.indexOf(prompt, from);
          if (at < 0) break;
          from = at + prompt.length;
          step++;
          if (answer === null) child.stdin.end();
          else child.stdin.write(`${answer}\n`);
        }
      });
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, output }));
    });

  const visible = (title: string) => tabVisible(raw, title);

  it('lists the choices numbered; "2" switches to the second one and exits 0', async () => {
    const r = await inTerminal('switch to reddit', [[PICK, '2']]);
    expect(r.output).toMatch(/Which tab: 1 "Reddit - front page" .* or 3 "Reddit - r\/node"/);
    expect(r.output).toMatch(/ 1\) tab 1 "Reddit - front page"[^\n]*\r?\n {2}2\) tab 3 "Reddit - r\/node"/);
    expect(r.output).toContain('Switched to tab 3 "Reddit - r/node"');
    expect(r.code).toBe(0);
    await raw.waitFor(() => visible('Reddit - r/node'));
  });

  it('words that only one choice holds pick it; words that fit none are asked again', async () => {
    const r = await inTerminal('switch to reddit', [[PICK, 'youtube'], [PICK, 'front page']]);
    expect(r.output).toContain('"youtube" is none of the choices; say a number from 1 to 2');
    expect(r.output).toContain('Switched to tab 1 "Reddit - front page"');
    expect(r.code).toBe(0);
    await raw.waitFor(() => visible('Reddit - front page'));
  });

  it('a picked choice that closes still asks for the yes; Enter at the question runs nothing (exit 3)', async () => {
    const none = await inTerminal('close reddit', [[PICK, '']]);
    expect(none.output).toContain('cancelled: nothing was run');
    expect(none.code).toBe(3);
    expect(await raw.titles()).toEqual(['Hacker News', 'Reddit - front page', 'Reddit - r/node']);
    // The question lists the tabs (and all of them); "1" picks the front page, then the usual yes.
    const r = await inTerminal('close reddit', [[PICK, '1'], ['Go ahead? [y/N]', 'y']]);
    expect(r.output).toContain('close tab 1 "Reddit - front page"');
    expect(r.code).toBe(0);
    expect(await raw.titles()).toEqual(['Hacker News', 'Reddit - r/node']);
  });

  it('without a terminal nothing is asked: the question and exit 3, as before', async () => {
    const r = await runCli(['run', '--planner', 'local', 'switch to reddit'], { env });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^needs clarification: Which tab: 1 "Reddit - front page"/);
  });
});

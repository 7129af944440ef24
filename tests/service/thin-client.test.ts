import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, expect, it, onTestFinished } from 'vitest';
import { describeDesktop } from '../support/describe-desktop';
import { startDesktop, type Desktop } from '../support/desktop';
import { RawCdp } from '../support/raw-cdp';
import { buildPrivateCli, withOtherBuildId, type PrivateCli } from './private-cli';
import { serviceHealth, spawnService, stopAllServices, type ServiceProcess } from './service-process';
import { readLines, writeLine } from '../../src/platform/service/ndjson';

// The thin client: with `deskpilot service` running (same build, same config directory), a
// CLI call only relays — the service runs the CLI's own main() with the client's terminal.
// Each command here runs twice, through the service and in the CLI's own process
// (DESKPILOT_NO_SERVICE=1), on a real desktop with Chromium; stdout, stderr and the exit code
// must be the same. Which path a call took is read from the service (the `cli` requests it
// served), never guessed from timing. A build of the CLI of its own keeps the service and
// its clients one build while other work rebuilds out/cli.

const TITLES = ['One', 'Two', 'Three', 'Four'];

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

describeDesktop('the thin client: the service runs the CLI for it, with the same output as in-process', () => {
  let desk: Desktop;
  let raw: RawCdp;
  let cli: PrivateCli;
  let configDir: string;
  let workDir: string;
  let env: NodeJS.ProcessEnv;
  let svc: ServiceProcess;
  let socketPath: string;

  beforeAll(async () => {
    [desk, cli] = await Promise.all([startDesktop({ chrome: true }), buildPrivateCli()]);
    raw = await RawCdp.connect(desk.chrome!.browserWsUrl);
    configDir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-thin-'));
    workDir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-thin-cwd-'));
    env = { ...desk.env, DESKPILOT_CHROME_URL: desk.chrome!.browserWsUrl, DESKPILOT_CONFIG_DIR: configDir, DESKPILOT_LLM_MODEL: '' };
    delete env.XDG_RUNTIME_DIR;
    delete env.DESKPILOT_NO_SERVICE;
    svc = spawnService(env, [process.execPath, cli.bin, 'service']);
    socketPath = await svc.listening;
  }, 300_000);

  afterAll(async () => {
    await stopAllServices();
    await raw?.dispose();
    await desk?.stop();
    for (const dir of [configDir, workDir]) if (dir) rmSync(dir, { recursive: true, force: true });
    cli?.remove();
  });

  /** The four test tabs, in order, the first active: every comparison starts from the same desk. */
  beforeEach(async () => {
    const before = await raw.pages();
    for (const t of TITLES) await raw.open(desk.pages.url('page', { title: t }));
    for (const p of before) await raw.close(p.targetId);
    await activate('One');
    rmSync(path.join(configDir, 'turns.json'), { force: true });
  }, 120_000);

  const served = async (method: string) => (await serviceHealth(socketPath))?.served?.[method] ?? 0;

  function runBin(bin: string, args: string[], opts: { env?: NodeJS.ProcessEnv; cwd?: string; stdin?: string } = {}): Promise<Run> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [bin, ...args], { env: opts.env ?? env, cwd: opts.cwd ?? workDir, stdio: ['pipe', 'pipe', 'pipe'] });
      onTestFinished(() => void (child.exitCode === null && child.signalCode === null && child.kill('SIGKILL')));
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
      child.stdin.end(opts.stdin ?? '');
    });
  }

  /** Runs `args` through the service, checks the service ran it, and returns the run. */
  async function throughService(args: string[], opts: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<Run> {
    const before = await served('cli');
    const run = await runBin(cli.bin, args, opts);
    expect(await served('cli'), `deskpilot ${args.join(' ')} went through the service`).toBe(before + 1);
    return run;
  }

  /** Runs `args` in the CLI's own process, and checks the service did not run it. */
  async function inProcess(args: string[], opts: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<Run> {
    const before = await served('cli');
    const run = await runBin(cli.bin, args, { ...opts, env: { ...(opts.env ?? env), DESKPILOT_NO_SERVICE: '1' } });
    expect(await served('cli')).toBe(before);
    return run;
  }

  /** What differs between two runs of the same command anyway: ids and clock readings. */
  const VOLATILE = new Set(['batch_id', 'snapshot_taken_at', 'taken_at', 'id', 'at']);
  /**
   * Also the browser's brand in Chrome's source line: an engine names the browser when it
   * connects, from a page that can tell ("Chromium"); the service connected before the test
   * pages were open and says "Chrome". That is the warm engine's, not the thin client's.
   */
  const BRAND = /\bChrom(e|ium) (\d+\.)/g;
  /** What only a long-lived process knows: tab ages from the service's tab clock (service-cli.test checks them). */
  const WARM_ONLY = new Set(['tab_usage', 'last_used_at']);
  /** A clock reading in text ("Taken at …"). */
  const TIME = /\b\d{4}-\d\d-\d\dT[\d:.]+Z\b/g;
  const steady = (run: Run) => {
    let stdout: unknown = run.stdout.replace(BRAND, 'Chrom* $2').replace(TIME, '<time>');
    try {
      stdout = JSON.parse(stdout as string, (key, value) => (WARM_ONLY.has(key) ? undefined : VOLATILE.has(key) ? typeof value : value));
    } catch {
      // not JSON: compared as it is
    }
    return { code: run.code, stdout, stderr: run.stderr.replace(BRAND, 'Chrom* $2') };
  };

  /** The same command both ways, from the same desk. */
  async function same(args: string[], opts: { env?: NodeJS.ProcessEnv; cwd?: string; between?: () => Promise<void> } = {}): Promise<Run> {
    const here = await inProcess(args, opts);
    await opts.between?.();
    const there = await throughService(args, opts);
    expect(steady(there), `deskpilot ${args.join(' ')}`).toEqual(steady(here));
    return there;
  }

  const activate = async (title: string) => {
    const target = (await raw.pages()).find((p) => p.title === title)!.targetId;
    await runBin(cli.bin, ['exec', JSON.stringify({ type: 'switch_tab', tab_index: TITLES.indexOf(title) + 1 })], { env: { ...env, DESKPILOT_NO_SERVICE: '1' } });
    await raw.waitFor(async () => (await raw.evaluate(target, 'document.visibilityState')) === 'visible');
  };

  it('help and argument errors: the same text and exit codes', async () => {
    expect((await same(['--help'])).stdout).toMatch(/^Usage: deskpilot/);
    expect((await same(['run', '--help'])).stdout).toMatch(/^Usage: deskpilot run/);
    expect((await same([])).code).toBe(2);
    expect((await same(['help', 'exec'])).stdout).toMatch(/^Usage: deskpilot exec/);
    const bad = await same(['run', '--bogus', 'x']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("unknown option '--bogus'");
  });

  it('exec: the same report, and the tab really switched', async () => {
    const switchTo2 = JSON.stringify({ type: 'switch_tab', tab_index: 2 });
    const run = await same(['exec', switchTo2], { between: () => activate('One') });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).results[0].message).toBe('Switched to tab 2 "Two" (127.0.0.1)');
    const two = (await raw.pages()).find((p) => p.title === 'Two')!.targetId;
    expect(await raw.evaluate(two, 'document.visibilityState')).toBe('visible');

    const invalid = await same(['exec', '{"type":"switch_tab","tab_index":0}']);
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toMatch(/tab_index/);
    expect((await same(['exec', '{not json'])).code).toBe(2);
  });

  it('context, plan, run without a terminal, presets and undo: the same output', async () => {
    const snap = await same(['context', '--json', '--no-summaries']);
    expect(JSON.parse(snap.stdout).tabs.map((t: { title: string }) => t.title)).toEqual(TITLES);
    expect((await same(['context', '--no-summaries'])).stdout).toMatch(/^Chrome — /);
    expect(JSON.parse((await same(['plan', '--planner', 'local', 'switch to three'])).stdout).commands).toEqual([{ type: 'switch_tab', tab_index: 3 }]);
    const ran = await same(['run', '--planner', 'local', 'switch to three'], { between: () => activate('One') });
    expect(ran.stdout).toBe('Switched to tab 3 "Three" (127.0.0.1)\n');
    // No terminal: closing asks, nobody can answer, nothing runs.
    const asks = await same(['run', '--planner', 'local', 'close tab 3']);
    expect(asks.code).toBe(3);
    expect(asks.stderr).toContain('not run: this needs confirmation');
    expect(await raw.titles()).toEqual([...TITLES].sort());
    expect((await same(['presets', 'list'])).stdout).toMatch(/^no presets saved/);
    expect((await same(['presets', 'show', 'nope'])).code).toBe(2);
    await same(['undo']);
    expect((await same(['undo', 'zero'])).code).toBe(2);
  });

  it("relative paths in the arguments mean the client's working directory", async () => {
    const dir = path.join(workDir, 'snaps');
    mkdirSync(dir, { recursive: true });
    const snap = await runBin(cli.bin, ['context', '--json', '--no-summaries'], { env: { ...env, DESKPILOT_NO_SERVICE: '1' } });
    writeFileSync(path.join(dir, 'desk.json'), snap.stdout);
    const dry = await same(['exec', '--dry-run', '--context', 'desk.json', '{"type":"switch_tab","tab_index":4}'], { cwd: dir });
    expect(dry.code).toBe(0);
    expect(JSON.parse(dry.stdout).status).toBe('dry_run');
    const missing = await same(['plan', '--planner', 'local', '--context', 'missing.json', 'switch to two'], { cwd: dir });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(path.join(dir, 'missing.json'));

    // --config-dir relative to where the client runs finds the same service.
    const noEnvDir = { ...env };
    delete noEnvDir.DESKPILOT_CONFIG_DIR;
    const listed = await throughService(['--config-dir', path.basename(configDir), 'presets', 'list'], { env: noEnvDir, cwd: path.dirname(configDir) });
    expect(listed.code).toBe(0);
  });

  it('runs in its own process what needs it: --no-service, the wiring flags, standard input, other commands', async () => {
    const listTabs = JSON.stringify({ type: 'list_tabs' });
    expect((await inProcess(['--no-service', 'exec', listTabs])).code).toBe(0);
    const viaFlag = await runBin(cli.bin, ['--chrome-url', desk.chrome!.browserWsUrl, 'exec', listTabs]);
    expect(viaFlag.code).toBe(0);
    const before = await served('cli');
    const stdin = await runBin(cli.bin, ['exec', '-'], { stdin: listTabs });
    expect(stdin.code).toBe(0);
    expect(JSON.parse(stdin.stdout).status).toBe('done');
    expect((await runBin(cli.bin, ['chrome', 'status'])).code).toBe(0);
    expect(await served('cli')).toBe(before);
  });

  it('a thin client of another build runs the command itself (through the service\'s desk), with the same output', async () => {
    const other = withOtherBuildId(cli);
    onTestFinished(() => other.remove());
    const [cliBefore, execBefore] = [await served('cli'), await served('exec')];
    const switchTo4 = JSON.stringify({ type: 'switch_tab', tab_index: 4 });
    const theirs = await runBin(other.bin, ['exec', switchTo4]);
    expect(await served('cli')).toBe(cliBefore);
    expect(await served('exec')).toBe(execBefore + 1);
    await activate('One');
    const ours = await throughService(['exec', switchTo4]);
    expect(steady(theirs)).toEqual(steady(ours));
    // What the service answered that client: its call, with its build, refused before it ran.
    const cliNow = await served('cli');
    const answer = await new Promise<unknown>((resolve, reject) => {
      const socket = net.connect(socketPath);
      socket.on('error', reject);
      readLines(socket, 1 << 20, (m) => (socket.destroy(), resolve(m)), reject);
      writeLine(socket, { id: 2, method: 'cli', params: { build: other.buildId, argv: ['exec', switchTo4], cwd: workDir, interactive: false } });
    });
    expect(answer).toEqual({ id: 2, ok: false, error: { code: 'refused', message: `this DeskPilot service runs build ${cli.buildId}, not ${other.buildId}: run the command in its own process` } });
    expect(await served('cli')).toBe(cliNow);
  });

  /**
   * The CLI in a real pseudo-terminal (`script`, in a process group of its own): stderr is the
   * terminal (the question, and what is typed, echoed), stdout goes to a file. `atQuestion`
   * runs once the question shows: it types the answer, or takes the terminal away.
   */
  function inTerminal(
    args: string[],
    opts: { inProcess: boolean; atQuestion: (child: ChildProcess) => void },
  ): Promise<{ code: number | null; terminal: string; stdout: string }> {
    return new Promise((resolve, reject) => {
      const outFile = path.join(workDir, `stdout-${Date.now()}-${Math.random().toString(36).slice(2)}`);
      const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
      const cmd = `${[process.execPath, cli.bin, ...args].map(quote).join(' ')} > ${quote(outFile)}`;
      const child = spawn('script', ['-qec', cmd, '/dev/null'], {
        env: opts.inProcess ? { ...env, DESKPILOT_NO_SERVICE: '1' } : env,
        cwd: workDir,
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: true,
      });
      onTestFinished(() => void (child.exitCode === null && child.signalCode === null && process.kill(-child.pid!, 'SIGKILL')));
      let terminal = '';
      let asked = false;
      child.stdout.on('data', (d: Buffer) => {
        terminal += d.toString();
        if (!asked && terminal.includes('Go ahead? [y/N]')) {
          asked = true;
          opts.atQuestion(child);
        }
      });
      child.on('error', reject);
      child.on('close', (code) => {
        const stdout = readFileSync(outFile, 'utf8');
        rmSync(outFile, { force: true });
        resolve({ code, terminal, stdout });
      });
    });
  }

  const typing = (keys: string) => (child: ChildProcess) => child.stdin!.end(keys);

  async function sameInTerminal(args: string[], keys: string, between: () => Promise<void>) {
    const [cliBefore, answersBefore] = [await served('cli'), await served('cli.answer')];
    const here = await inTerminal(args, { inProcess: true, atQuestion: typing(keys) });
    expect(await served('cli')).toBe(cliBefore);
    await between();
    const there = await inTerminal(args, { inProcess: false, atQuestion: typing(keys) });
    expect(there).toEqual(here);
    expect(await served('cli')).toBe(cliBefore + 1);
    expect(await served('cli.answer')).toBe(answersBefore + 1);
    return there;
  }

  const reopenTabs = async () => {
    const before = await raw.pages();
    for (const t of TITLES) await raw.open(desk.pages.url('page', { title: t }));
    for (const p of before) await raw.close(p.targetId);
  };

  it('on a terminal, run asks through the service as it does in-process: "n" keeps the tab, "y" closes it', async () => {
    const closeTab3 = ['run', '--planner', 'local', 'close tab 3'];
    const no = await sameInTerminal(closeTab3, 'n\n', async () => undefined);
    expect(no.code).toBe(3);
    expect(no.terminal).toContain('close tab 3 "Three" (127.0.0.1)');
    expect(no.terminal).toContain('cancelled: nothing was run');
    expect(await raw.titles()).toEqual([...TITLES].sort());

    const yes = await sameInTerminal(closeTab3, 'y\n', async () => {
      expect(await raw.titles()).toEqual(['Four', 'One', 'Two']);
      await reopenTabs();
    });
    expect(yes.code).toBe(0);
    expect(yes.stdout).toBe('Closed 1 tab: tab 3 "Three" (127.0.0.1)\n');
    expect(await raw.titles()).toEqual(['Four', 'One', 'Two']);
  });

  it('on a terminal, Ctrl-D at the question is no: nothing runs, exit code 3 (declined), not a failure', async () => {
    const eof = await sameInTerminal(['run', '--planner', 'local', 'close tab 3'], '\x04', async () => undefined);
    expect(eof.code).toBe(3);
    expect(eof.terminal).toContain('cancelled: nothing was run');
    expect(await raw.titles()).toEqual([...TITLES].sort());
  });

  it('a client that goes away at the question: nothing runs, and the service keeps serving', async () => {
    const gone = await inTerminal(['run', '--planner', 'local', 'close tab 3'], { inProcess: false, atQuestion: (child) => process.kill(-child.pid!, 'SIGKILL') });
    expect(gone.code).not.toBe(0);
    expect(await raw.titles()).toEqual([...TITLES].sort());
    const listed = await throughService(['exec', JSON.stringify({ type: 'list_tabs' })]);
    expect(listed.code).toBe(0);
    expect(await raw.titles()).toEqual([...TITLES].sort());
  });

  it('Ctrl-C while the LLM plans: the service aborts the LLM request, as the CLI stopped in its own process would, and runs nothing', async () => {
    // An OpenAI-compatible endpoint on 127.0.0.1 that never answers and tells when its caller gave up.
    let arrived!: () => void;
    let gaveUp!: () => void;
    const requested = new Promise<void>((resolve) => (arrived = resolve));
    const abandoned = new Promise<void>((resolve) => (gaveUp = resolve));
    const llm = createServer((req, res) => {
      req.resume();
      res.on('close', () => gaveUp());
      arrived();
    });
    await new Promise<void>((resolve) => llm.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => {
      llm.closeAllConnections();
      llm.close();
    });
    const llmDir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-thin-llm-'));
    onTestFinished(() => rmSync(llmDir, { recursive: true, force: true }));
    const llmEnv = {
      ...env,
      DESKPILOT_CONFIG_DIR: llmDir,
      DESKPILOT_LLM_MODEL: 'scripted-model',
      DESKPILOT_LLM_BASE_URL: `http://127.0.0.1:${(llm.address() as AddressInfo).port}/v1`,
      DESKPILOT_LLM_TIMEOUT_MS: '600000',
    };
    const llmService = spawnService(llmEnv, [process.execPath, cli.bin, 'service']);
    const llmSocket = await llmService.listening;

    const client = spawn(process.execPath, [cli.bin, 'run', '--planner', 'llm', '--yes', 'close the third tab'], { env: llmEnv, stdio: 'ignore' });
    onTestFinished(() => void (client.exitCode === null && client.signalCode === null && client.kill('SIGKILL')));
    await requested;
    client.kill('SIGINT');
    await abandoned;
    const counts = (await serviceHealth(llmSocket))?.served ?? {};
    expect(counts).toMatchObject({ cli: 1, plan: 1 });
    expect(counts.run).toBeUndefined();
    expect(await raw.titles()).toEqual([...TITLES].sort());
    await llmService.stop();
  });
});

import { Command as Program, CommanderError, Option } from 'commander';
import type { ConfigFlags } from '../platform/config/load-config';
import type { PlannerMode } from '../protocol/planning';
import { EXIT } from './exit-codes';
import type { Io } from './io';
import { processIo } from './io';
import { errorMessage } from '../engine/errors';
import { VERSION } from './version';

// The CLI's entry: commander and nothing else is loaded up front, so `--help` and a call
// answered by the warm service stay close to a bare `node` start. Each action loads its
// command module when it runs (the build splits the bundle at every dynamic import()).

/** Runs the CLI and resolves with the exit code; never calls process.exit, so it is testable. */
export async function main(argv: string[], io: Io = processIo()): Promise<number> {
  let code: number = EXIT.ok;
  const program = new Program('deskpilot')
    .description('DeskPilot: windows and Chrome tabs by command.')
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.out(s),
      writeErr: (s) => io.err(s),
      // The terminal the text ends up on (the thin client's, when the service runs this for it).
      getOutHelpWidth: () => io.helpWidth?.('out') ?? 80,
      getErrHelpWidth: () => io.helpWidth?.('err') ?? 80,
    })
    .showHelpAfterError('(run `deskpilot --help` for usage)')
    .version(VERSION, '-V, --version', 'print the version')
    .option('--config-dir <dir>', 'config directory (env DESKPILOT_CONFIG_DIR)')
    .option('--chrome-url <url>', 'DevTools endpoint, e.g. http://127.0.0.1:9222 (env DESKPILOT_CHROME_URL)')
    .option('--allow-remote-chrome', 'allow a DevTools endpoint that is not on this machine')
    .option('--no-service', 'run in this process even when a DeskPilot service is running (env DESKPILOT_NO_SERVICE=1)')
    .option('--sync-url <url>', 'the sync server of your devices, ws:// or wss:// (env DESKPILOT_SYNC_URL)');

  const flags = (): ConfigFlags => {
    const o = program.opts<{ configDir?: string; chromeUrl?: string; allowRemoteChrome?: boolean; service: boolean; syncUrl?: string }>();
    return { configDir: o.configDir, chromeUrl: o.chromeUrl, allowRemoteChrome: o.allowRemoteChrome, noService: !o.service, syncUrl: o.syncUrl };
  };

  const jsonOption = () => new Option('--json', 'print the full report as JSON on stdout');
  const verboseOption = () => new Option('--verbose', 'also print the numbers behind each sentence (where windows went)');

  program
    .command('context')
    .description('show the desktop snapshot a planner sees (tabs, windows, monitors, presets)')
    .option('--json', 'print the exact JSON a planner receives')
    .option('--no-summaries', 'skip tab content summaries (faster)')
    .option('--all-devices', 'also what your other devices published (needs sync.url)')
    .action(async (o: { json?: boolean; summaries: boolean; allDevices?: boolean }) => {
      if (o.allDevices) {
        const { runContextAllDevices } = await import('./devices-command');
        code = await runContextAllDevices(flags(), { json: !!o.json, summaries: o.summaries }, io);
        return;
      }
      const { runContext } = await import('./context-command');
      code = await runContext(flags(), { json: !!o.json, summaries: o.summaries }, io);
    });

  program
    .command('windows')
    .description('list every window with its id (window_id in window commands), app, title, monitor, frame and state, topmost first')
    .option('--json', 'print them as JSON')
    .option('--device <name>', '"all": every device\'s windows (this one live, the others as they published), each line naming its device; or one device\'s name')
    .action(async (o: { json?: boolean; device?: string }) => {
      if (o.device !== undefined) {
        const { runWindowsEverywhere } = await import('./every-device-command');
        code = await runWindowsEverywhere(flags(), { device: o.device, json: !!o.json }, io);
        return;
      }
      const { runWindows } = await import('./windows-command');
      code = await runWindows(flags(), { json: !!o.json }, io);
    });

  program
    .command('tabs')
    .description('list the tabs (or those whose title, address or site holds every word) of every device, each line naming its device (this computer alone without sync.url)')
    .argument('[words...]', 'only tabs holding all these words')
    .option('--device <name>', '"all" (default): every device; or one device\'s name (its published tabs)', 'all')
    .option('--by-site', 'count the tabs per site instead, split by device')
    .option('--json', 'print them as JSON')
    .action(async (words: string[], o: { device: string; bySite?: boolean; json?: boolean }) => {
      const { runTabsEverywhere } = await import('./every-device-command');
      code = await runTabsEverywhere(flags(), { device: o.device, json: !!o.json, query: words.join(' '), bySite: !!o.bySite }, io);
    });

  program
    .command('doctor')
    .description('say which window backend this session uses and why (sway/i3, KWin, GNOME, X11), whether it answers, and what is missing')
    .option('--json', 'print it as JSON')
    .action(async (o: { json?: boolean }) => {
      const { runDoctor } = await import('./doctor-command');
      code = await runDoctor(flags(), { json: !!o.json }, io);
    });

  program
    .command('exec')
    .description('validate and execute commands: an envelope, one command, or an array of commands (prints the JSON report)')
    .argument('<json>', 'the JSON, or - to read it from standard input')
    .option('--dry-run', 'validate and resolve only; show what would happen')
    .option('--context <file>', 'resolve against this snapshot (from `deskpilot context --json`)')
    .option('--device <name>', 'run it on another of your devices (by name; needs sync.url)')
    .action(async (json: string, o: { dryRun?: boolean; context?: string; device?: string }) => {
      if (o.device !== undefined) {
        const { runExecOnDevice } = await import('./devices-command');
        code = await runExecOnDevice(flags(), { json, dryRun: !!o.dryRun, device: o.device }, io);
        return;
      }
      const { runExec } = await import('./exec-command');
      code = await runExec(flags(), { json, dryRun: !!o.dryRun, contextFile: o.context }, io);
    });

  const plannerOption = () =>
    new Option('--planner <mode>', 'auto: offline matcher when sure, else the LLM; local; llm').choices(['auto', 'local', 'llm']).default('auto');

  program
    .command('plan')
    .description('turn words into a command envelope (printed as JSON; nothing runs)')
    .argument('<text...>', 'what you want, e.g. "chrome left and cursor right"')
    .addOption(plannerOption())
    .option('--context <file>', 'plan against this snapshot (from `deskpilot context --json`)')
    .option('--explain', 'say on stderr which planner answered, its confidence, time and tokens')
    .action(async (words: string[], o: { planner: PlannerMode; context?: string; explain?: boolean }) => {
      const { runPlan } = await import('./plan-commands');
      code = await runPlan(flags(), { text: words.join(' '), mode: o.planner, contextFile: o.context, explain: o.explain }, io);
    });

  program
    .command('run')
    .description('plan and execute; closing tabs or apps asks first (or --yes)')
    .argument('<text...>', 'what you want, e.g. "close all youtube tabs"')
    .addOption(plannerOption())
    .option('--yes', 'allow commands that close tabs or apps without asking')
    .option('--context <file>', 'plan and resolve against this snapshot')
    .option('--explain', 'say on stderr which planner answered, its confidence, time and tokens')
    .addOption(jsonOption())
    .addOption(verboseOption())
    .action(async (words: string[], o: { planner: PlannerMode; yes?: boolean; context?: string; explain?: boolean; json?: boolean; verbose?: boolean }) => {
      // With sync set up: "… on the work laptop", or every device's desk in the LLM's context.
      if (!o.context) {
        const { maybeRunOnDevice } = await import('./devices-command');
        const remote = await maybeRunOnDevice(flags(), { text: words.join(' '), mode: o.planner, yes: !!o.yes, json: !!o.json }, io);
        if (remote !== null) {
          code = remote;
          return;
        }
      }
      const { runRun } = await import('./plan-commands');
      code = await runRun(
        flags(),
        { text: words.join(' '), mode: o.planner, yes: !!o.yes, contextFile: o.context, explain: o.explain, json: !!o.json, verbose: !!o.verbose },
        io,
      );
    });

  program
    .command('agent')
    .description('carry out a web task in Chrome: the LLM plans steps, you approve them, then it works one command at a time')
    .argument('<goal...>', 'what you want done, e.g. "find the top Hacker News story"')
    .option('--yes', 'run the plan without asking')
    .option('--planner-model <model>', 'model that writes the plan (env DESKPILOT_AGENT_PLANNER_MODEL; default the LLM model)')
    .option('--executor-model <model>', 'model that turns each step into a command (env DESKPILOT_AGENT_EXECUTOR_MODEL; default the LLM model)')
    .option('--max-steps <n>', 'at most this many commands (default 25)')
    .option('--current-tab', "start on the tab you are looking at (the planner sees it) instead of fresh background tabs")
    .option('--tab <words>', 'start on the open tab whose title or address holds these words (like --current-tab)')
    .option('--json', 'print the result as JSON on stdout')
    .action(async (words: string[], o: { yes?: boolean; plannerModel?: string; executorModel?: string; maxSteps?: string; json?: boolean; currentTab?: boolean; tab?: string }) => {
      const maxSteps = o.maxSteps === undefined ? undefined : Number(o.maxSteps);
      if (maxSteps !== undefined && (!Number.isInteger(maxSteps) || maxSteps < 1)) {
        io.err('--max-steps: must be a positive integer\n');
        code = EXIT.invalid;
        return;
      }
      if (o.currentTab && o.tab !== undefined) {
        io.err('--current-tab and --tab: choose one tab to start on\n');
        code = EXIT.invalid;
        return;
      }
      if (o.tab !== undefined && !o.tab.trim()) {
        io.err('--tab: give words from the title or address of the tab to start on\n');
        code = EXIT.invalid;
        return;
      }
      const { runAgentCommand, defaultAgentDeps } = await import('./agent-command');
      code = await runAgentCommand(
        flags(),
        { goal: words.join(' '), yes: !!o.yes, json: !!o.json, plannerModel: o.plannerModel, executorModel: o.executorModel, maxSteps, currentTab: !!o.currentTab, ...(o.tab !== undefined ? { tab: o.tab } : {}) },
        io,
        defaultAgentDeps(),
      );
    });

  const presets = program.command('presets').description('saved window layouts');
  const presetCommands = () => import('./preset-commands');
  presets
    .command('list')
    .description('list the saved presets')
    .option('--json', 'print them as JSON, as saved')
    .action(async (o: { json?: boolean }) => {
      code = await (await presetCommands()).runPresetsList(flags(), { json: !!o.json }, io);
    });
  presets
    .command('show')
    .argument('<name>')
    .description('print one preset as JSON')
    .action(async (name: string) => {
      code = await (await presetCommands()).runPresetsShow(flags(), name, io);
    });
  presets
    .command('save')
    .argument('<name>')
    .option('--apps <list>', 'comma-separated app names (default: every visible window)')
    .description('save the current arrangement as a preset (replaces one of the same name)')
    .action(async (name: string, o: { apps?: string }) => {
      const apps = o.apps?.split(',').map((a) => a.trim()).filter(Boolean);
      code = await (await presetCommands()).runPresetsSave(flags(), name, apps, io);
    });
  presets
    .command('delete')
    .argument('<name>')
    .description('delete a preset')
    .action(async (name: string) => {
      code = await (await presetCommands()).runPresetsDelete(flags(), name, io);
    });
  presets
    .command('apply')
    .argument('<name>')
    .description('apply a preset (same as exec {"type":"activate_preset",…})')
    .addOption(jsonOption())
    .addOption(verboseOption())
    .action(async (name: string, o: { json?: boolean; verbose?: boolean }) => {
      code = await (await presetCommands()).runPresetsApply(flags(), name, { json: !!o.json, verbose: !!o.verbose }, io);
    });

  program
    .command('undo')
    .argument('[steps]', 'how many window-changing batches to undo', '1')
    .description('put windows back where they were before the last change(s)')
    .addOption(jsonOption())
    .addOption(verboseOption())
    .action(async (steps: string, o: { json?: boolean; verbose?: boolean }) => {
      const n = Number(steps);
      if (!Number.isInteger(n) || n < 1) {
        io.err('steps: must be a positive integer\n');
        code = EXIT.invalid;
        return;
      }
      code = await (await presetCommands()).runUndo(flags(), n, { json: !!o.json, verbose: !!o.verbose }, io);
    });

  const service = program
    .command('service')
    .description('keep one DeskPilot engine warm for the CLI, the app and MCP clients (foreground; Ctrl-C stops it)')
    .action(async () => {
      const { runService } = await import('./service-command');
      code = await runService(flags(), io, main);
    });
  service
    .command('status')
    .description('say whether a service runs for this config directory, and what it is connected to')
    .action(async () => {
      const { runServiceStatus } = await import('./service-command');
      code = await runServiceStatus(flags(), io);
    });
  service
    .command('install')
    .description('start the service with your session: a systemd user unit (Linux) or a LaunchAgent (macOS), enabled at once')
    .option('--no-enable', 'only write the unit; print the command that enables it')
    .action(async (o: { enable: boolean }) => {
      const { runServiceInstall } = await import('./service-install-command');
      code = await runServiceInstall(flags(), { enable: o.enable }, io);
    });
  service
    .command('uninstall')
    .description('stop and disable the service unit, and remove it')
    .option('--no-disable', 'only remove the file; do not call systemctl/launchctl')
    .action(async (o: { disable: boolean }) => {
      const { runServiceUninstall } = await import('./service-install-command');
      code = await runServiceUninstall({ disable: o.disable }, io);
    });

  const devices = program
    .command('devices')
    .description('your devices on the sync server (sync.url): list them, pair this one, remove one')
    .option('--json', 'print them as JSON')
    .action(async (o: { json?: boolean }) => {
      const { runDevicesList } = await import('./devices-command');
      code = await runDevicesList(flags(), { json: !!o.json }, io);
    });
  devices
    .command('pair')
    .description('pair this device: as the first of your devices, or --join with the code `devices invite` shows on a paired one')
    .option('--join', 'join your other devices: asks for the pairing code (or reads it from standard input)')
    .option('--yes', 'ask nothing: no device may act here without asking (change it later with `devices allow`)')
    .action(async (o: { join?: boolean; yes?: boolean }) => {
      const { runDevicesPair } = await import('./devices-command');
      code = await runDevicesPair(flags(), { join: !!o.join, yes: !!o.yes }, io);
    });
  devices
    .command('invite')
    .description('show a one-time pairing code (and this device\'s key) for a new device, and wait for it')
    .option('--yes', 'ask nothing: the new device may not act here without asking')
    .action(async (o: { yes?: boolean }) => {
      const { runDevicesInvite } = await import('./devices-command');
      code = await runDevicesInvite(flags(), { yes: !!o.yes }, io);
    });
  devices
    .command('allow')
    .argument('<name>', 'a device this one trusts, by name (or id)')
    .description('whether that device may close tabs, quit apps and undo here without asking (default: it asks)')
    .option('--without-asking', 'it may, without a yes here')
    .option('--ask', 'it needs a yes here each time (the default)')
    .action(async (name: string, o: { withoutAsking?: boolean; ask?: boolean }) => {
      const { runDevicesAllow } = await import('./devices-command');
      if (!!o.withoutAsking === !!o.ask) {
        io.err('devices allow: say --without-asking or --ask\n');
        code = 2;
        return;
      }
      code = await runDevicesAllow(flags(), name, { withoutAsking: !!o.withoutAsking }, io);
    });
  devices
    .command('requests')
    .description("other devices' requests to close tabs, quit apps or undo here, waiting for your yes (in the running service)")
    .option('--json', 'print them as JSON')
    .action(async (o: { json?: boolean }) => {
      const { runDevicesRequests } = await import('./consent-command');
      // `devices` has a --json of its own, which takes the flag when it is written after `requests` too.
      code = await runDevicesRequests(flags(), { json: !!o.json || !!devices.opts().json }, io);
    });
  for (const [verb, yes] of [['approve', true], ['deny', false]] as const) {
    devices
      .command(verb)
      .argument('<id>', 'the request, as `devices requests` lists it')
      .description(yes ? 'let that request run on this desk' : 'refuse that request: nothing runs, the other device is told')
      .action(async (id: string) => {
        const { runDevicesAnswer } = await import('./consent-command');
        code = await runDevicesAnswer(flags(), id, yes, io);
      });
  }
  devices
    .command('remove')
    .argument('<name>', 'the device, by name (or id)')
    .description('remove a device: no desk trusts it any more, the document key changes, and the sync server refuses it')
    .action(async (name: string) => {
      const { runDevicesRemove } = await import('./devices-command');
      code = await runDevicesRemove(flags(), name, io);
    });

  program
    .command('sync-server')
    .description('serve the sync server your devices share (Hocuspocus, SQLite; put it behind TLS)')
    .option('--port <n>', 'port (0: a free one)', '8766')
    .option('--host <address>', 'address to bind (a reverse proxy on the same machine: keep 127.0.0.1)', '127.0.0.1')
    .option('--data <file>', 'SQLite file (default: sync-server.sqlite in the config directory)')
    .option('--redis <url>', 'share the load with other server processes: redis://host:port or unix:///path')
    .action(async (o: { port: string; host: string; data?: string; redis?: string }) => {
      const { runSyncServer } = await import('./sync-server-command');
      code = await runSyncServer(flags(), o, io);
    });

  program
    .command('mcp')
    .description('serve DeskPilot to MCP clients (Claude Desktop, Cursor, VS Code…) over stdio, or Streamable HTTP with --http')
    .option('--http', 'serve Streamable HTTP on 127.0.0.1 with a bearer token, instead of stdio')
    .option('--port <n>', 'HTTP port (0: a free one)', '8765')
    .option('--host <address>', 'HTTP address to bind', '127.0.0.1')
    .option('--allow-non-loopback', 'allow --host to be an address other computers can reach')
    .option('--new-token', 'replace the HTTP bearer token with a new one (shown once)')
    .action(async (o: { http?: boolean; port: string; host: string; allowNonLoopback?: boolean; newToken?: boolean }) => {
      const { runMcp } = await import('./mcp-command');
      code = await runMcp(flags(), { http: !!o.http, port: o.port, host: o.host, allowNonLoopback: !!o.allowNonLoopback, newToken: !!o.newToken }, io);
    });

  const gnome = program.command('gnome-extension').description("DeskPilot's GNOME Shell extension: how window commands reach windows on GNOME (Wayland)");
  for (const [verb, description] of [
    ['install', 'copy it into ~/.local/share/gnome-shell/extensions and enable it (GNOME loads it at your next login)'],
    ['uninstall', 'disable it and remove its files'],
    ['status', 'say whether it is installed, enabled, and answering'],
  ] as const) {
    gnome
      .command(verb)
      .description(description)
      .action(async () => {
        const cmd = await import('./gnome-extension-command');
        const run = { install: cmd.runGnomeExtensionInstall, uninstall: cmd.runGnomeExtensionUninstall, status: cmd.runGnomeExtensionStatus }[verb];
        code = await run(io);
      });
  }

  const chrome = program.command('chrome').description('the Chrome connection');
  chrome
    .command('status')
    .description('say where DeskPilot connects to Chrome, and whether it works')
    .action(async () => {
      const { runChromeStatus } = await import('./chrome-commands');
      code = await runChromeStatus(flags(), io);
    });
  chrome
    .command('launch')
    .description("start Chrome with DeskPilot's own profile and remote debugging (reuses a running one)")
    .addOption(new Option('--executable <path>', 'Chrome or Chromium binary (env DESKPILOT_CHROME_PATH)'))
    .action(async (o: { executable?: string }) => {
      const { runChromeLaunch } = await import('./chrome-commands');
      code = await runChromeLaunch(flags(), { executable: o.executable }, io);
    });

  try {
    await program.parseAsync(argv, { from: 'user' });
    return code;
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? EXIT.ok : EXIT.invalid;
    // Loaded only when something failed: a bad config file is the user's input, not a crash.
    const { ConfigError } = await import('../platform/config/load-config');
    if (e instanceof ConfigError) {
      io.err(`deskpilot: ${e.message}\n`);
      return EXIT.invalid;
    }
    io.err(`deskpilot: ${errorMessage(e)}\n`);
    return EXIT.failed;
  }
}

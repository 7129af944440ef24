import type { OpenSync } from '../compose/device-sync';
import { DeskPilotError, errorMessage } from '../engine/errors';
import type { ContextSnapshot } from '../protocol/context';
import { parseJsonOf } from '../protocol/json-syntax';
import type { PlannerMode } from '../protocol/planning';
import { itemsToConfirm } from '../protocol/prepared-batch';
import { emptyReport, type ExecReport } from '../protocol/report';
import type { DeviceRow, DeviceView } from '../protocol/sync';
import type { PlanResult } from '../engine/engine';
import { loadConfig, type ConfigFlags } from '../platform/config/load-config';
import { exitCodeFor } from './exec-command';
import { EXIT } from './exit-codes';
import { formatContext } from './format-context';
import type { Io } from './io';
import { openDesk } from './open-desk';
import { CONFIRM_ALL, confirmationText } from './plan-commands';
import { tellReport } from './tell-report';

// `deskpilot devices` (list, pair, remove) and the commands that reach another device:
// `exec --device NAME`, `context --all-devices`, and `run "… on <device>"`. Each opens a short
// sync session (connect, sync, act, flush, close); the warm service's device worker is what
// answers on the other side.

export async function withSync<T>(flags: ConfigFlags, io: Io, fn: (s: OpenSync) => Promise<T>): Promise<T | number> {
  const { openSync } = await import('../compose/device-sync');
  let session: OpenSync;
  try {
    session = await openSync(await loadConfig(flags));
  } catch (e) {
    io.err(`deskpilot: ${errorMessage(e)}\n`);
    return EXIT.failed;
  }
  try {
    return await fn(session);
  } finally {
    await session.close();
  }
}

const ago = (ms: number) => (ms < 90_000 ? `${Math.max(0, Math.round(ms / 1000))} s ago` : ms < 90 * 60_000 ? `${Math.round(ms / 60_000)} min ago` : `${Math.round(ms / 3_600_000)} h ago`);

function statusOf(v: DeviceView, now: number): string {
  if (v.device.removed_at !== undefined) return `removed ${new Date(v.device.removed_at).toISOString().slice(0, 16).replace('T', ' ')}`;
  if (v.online) return 'online';
  return `offline, last seen ${ago(now - v.device.last_seen)}`;
}

export async function runDevicesList(flags: ConfigFlags, o: { json: boolean }, io: Io): Promise<number> {
  const r = await withSync(flags, io, async (s) => {
    const views = s.remote.list();
    if (o.json) {
      io.out(JSON.stringify({ devices: views.map(({ snapshot, ...v }) => ({ ...v, tabs: snapshot?.tabs.length ?? null })) }, null, 2) + '\n');
      return EXIT.ok;
    }
    const now = Date.now();
    const rows = views.map((v) => [v.this_device ? '*' : ' ', v.device.name, statusOf(v, now), v.device.platform, v.snapshot ? `${v.snapshot.tabs.length} tabs` : '—', v.device.id.slice(0, 8)]);
    const widths = [1, 4, 6, 8, 4, 2].map((w, i) => Math.max(w, ...rows.map((r) => r[i]!.length)));
    io.out(`${rows.length} device${rows.length === 1 ? '' : 's'} (* = this one)\n`);
    for (const r of rows) io.out(r.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd() + '\n');
    return EXIT.ok;
  });
  return r;
}

/** Asks in a terminal; with nobody to answer, the answer is no. */
function pairingUi(io: Io, assumeNo: boolean) {
  return {
    say: (line: string) => io.out(line + '\n'),
    yes: async (question: string) => {
      if (assumeNo || !io.interactive()) return false;
      return /^y(es)?$/i.test((await io.ask(question)).trim());
    },
  };
}

const HOW_TO_ALLOW = 'A device may close tabs, quit apps or undo here only after a yes here, unless you allow it: `deskpilot devices allow NAME --without-asking` (and `--ask` to go back).\n';

export async function runDevicesPair(flags: ConfigFlags, o: { join: boolean; yes?: boolean }, io: Io): Promise<number> {
  const config = await loadConfig(flags);
  const { notConfigured } = await import('../compose/device-sync');
  if (!config.sync) {
    io.err(`deskpilot: ${notConfigured().message}\n`);
    return EXIT.invalid;
  }
  const { pairFirst, joinWithCode } = await import('../compose/device-pairing');
  try {
    if (!o.join) {
      const paired = await pairFirst(config);
      io.out(
        `Paired this device as "${config.sync.deviceName.value}" with ${config.sync.url.value}, as the first of your devices.\n` +
          `Its key: ${paired.fingerprint}\n\n` +
          'To add another computer: set the same sync.url there, run `deskpilot devices invite` here, and enter the code it shows with `deskpilot devices pair --join` there.\n',
      );
      return EXIT.ok;
    }
    // Asked for, or read from standard input: never a command-line argument, which the shell's
    // history and the process list would keep.
    const typed = io.interactive() ? await io.ask('Pairing code (from `deskpilot devices invite` on a paired device): ') : await io.readStdin();
    const joined = await joinWithCode(config, typed, pairingUi(io, !!o.yes));
    io.out(`Paired this device as "${config.sync.deviceName.value}" with "${joined.inviter.name}" and the devices it trusts.\nThis device's key: ${joined.fingerprint} (the other device shows it too: compare)\n` + HOW_TO_ALLOW);
    return EXIT.ok;
  } catch (e) {
    io.err(`deskpilot: not paired: ${errorMessage(e)}\n`);
    return e instanceof DeskPilotError && e.code === 'invalid_input' ? EXIT.invalid : EXIT.failed;
  }
}

/** `devices invite`: shows a pairing code and this device's key, waits for the new device (Ctrl-C withdraws the invitation). */
export async function runDevicesInvite(flags: ConfigFlags, o: { yes?: boolean }, io: Io): Promise<number> {
  const config = await loadConfig(flags);
  const { inviteDevice } = await import('../compose/device-pairing');
  const ac = new AbortController();
  const onSignal = () => ac.abort();
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const joiner = await inviteDevice(
      config,
      pairingUi(io, !!o.yes),
      (i) =>
        io.out(
          `On the new computer (same sync.url), run \`deskpilot devices pair --join\` and enter this code (valid until ${new Date(i.expiresAt).toISOString().slice(11, 16)} UTC, once):\n\n  ${i.code}\n\n` +
            `It will show this device's key, which must be:\n  ${i.fingerprint}\nWaiting for it… (Ctrl-C withdraws the code)\n`,
        ),
      ac.signal,
    );
    io.out(`Paired "${joiner.name}". ` + HOW_TO_ALLOW);
    return EXIT.ok;
  } catch (e) {
    if (e instanceof DeskPilotError && e.code === 'cancelled') {
      io.err('cancelled: the code was withdrawn\n');
      return EXIT.needsUser;
    }
    io.err(`deskpilot: ${errorMessage(e)}\n`);
    return EXIT.failed;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/** `devices allow NAME --without-asking | --ask`: whether that device may act here without a yes here. */
export async function runDevicesAllow(flags: ConfigFlags, name: string, o: { withoutAsking: boolean }, io: Io): Promise<number> {
  const { allowDevice } = await import('../compose/device-pairing');
  try {
    const done = await allowDevice(await loadConfig(flags), name, o.withoutAsking);
    io.out(o.withoutAsking ? `"${done.name}" may now close tabs, quit apps and undo here without asking\n` : `"${done.name}" now needs a yes here to close tabs, quit apps or undo\n`);
    return EXIT.ok;
  } catch (e) {
    io.err(`deskpilot: ${errorMessage(e)}\n`);
    return e instanceof DeskPilotError && e.code === 'invalid_input' ? EXIT.invalid : EXIT.failed;
  }
}

export async function runDevicesRemove(flags: ConfigFlags, name: string, io: Io): Promise<number> {
  const { removeDevice } = await import('../compose/device-pairing');
  try {
    const r = await removeDevice(await loadConfig(flags), name);
    io.out(
      r.self
        ? `Removed this device ("${r.name}"): its keys here are forgotten, and the sync server refuses it from now on\n`
        : `Removed "${r.name}": no longer trusted here, the other devices are told (signed), the document key is new (epoch ${r.epoch}), and the sync server refuses it from now on\n`,
    );
    return EXIT.ok;
  } catch (e) {
    io.err(`deskpilot: ${errorMessage(e)}\n`);
    return e instanceof DeskPilotError && e.code === 'invalid_input' ? EXIT.invalid : EXIT.failed;
  }
}

export async function runExecOnDevice(flags: ConfigFlags, o: { json: string; dryRun: boolean; device: string }, io: Io): Promise<number> {
  const parsed = parseJsonOf('input', o.json === '-' ? await io.readStdin() : o.json);
  if (!parsed.ok) {
    io.err(`${parsed.error}\n`);
    return EXIT.invalid;
  }
  return withSync(flags, io, async (s) => {
    const found = s.remote.find(o.device);
    if (!found.ok) {
      io.err(`deskpilot: ${found.message}\n`);
      return EXIT.invalid;
    }
    const askedBy = `someone at "${s.sync.deviceName.value}", with \`deskpilot exec --device\``;
    const report = await whileWaiting(io, (signal) => s.remote.desk(found.device).exec(parsed.value, { dryRun: o.dryRun, signal, askedBy })).catch(reportOfFailure);
    tellReport(report, io, { json: true, extra: { device: { id: found.device.id, name: found.device.name } } });
    return exitCodeFor(report);
  });
}

export async function runContextAllDevices(flags: ConfigFlags, o: { json: boolean; summaries: boolean }, io: Io): Promise<number> {
  return withSync(flags, io, async (s) => {
    const desk = await openDesk(flags, io);
    let here: ContextSnapshot;
    try {
      here = await desk.snapshot({ summaries: o.summaries });
    } finally {
      await desk.close();
    }
    const views = s.remote.list().map((v) => (v.this_device ? { ...v, online: true, snapshot: here, problem: null } : v));
    if (o.json) {
      io.out(JSON.stringify({ devices: views }, null, 2) + '\n');
      return EXIT.ok;
    }
    const now = Date.now();
    for (const v of views) {
      if (v.device.removed_at !== undefined) continue;
      io.out(`== ${v.device.name}${v.this_device ? ' (this device)' : ''} — ${statusOf(v, now)} ==\n`);
      io.out(v.snapshot ? formatContext(v.snapshot) : `  ${v.problem}\n`);
      io.out('\n');
    }
    return EXIT.ok;
  });
}

const UNNAMED_SYNC_WAIT_MS = 5_000;

export interface RunOnDeviceArgs {
  text: string;
  mode: PlannerMode;
  yes: boolean;
  json: boolean;
}

/**
 * `run` with sync set up. Words that name a paired device ("… on the work laptop") are planned
 * against that device's published desk; otherwise, when the LLM may plan, its context carries
 * every device's desk, tagged by device, so it can name one ("… on my work machine") or say
 * which one has a tab. A plan for another device is confirmed here (nobody may sit at the
 * other computer) and sent there. Null: nothing of this applies, the caller runs the words here.
 */
export async function maybeRunOnDevice(flags: ConfigFlags, args: RunOnDeviceArgs, io: Io): Promise<number | null> {
  const config = await loadConfig(flags);
  // "… on all my computers": a read answered from every device's desk (every-device-command.ts).
  const { splitEveryDevice } = await import('../engine/local-planner/every-device-words');
  const rest = config.sync ? splitEveryDevice(args.text) : null;
  if (rest !== null) {
    const { runWordsEverywhere } = await import('./every-device-command');
    return runWordsEverywhere(flags, { rest, json: args.json }, io);
  }
  const named = /\b(on|at)\b/i.test(args.text);
  const llmMayPlan = args.mode !== 'local' && config.llm !== null;
  if (!config.sync || (!named && !llmMayPlan)) return null;
  const thisName = config.sync.deviceName.value;
  const { openSync } = await import('../compose/device-sync');
  const { splitDeviceTarget } = await import('../app/sync/device-target');
  let session: OpenSync;
  try {
    // Words that name no device only add the other desks to the LLM's context: a sync server that
    // is down must not hold them up long.
    session = await openSync(config, undefined, named ? {} : { timeoutMs: UNNAMED_SYNC_WAIT_MS });
  } catch (e) {
    io.err(`note: other devices are not reachable (${errorMessage(e)}); planning for this one\n`);
    return null;
  }
  try {
    const target = named ? splitDeviceTarget(args.text, session.remote.list().map((v) => v.device)) : null;
    if (!target || target.device.id === session.deviceId) {
      const context = session.remote.devicesContext(thisName);
      if (!llmMayPlan || context.others.length === 0) return null;
      const { runRun } = await import('./plan-commands');
      const elsewhere = async (planned: PlanResult) => {
        const found = session.remote.find(planned.outcome.envelope.device!);
        if (!found.ok) throw new DeskPilotError(`device: ${found.message}`, 'invalid_input');
        return sendPlanned(session, found.device, planned, args, io);
      };
      return await runRun(flags, { text: args.text, mode: args.mode, yes: args.yes, json: args.json, devices: { context, elsewhere } }, io);
    }
    const { device } = target;
    const snapshot = await session.remote.snapshotOf(device, { fresh: true });
    const desk = await openDesk(flags, io);
    let planned;
    try {
      planned = await desk.plan(target.text, { mode: args.mode, snapshot });
    } finally {
      await desk.close();
    }
    return await sendPlanned(session, device, planned, args, io);
  } catch (e) {
    io.err(`deskpilot: ${errorMessage(e)}\n`);
    return EXIT.failed;
  } finally {
    await session.close();
  }
}

/** A plan for another device: its question said here, else confirmed here and sent there. */
async function sendPlanned(session: OpenSync, device: DeviceRow, planned: PlanResult, args: RunOnDeviceArgs, io: Io): Promise<number> {
  const { outcome } = planned;
  if (outcome.envelope.needs_clarification || !planned.batch) {
    const reason = outcome.envelope.clarification_reason ?? 'nothing to do';
    if (args.json) io.out(JSON.stringify({ status: 'clarification', clarification: { reason }, envelope: outcome.envelope, device: device.name }, null, 2) + '\n');
    io.err(`needs clarification: ${reason}\n`);
    return EXIT.needsUser;
  }
  const batch = session.remote.adopt(device, planned.batch);
  // The sender confirms: the other device may have nobody in front of it.
  const list = confirmationText(itemsToConfirm(batch, CONFIRM_ALL));
  if (list && !args.yes) {
    if (!io.interactive()) {
      io.err(`not run: this needs confirmation — run again with --yes to allow, on "${device.name}":\n${list}`);
      return EXIT.needsUser;
    }
    const answer = await io.ask(`On "${device.name}" this will:\n${list}Go ahead? [y/N] `);
    if (!/^y(es)?$/i.test(answer.trim())) {
      io.err('cancelled: nothing was sent\n');
      return EXIT.needsUser;
    }
  }
  const askedBy = `someone at "${session.sync.deviceName.value}" typed "${args.text.slice(0, 120)}"${list ? (args.yes ? ' (--yes given there)' : ' and said yes there') : ''}`;
  const report = await whileWaiting(io, (signal) => session.remote.run(device, batch, signal, askedBy)).catch(reportOfFailure);
  if (!args.json) io.out(`On "${device.name}":\n`);
  tellReport(report, io, { json: args.json, extra: { envelope: outcome.envelope, planner: outcome.planner, device: { id: device.id, name: device.name } } });
  return exitCodeFor(report);
}

/** Waiting for the other device ended without its report: withdrawn (cancelled), expired or unreachable (unavailable). */
function reportOfFailure(e: unknown): ExecReport {
  const status = e instanceof DeskPilotError && e.code === 'cancelled' ? 'cancelled' : 'unavailable';
  return emptyReport(status, { errors: [{ path: '', message: errorMessage(e) }] });
}

/**
 * Ctrl-C (or SIGTERM) while waiting for another device withdraws the command: its row is
 * deleted, so the device never runs it. The listeners live only while waiting. When the warm
 * service runs this for a thin client, an Io that carries the client's `signal` (the client
 * went away) withdraws it too.
 */
async function whileWaiting<T>(io: Io, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const ac = new AbortController();
  const onSignal = () => ac.abort();
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const client = (io as { signal?: AbortSignal }).signal;
  try {
    return await fn(client ? AbortSignal.any([ac.signal, client]) : ac.signal);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

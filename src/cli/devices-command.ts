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

async function withSync<T>(flags: ConfigFlags, io: Io, fn: (s: OpenSync) => Promise<T>): Promise<T | number> {
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

export async function runDevicesPair(flags: ConfigFlags, o: { join: boolean }, io: Io): Promise<number> {
  const config = await loadConfig(flags);
  const { pairDevice, notConfigured } = await import('../compose/device-sync');
  if (!config.sync) {
    io.err(`deskpilot: ${notConfigured().message}\n`);
    return EXIT.invalid;
  }
  let secret: string | null = null;
  if (o.join) {
    const { parseUserSecret } = await import('../platform/sync/sync-secret');
    // Asked for, or read from standard input: never a command-line argument, which the shell's
    // history and the process list would keep.
    const typed = io.interactive() ? await io.ask('Sync secret (from `deskpilot devices pair` on your first device): ') : await io.readStdin();
    const parsed = parseUserSecret(typed);
    if (!parsed.ok) {
      io.err(`deskpilot: ${parsed.message}\n`);
      return EXIT.invalid;
    }
    secret = parsed.secret;
  }
  try {
    const paired = await pairDevice(config, { secret });
    io.out(`Paired this device as "${config.sync.deviceName.value}" with ${config.sync.url.value}; its key is in ${paired.credentialAt}\n`);
    if (paired.newSecret) {
      io.out(
        `\nYour sync secret (shown only now; keep it in a password manager):\n\n  ${paired.newSecret}\n\n` +
          'On each other computer set the same sync.url and run `deskpilot devices pair --join`, then enter it.\n',
      );
    }
    return EXIT.ok;
  } catch (e) {
    io.err(`deskpilot: not paired: ${errorMessage(e)}\n`);
    return EXIT.failed;
  }
}

export async function runDevicesRemove(flags: ConfigFlags, name: string, io: Io): Promise<number> {
  return withSync(flags, io, async (s) => {
    const found = s.remote.find(name);
    if (!found.ok) {
      io.err(`deskpilot: ${found.message}\n`);
      return EXIT.invalid;
    }
    const { device } = found;
    s.conn.doc.markRemoved(device.id, Date.now());
    try {
      await s.conn.flushed();
    } catch (e) {
      io.err(`deskpilot: ${errorMessage(e)}; "${device.name}" may not be removed yet\n`);
      return EXIT.failed;
    }
    if (device.id === s.deviceId) {
      const { credentialFile } = await import('../platform/sync/credential-file');
      await credentialFile((await loadConfig(flags)).configDir.value).remove();
    }
    io.out(`Removed "${device.name}": the sync server refuses it from now on (pair it again with the sync secret to bring it back)\n`);
    return EXIT.ok;
  });
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
    const report = await whileWaiting(io, (signal) => s.remote.desk(found.device).exec(parsed.value, { dryRun: o.dryRun, signal })).catch(reportOfFailure);
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
  const report = await whileWaiting(io, (signal) => session.remote.run(device, batch, signal)).catch(reportOfFailure);
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

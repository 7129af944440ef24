import type { Envelope } from '../protocol/commands';
import type { ContextSnapshot } from '../protocol/context';
import type { AppStatus, CommandResponse, DeviceBadge, DeviceList, HotkeyStatus, IpcEvent, IpcEventPayloads, SettingsView } from '../protocol/ipc';
import type { PlannerMode } from '../protocol/planning';
import { itemsToConfirm, type PreparedBatch } from '../protocol/prepared-batch';
import { emptyReport, type ExecReport } from '../protocol/report';
import { formatFieldError } from '../protocol/validation';
import { DeskPilotError, errorMessage } from '../engine/errors';
import { droppedReport } from '../engine/prepare';
import type { SettingsStore } from '../platform/config/settings-store';
import type { IpcHandlers } from '../protocol/ipc';
import { AgentService, type AgentFactory } from './agent-service';
import type { Desk } from './desk';
import { RemoteDesk } from './remote-desk';
import { LauncherService } from './launcher-service';
import { DeviceDesk } from './sync/device-desk';
import type { RemoteDevices } from './sync/remote-devices';

const badge = (t: Target): { device?: DeviceBadge } => (t.device ? { device: t.device } : {});

// What the app does for its windows, free of Electron so the web test harness serves the
// very same logic: plan words, hold a plan that needs a yes or a choice, run it against the
// snapshot it was planned on, and keep settings. src/main wires it to ipcMain. The desk is
// an engine in this process (served to the CLI on the socket), or the running service's.

export interface AppServiceDeps {
  /**
   * Opens the desk: an engine built from the current configuration and secrets, or the
   * running service. Called again after settings change, and when the service went away.
   */
  desk(): Promise<Desk>;
  settings: SettingsStore;
  hotkeys(): { launcher: HotkeyStatus; voice: HotkeyStatus };
  /** Told after settings were saved (re-register hotkeys, login item). */
  settingsChanged?(view: SettingsView): void | Promise<void>;
  hideWindow(): boolean;
  /** The launcher's content is this tall: size its window to it (false where nothing was resized). */
  fitWindow?(height: number): boolean;
  launchChrome(): Promise<string>;
  transcribe(audio: Uint8Array, mime: string, settings: SettingsView): Promise<string>;
  voiceConfigured(settings: SettingsView): Promise<boolean>;
  /** A confirmation opened or closed in a window (main stops hiding on blur meanwhile). */
  modalChanged?(open: boolean): void;
  /** The app window the user was in when the launcher opened (remembered by main before showing). */
  frontmost?(): { app: string; title: string } | null;
  /** Agent mode's models, options and browser, from the current configuration (agent-service.ts). */
  agent?: AgentFactory;
  /**
   * The user's other devices (sync set up and this computer paired): null when sync is not set
   * up; throws saying why they cannot be reached.
   */
  devices?(): Promise<RemoteDevices | null>;
  /** The same, only if connected now (else null, and it starts connecting): planning never waits for the sync server. */
  devicesNow?(): RemoteDevices | null;
  /** Pushes an event to the windows ('agent:update'). */
  emit?<E extends IpcEvent>(event: E, payload: IpcEventPayloads[E]): void;
  now?: () => number;
}

/** Where a request runs: this desk, or another device's (its badge then says which). */
interface Target {
  desk: Desk;
  device?: DeviceBadge;
}

/** A prepared batch waiting for a yes, or prepared choices waiting for a pick — for the desk that prepared it. */
type Pending =
  | { kind: 'confirm'; text: string; envelope: Envelope; batch: PreparedBatch; planner: 'local' | 'llm' | null; at: number; target: Target }
  | { kind: 'clarification'; text: string; choices: Array<{ envelope: Envelope; batch: PreparedBatch }>; planner: 'local' | 'llm'; at: number; target: Target };

/** A held plan expires: acting on a snapshot from long ago would be acting on a guess. */
const PENDING_TTL_MS = 5 * 60 * 1000;

export class AppService {
  private current: Desk | null = null;
  private opening: Promise<Desk> | null = null;
  private readonly pending = new Map<string, Pending>();
  private inFlight: AbortController | null = null;
  private seq = 0;
  private readonly now: () => number;
  private readonly agent: AgentService;
  private readonly launcher: LauncherService;

  constructor(private readonly deps: AppServiceDeps) {
    this.now = deps.now ?? Date.now;
    this.agent = new AgentService({ factory: deps.agent, emit: (view) => deps.emit?.('agent:update', view) });
    this.launcher = new LauncherService({
      desk: () => this.desk(),
      settings: () => deps.settings.view(),
      emit: (index) => deps.emit?.('launcher:index', index),
      now: deps.now,
    });
  }

  /** Warm start: the engine (and with it the Chrome connection) is ready before the first command. */
  async start(): Promise<void> {
    const desk = await this.desk();
    // Connect to Chrome and the window backend now, not on the first command; a failure here
    // is only a status (the status line says how to fix it).
    await desk.health().catch(() => undefined);
  }

  async dispose(): Promise<void> {
    this.inFlight?.abort();
    this.launcher.dispose();
    await this.agent.dispose();
    await this.closeDesk();
  }

  private async desk(): Promise<Desk> {
    // The service this app was a client of stopped: open again (this app may now host the engine itself).
    if (this.current instanceof RemoteDesk && !this.current.connected) await this.closeDesk();
    if (this.current) return this.current;
    this.opening ??= this.deps.desk().finally(() => {
      this.opening = null;
    });
    this.current = await this.opening;
    return this.current;
  }

  private async closeDesk(): Promise<void> {
    const old = this.current;
    this.current = null;
    await old?.close();
  }

  private nextId(): string {
    return `r${++this.seq}-${this.now().toString(36)}`;
  }

  handlers(): IpcHandlers {
    return {
      'app:status': () => this.status(),
      'command:submit': (r) => this.submit(r.text, r.mode ?? 'auto', r.device),
      'command:choose': (r) => this.choose(r.id, r.candidate),
      'command:confirm': (r) => this.confirm(r.id, r.accept),
      'command:cancel': async () => {
        const had = this.inFlight !== null;
        this.inFlight?.abort();
        return { cancelled: had };
      },
      'presets:list': async () => (await this.desk()).listPresets(),
      'presets:apply': (r) => this.prepareAndRun(this.nextId(), `preset ${r.name}`, { commands: [{ type: 'activate_preset', preset_name: r.name }], needs_clarification: false, clarification_reason: null }),
      'presets:save': async (r) => (await this.desk()).savePreset(r.name, r.apps),
      'presets:delete': async (r) => ({ deleted: await (await this.desk()).deletePreset(r.name) }),
      'chrome:launch': async () => ({ message: await this.deps.launchChrome() }),
      'settings:get': () => this.deps.settings.view(),
      'settings:set': async (r) => {
        const view = await this.deps.settings.apply(r.patch);
        // New LLM or Chrome settings take effect on the next command, with a fresh engine.
        await this.closeDesk();
        await this.deps.settingsChanged?.(view);
        return { ok: true, settings: view };
      },
      'voice:transcribe': async (r) => ({ text: await this.deps.transcribe(r.audio, r.mime, await this.deps.settings.view()) }),
      'window:hide': async () => ({ hidden: this.deps.hideWindow() }),
      'window:fit': async (r) => ({ fitted: this.deps.fitWindow?.(r.height) ?? false }),
      'launcher:index': () => this.launcher.index(),
      'launcher:preview': (r) => this.launcher.preview(r.text, r.index),
      'launcher:act': async (r) => {
        const { text, envelope, snapshot } = this.launcher.action(r);
        return this.prepareAndRun(this.nextId(), text, envelope, snapshot);
      },
      'ui:modal': async (r) => {
        this.deps.modalChanged?.(r.open);
        return { ok: true as const };
      },
      ...this.agent.handlers(),
      'devices:list': () => this.devices(),
    };
  }

  /**
   * The focused window (as running_apps), for main's own use: remembering where the user was
   * before the launcher opened. Cheap: no tab or window listing. Not a renderer channel.
   */
  async focusedApp(): Promise<Pick<ContextSnapshot, 'running_apps'>> {
    return (await this.desk()).focusedApp();
  }

  async status(): Promise<AppStatus> {
    const desk = await this.desk();
    // Health, not a snapshot: the status line must not list every tab and window.
    const [health, settings] = await Promise.all([desk.health(), this.deps.settings.view()]);
    return {
      planner: health.planner,
      chrome: health.chrome,
      windows: health.windows,
      hotkeys: this.deps.hotkeys(),
      voice: { enabled: settings.voice.enabled, configured: await this.deps.voiceConfigured(settings) },
    };
  }

  /** The user's devices for the launcher's picker; none (and why) when they cannot be reached. */
  async devices(): Promise<DeviceList> {
    try {
      const remote = await this.deps.devices?.();
      if (!remote) return { devices: [], problem: null };
      const devices = remote
        .list()
        .filter((v) => v.device.removed_at === undefined)
        .map((v) => ({ id: v.device.id, name: v.device.name, platform: v.device.platform, online: v.this_device || v.online, this_device: v.this_device }));
      return { devices, problem: null };
    } catch (e) {
      return { devices: [], problem: errorMessage(e) };
    }
  }

  /** This desk, or — for the id of another device — that device's, reached through the sync server. */
  private async target(device: string | undefined, signal?: AbortSignal): Promise<Target> {
    const here = await this.desk();
    if (device === undefined) return { desk: here };
    const remote = await this.deps.devices?.();
    if (!remote) throw new DeskPilotError('device: no sync server is set up (sync.url in config.json), so other devices cannot be reached', 'invalid_input');
    const found = remote.find(device);
    if (!found.ok) throw new DeskPilotError(`device: ${found.message}`, 'invalid_input');
    if (found.device.id === remote.thisDevice) return { desk: here };
    return { desk: new DeviceDesk(here, remote, found.device, signal), device: { id: found.device.id, name: found.device.name } };
  }

  /** This desk with the other devices' published ones, when sync is set up and another device published. */
  private async withDevices(here: Desk): Promise<ContextSnapshot | undefined> {
    const devices = this.deps.devicesNow?.()?.devicesContext();
    if (!devices?.others.length) return undefined;
    return { ...(await here.snapshot({ summaries: false })), devices };
  }

  /** The id of the device a plan named (by its name, as the planner's context listed it). */
  private async deviceIdOf(name: string): Promise<string> {
    const found = (await this.deps.devices?.())?.find(name);
    if (!found?.ok) throw new DeskPilotError(`device: ${found ? found.message : `no device called "${name}"`}`, 'invalid_input');
    return found.device.id;
  }

  async submit(text: string, mode: PlannerMode, device?: string): Promise<CommandResponse> {
    const id = this.nextId();
    this.expire();
    this.inFlight?.abort();
    const abort = new AbortController();
    this.inFlight = abort;
    try {
      let target = await this.target(device, abort.signal);
      // No device picked: with sync set up, the planners see every device's desk and may name one.
      const context = device === undefined && mode !== 'local' ? await this.withDevices(target.desk) : undefined;
      const planned = await target.desk.plan(text, { mode, signal: abort.signal, frontmost: target.device ? null : (this.deps.frontmost?.() ?? null), ...(context ? { snapshot: context } : {}) });
      const { outcome, snapshot } = planned;
      if (outcome.envelope.device) target = await this.target(await this.deviceIdOf(outcome.envelope.device), abort.signal);
      const { desk } = target;
      if (abort.signal.aborted) return { kind: 'error', id, message: 'Cancelled.', code: 'cancelled' };
      if (outcome.envelope.needs_clarification) {
        const asked = outcome.envelope.clarification_reason ?? 'Which one did you mean?';
        const question = outcome.note ? `${asked} (Note: ${outcome.note}.)` : asked;
        const choices = planned.choices.map((c, i) => ({ envelope: outcome.candidates[i]!.envelope, batch: c.batch }));
        this.pending.set(id, { kind: 'clarification', text, choices, planner: outcome.planner, at: this.now(), target });
        await desk.remember({ at: this.now(), text, envelope: outcome.envelope, outcome: `asked: ${question}` });
        return { kind: 'clarification', id, question, candidates: outcome.candidates.map((c) => ({ label: c.label })) };
      }
      if (!planned.batch) {
        const report = emptyReport('done', { snapshot_taken_at: snapshot.taken_at });
        return { kind: 'done', id, report, planner: outcome.planner, ...badge(target) };
      }
      if (context && !target.device && planned.batch.confirm.length === 0 && planned.batch.commands.some((c) => c.type === 'query')) {
        // A question is answered from the desks it was planned with: every device's.
        const report = await desk.exec(outcome.envelope, { snapshot: context });
        await this.remember(text, outcome.envelope, report, target);
        return { kind: 'done', id, report, planner: outcome.planner };
      }
      return await this.confirmOrRun(id, text, outcome.envelope, planned.batch, outcome.planner, target);
    } catch (e) {
      return abort.signal.aborted
        ? { kind: 'error', id, message: 'Cancelled.', code: 'cancelled' }
        : { kind: 'error', id, message: errorMessage(e), code: e instanceof DeskPilotError ? e.code : 'failed' };
    } finally {
      if (this.inFlight === abort) this.inFlight = null;
    }
  }

  async choose(id: string, index: number): Promise<CommandResponse> {
    const p = this.take(id, 'clarification');
    if (!p) return { kind: 'error', id, message: 'That question has expired; say it again.', code: 'expired' };
    const choice = p.choices[index];
    if (!choice) return { kind: 'error', id, message: `There is no choice ${index + 1}.`, code: 'invalid_argument' };
    return this.confirmOrRun(id, p.text, choice.envelope, choice.batch, p.planner, p.target);
  }

  async confirm(id: string, accept: boolean): Promise<CommandResponse> {
    const p = this.take(id, 'confirm');
    if (!p) return { kind: 'error', id, message: 'That confirmation has expired; say it again.', code: 'expired' };
    if (!accept) return { kind: 'done', id, report: droppedReport(p.batch), planner: p.planner, ...badge(p.target) };
    // The desk that prepared the batch kept the snapshot it was planned on (another device checks it against its live desk).
    const report = await p.target.desk.run(p.batch);
    await this.remember(p.text, p.envelope, report, p.target);
    return { kind: 'done', id, report, planner: p.planner, ...badge(p.target) };
  }

  /**
   * A typed envelope (a preset button, an item of the launcher's list): prepared against a
   * fresh snapshot, or the one its items were listed from, then as any other batch.
   */
  private async prepareAndRun(id: string, text: string, envelope: Envelope, snapshot?: ContextSnapshot): Promise<CommandResponse> {
    const prepared = await (await this.desk()).prepare(envelope, snapshot ? { snapshot } : undefined);
    if (!prepared.ok) {
      const report = prepared.report;
      return { kind: 'done', id, report: { ...report, warnings: [...report.warnings, ...report.errors.map(formatFieldError)] }, planner: null };
    }
    return this.confirmOrRun(id, text, envelope, prepared.batch, null, { desk: await this.desk() });
  }

  /** Runs the batch now, or holds it and asks when it closes something the settings say to confirm. */
  private async confirmOrRun(
    id: string,
    text: string,
    envelope: Envelope,
    batch: PreparedBatch,
    planner: 'local' | 'llm' | null,
    target: Target,
  ): Promise<CommandResponse> {
    const { confirm } = await this.deps.settings.view();
    // A non-web address the person typed is always asked about; closing follows the settings.
    // For another device too: the question is asked here, where the person is.
    if (itemsToConfirm(batch, { ...confirm, open_url: true }).length > 0) {
      this.pending.set(id, { kind: 'confirm', text, envelope, batch, planner, at: this.now(), target });
      return { kind: 'confirm', id, items: batch.plan.filter((c) => c.destructive), plan: batch.plan, ...badge(target) };
    }
    const report = await target.desk.run(batch);
    await this.remember(text, envelope, report, target);
    return { kind: 'done', id, report, planner, ...badge(target) };
  }

  private async remember(text: string, envelope: Envelope, report: ExecReport, target: Target): Promise<void> {
    await target.desk.remember({ at: this.now(), text, envelope, outcome: report.results.map((r) => r.message).join('; ') || report.status });
  }

  private take<K extends Pending['kind']>(id: string, kind: K): Extract<Pending, { kind: K }> | null {
    this.expire();
    const p = this.pending.get(id);
    if (!p || p.kind !== kind) return null;
    this.pending.delete(id);
    return p as Extract<Pending, { kind: K }>;
  }

  private expire(): void {
    for (const [id, p] of this.pending) if (this.now() - p.at > PENDING_TTL_MS) this.pending.delete(id);
  }
}

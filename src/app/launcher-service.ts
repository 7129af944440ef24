import type { Envelope } from '../protocol/commands';
import type { ContextSnapshot } from '../protocol/context';
import type { SettingsView } from '../protocol/ipc';
import type { DeskIndex, LauncherActRequest, PlanPreview } from '../protocol/launcher';
import { DeskPilotError } from '../engine/errors';
import { planLocally } from '../engine/local-planner';
import type { Desk } from './desk';
import { deskIndexOf, itemCommands } from './desk-index';
import { deskSignature, WATCH_INTERVAL_MS } from './desk-watcher';

// The launcher's live list, served from snapshots this process already holds: one snapshot per
// launcher show (launcher:index), previews of what Enter would do planned by the offline
// matcher on it (no new snapshot per key press), and actions on a listed item prepared against
// the very snapshot it was listed from. While the list is in use (a lease renewed by every
// index and preview request) the desk is compared every second, and a changed desk is pushed
// to the window as a new index.

export interface LauncherServiceDeps {
  desk(): Promise<Desk>;
  settings(): Promise<SettingsView>;
  /** Pushes a new index to the windows ('launcher:index'). */
  emit(index: DeskIndex): void;
  now?: () => number;
  watchIntervalMs?: number;
  leaseMs?: number;
}

/** How long the desk is watched after the last index or preview request. */
const LEASE_MS = 60_000;
/** Snapshots kept by id: an action may name the index the window listed it from a moment ago. */
const KEEP = 4;

interface Kept {
  id: string;
  snapshot: ContextSnapshot;
  meta: Pick<DeskIndex, 'planner' | 'confirm'>;
}

export class LauncherService {
  private readonly kept: Kept[] = [];
  private seq = 0;
  private leaseUntil = 0;
  private watching = false;
  private timer: NodeJS.Timeout | undefined;
  private disposed = false;
  private readonly now: () => number;

  constructor(private readonly deps: LauncherServiceDeps) {
    this.now = deps.now ?? Date.now;
  }

  /** A fresh snapshot as an index (once per launcher show); the desk is watched from now on. */
  async index(): Promise<DeskIndex> {
    const desk = await this.deps.desk();
    const [snapshot, health, settings] = await Promise.all([desk.snapshot({ summaries: false }), desk.health(), this.deps.settings()]);
    const kept = this.keep(snapshot, { planner: health.planner.kind, confirm: settings.confirm });
    this.renew();
    return deskIndexOf(kept.id, kept.snapshot, kept.meta);
  }

  /**
   * What the offline matcher would do with `text` on the newest kept snapshot. Nothing runs.
   * `listedFrom` is the index the window lists from: when the newest is another, it comes along,
   * so the window never has to ask for it (asking would take yet another snapshot).
   */
  async preview(text: string, listedFrom?: string): Promise<PlanPreview> {
    this.renew();
    const kept = this.latest() ?? (await this.index(), this.latest()!);
    const answer = planLocally({ text, context: kept.snapshot, turns: [] });
    const envelope = answer.envelope as Envelope;
    const newer = listedFrom === kept.id ? null : deskIndexOf(kept.id, kept.snapshot, kept.meta);
    const base = { text, index: kept.id, choices: (answer.candidates ?? []).map((c) => c.label), newer };
    if (!envelope.needs_clarification) return { ...base, kind: 'act', commands: envelope.commands, question: null };
    // Confidence 0: the words are not a sentence the matcher knows (the LLM may, on Enter).
    return { ...base, kind: answer.confidence > 0 ? 'ask' : 'unknown', commands: [], question: envelope.clarification_reason ?? null };
  }

  /** The commands of an action on a listed item, with the snapshot it was listed from. */
  action(req: LauncherActRequest): { text: string; envelope: Envelope; snapshot: ContextSnapshot } {
    const kept = this.kept.find((k) => k.id === req.index);
    if (!kept) throw new DeskPilotError('The list changed since it was shown; type again.', 'stale');
    const { text, commands } = itemCommands(req, kept.snapshot);
    return { text, envelope: { commands, needs_clarification: false, clarification_reason: null }, snapshot: kept.snapshot };
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.timer);
    this.watching = false;
  }

  private latest(): Kept | undefined {
    return this.kept.at(-1);
  }

  private keep(snapshot: ContextSnapshot, meta: Kept['meta']): Kept {
    const kept = { id: `d${++this.seq}-${this.now().toString(36)}`, snapshot, meta };
    this.kept.push(kept);
    if (this.kept.length > KEEP) this.kept.splice(0, this.kept.length - KEEP);
    return kept;
  }

  private renew(): void {
    this.leaseUntil = this.now() + (this.deps.leaseMs ?? LEASE_MS);
    if (this.watching || this.disposed) return;
    this.watching = true;
    this.schedule();
  }

  private schedule(): void {
    this.timer = setTimeout(() => void this.tick(), this.deps.watchIntervalMs ?? WATCH_INTERVAL_MS).unref();
  }

  /** One comparison at a time: a slow snapshot delays the next instead of piling up. */
  private async tick(): Promise<void> {
    if (this.disposed || this.now() > this.leaseUntil) {
      this.watching = false;
      return;
    }
    try {
      const snapshot = await (await this.deps.desk()).snapshot({ summaries: false });
      const last = this.latest();
      if (!this.disposed && last && changed(last.snapshot, snapshot)) {
        const kept = this.keep(snapshot, last.meta);
        this.deps.emit(deskIndexOf(kept.id, kept.snapshot, kept.meta));
      }
    } catch {
      // The desk is closing (new settings) or a backend hiccuped: try again on the next tick.
    }
    if (this.disposed) this.watching = false;
    else this.schedule();
  }
}

function changed(a: ContextSnapshot, b: ContextSnapshot): boolean {
  const x = deskSignature(a);
  const y = deskSignature(b);
  return x.tabs !== y.tabs || x.windows !== y.windows || a.presets.join('\n') !== b.presets.join('\n');
}

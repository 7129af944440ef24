import type { SnapshotOptions } from '../engine/context-builder';
import type { ContextSnapshot } from '../protocol/context';
import type { PreparedBatch } from '../protocol/prepared-batch';
import type { Health } from '../protocol/service';
import type { WiredEngine } from './wired';
import type { Desk, PlanOptions } from './desk';

// The desk served by an engine in this process: what the warm service runs, and what the
// CLI and `deskpilot mcp` fall back to when no service is running.

/** Batches planned here remember their snapshot for a while, so a question in them is answered from what the planner saw. */
const PLANNED_TTL_MS = 5 * 60 * 1000;

export class LocalDesk implements Desk {
  readonly via = 'in-process' as const;
  private readonly planned = new Map<string, { snapshot: ContextSnapshot; at: number }>();

  constructor(private readonly wired: WiredEngine) {}

  get engine() {
    return this.wired.engine;
  }

  snapshot(opts?: SnapshotOptions) {
    return this.wired.engine.snapshot(opts);
  }

  focusedApp() {
    return this.wired.engine.focusedApp();
  }

  async health(): Promise<Health> {
    return { ...(await this.wired.engine.health()), planner: this.wired.plannerDescription };
  }

  async plan(text: string, opts: PlanOptions) {
    const result = await this.wired.engine.plan(text, opts);
    this.keep([result.batch, ...result.choices.map((c) => c.batch)], result.snapshot);
    return result;
  }

  async prepare(input: unknown, opts: { snapshot?: ContextSnapshot } = {}) {
    const snapshot = opts.snapshot ?? (await this.wired.engine.snapshot());
    const prepared = await this.wired.engine.prepare(input, { snapshot });
    if (prepared.ok) this.keep([prepared.batch], snapshot);
    return prepared;
  }

  run(batch: unknown) {
    const id = typeof batch === 'object' && batch !== null ? (batch as { id?: unknown }).id : undefined;
    const kept = typeof id === 'string' ? this.planned.get(id) : undefined;
    if (kept) this.planned.delete(id as string);
    return this.wired.engine.run(batch, { snapshot: kept?.snapshot });
  }

  exec(input: unknown, opts: { dryRun?: boolean; snapshot?: ContextSnapshot } = {}) {
    return this.wired.engine.exec(input, opts);
  }

  remember(turn: Parameters<Desk['remember']>[0]) {
    return this.wired.engine.remember(turn);
  }

  listPresets() {
    return this.wired.engine.listPresets();
  }

  savePreset(name: string, apps?: readonly string[]) {
    return this.wired.engine.savePreset(name, apps);
  }

  deletePreset(name: string) {
    return this.wired.engine.deletePreset(name);
  }

  close() {
    return this.wired.dispose();
  }

  private keep(batches: Array<PreparedBatch | null>, snapshot: ContextSnapshot): void {
    const now = Date.now();
    for (const [id, p] of this.planned) if (now - p.at > PLANNED_TTL_MS) this.planned.delete(id);
    for (const b of batches) if (b) this.planned.set(b.id, { snapshot, at: now });
  }
}

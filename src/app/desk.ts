import type { Prepared } from '../engine/prepare';
import type { PlanResult } from '../engine/engine';
import type { SnapshotOptions } from '../engine/context-builder';
import type { ContextSnapshot } from '../protocol/context';
import type { PlannerMode, Turn } from '../protocol/planning';
import type { Preset } from '../protocol/preset';
import type { ExecReport } from '../protocol/report';
import type { Health } from '../protocol/service';

// One desk, as every front end sees it: the CLI, the MCP server and the device worker call
// these, and get the same answers whether the desk is served by the warm service over its
// socket (RemoteDesk) or by an engine in this process (LocalDesk).

export interface PlanOptions {
  mode: PlannerMode;
  /** Plan against this snapshot (e.g. `--context FILE`) instead of a fresh one. */
  snapshot?: ContextSnapshot;
  frontmost?: { app: string; title: string } | null;
  signal?: AbortSignal;
}

export interface Desk {
  /** Where the desk is served: the warm service, or an engine in this process. */
  readonly via: 'service' | 'in-process';
  snapshot(opts?: SnapshotOptions): Promise<ContextSnapshot>;
  health(): Promise<Health>;
  /** The focused window (as running_apps): where the user was before DeskPilot showed itself. */
  focusedApp(): Promise<Pick<ContextSnapshot, 'running_apps'>>;
  plan(text: string, opts: PlanOptions): Promise<PlanResult>;
  prepare(input: unknown, opts?: { snapshot?: ContextSnapshot }): Promise<Prepared>;
  /** Runs a prepared batch (checked again where it runs). */
  run(batch: unknown): Promise<ExecReport>;
  /** prepare + run without asking anyone (the exec API), or only preview with dryRun. */
  exec(input: unknown, opts?: { dryRun?: boolean; snapshot?: ContextSnapshot }): Promise<ExecReport>;
  remember(turn: Turn): Promise<void>;
  listPresets(): Promise<Preset[]>;
  savePreset(name: string, apps?: readonly string[]): Promise<Preset>;
  deletePreset(name: string): Promise<boolean>;
  close(): Promise<void>;
}

// The evaluation harness: loads the labelled set, checks the labels, runs a planner over
// every case and scores what came back. `run.ts` is the command line around it; tests drive
// it with a stub planner. Nothing here knows how a planner works inside.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { Command, Envelope } from '../src/protocol/commands';
import { ContextSnapshot } from '../src/protocol/context';
import { fromLlmEnvelope } from '../src/protocol/llm-schema';
import { formatFieldError, parseInput } from '../src/protocol/validation';
import { errorMessage } from '../src/engine/errors';
import { normalizeUrl } from '../src/engine/normalize-url';
import { resolveBatch } from '../src/engine/resolve';
import { columns, layoutFrame } from '../src/engine/geometry';
import type { Planner, PlannerAnswer, TokenUsage } from '../src/engine/ports';
import type { Turn } from '../src/protocol/planning';

// ---------------------------------------------------------------------------- the labelled set

const ClarifyExpectation = z.strictObject({
  clarify: z.literal(true),
  /** Names the clarification should mention (tab title fragments, app or preset names). */
  candidates: z.array(z.string().min(1)).min(1).optional(),
});
export type ClarifyExpectation = z.infer<typeof ClarifyExpectation>;

/** An earlier turn of a conversation: what was said, the commands it came to, what happened. */
const EvalTurn = z.strictObject({
  text: z.string(),
  /** A protocol command list (checked with parseInput like an expectation). */
  commands: z.array(z.record(z.string(), z.unknown())),
  outcome: z.string(),
});

export const EvalCase = z.strictObject({
  id: z.string().min(1),
  context: z.string().min(1),
  text: z.string(),
  /** The conversation before `text`, oldest first: a follow-up ("now the right third") is scored with it. */
  turns: z.array(EvalTurn).min(1).optional(),
  /** A protocol envelope (checked with parseInput separately) or a clarification. */
  expect: z.union([ClarifyExpectation, z.record(z.string(), z.unknown())]),
  tags: z.array(z.string().min(1)).min(1),
});
export type EvalCase = z.infer<typeof EvalCase>;

export interface LabelledCase extends EvalCase {
  /** null: the case must end in a clarification. */
  envelope: Envelope | null;
  candidates: string[];
  /** The earlier turns as a planner is handed them (none for a single request). */
  history: Turn[];
}

export interface LabelledSet {
  contexts: Map<string, ContextSnapshot>;
  cases: LabelledCase[];
}

const isClarify = (x: unknown): x is ClarifyExpectation =>
  typeof x === 'object' && x !== null && (x as { clarify?: unknown }).clarify === true;

const jsonFiles = (dir: string) =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => path.join(dir, f));

function readJson(file: string, problems: string[]): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    problems.push(`${file}: not readable JSON: ${errorMessage(e)}`);
    return undefined;
  }
}

/**
 * Reads `contexts/*.json` and `cases/*.json` (or a single `cases.json`) under `root` and
 * checks every label. `problems` is empty when the set is sound; each entry names the file or
 * case and what is wrong.
 */
export function loadLabelledSet(root: string): { set: LabelledSet; problems: string[] } {
  const problems: string[] = [];
  const contexts = new Map<string, ContextSnapshot>();
  for (const file of jsonFiles(path.join(root, 'contexts'))) {
    const raw = readJson(file, problems);
    if (raw === undefined) continue;
    const parsed = ContextSnapshot.safeParse(raw);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) problems.push(`${file}: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
      continue;
    }
    problems.push(...contextProblems(file, parsed.data));
    contexts.set(path.basename(file, '.json'), parsed.data);
  }
  if (contexts.size === 0) problems.push(`${path.join(root, 'contexts')}: no context files`);

  const caseFiles = [...(existsSync(path.join(root, 'cases.json')) ? [path.join(root, 'cases.json')] : [])];
  if (existsSync(path.join(root, 'cases'))) caseFiles.push(...jsonFiles(path.join(root, 'cases')));
  const cases: LabelledCase[] = [];
  const ids = new Set<string>();
  for (const file of caseFiles) {
    const raw = readJson(file, problems);
    if (raw === undefined) continue;
    if (!Array.isArray(raw)) {
      problems.push(`${file}: must be an array of cases`);
      continue;
    }
    raw.forEach((item, i) => {
      const where = `${file}[${i}]${isRecord(item) && typeof item.id === 'string' ? ` (${item.id})` : ''}`;
      const parsed = EvalCase.safeParse(item);
      if (!parsed.success) {
        for (const issue of parsed.error.issues) problems.push(`${where}: ${issue.path.join('.') || '(case)'}: ${issue.message}`);
        return;
      }
      const c = parsed.data;
      if (ids.has(c.id)) problems.push(`${where}: duplicate id "${c.id}"`);
      ids.add(c.id);
      const snap = contexts.get(c.context);
      if (!snap) problems.push(`${where}: unknown context "${c.context}" (have: ${[...contexts.keys()].join(', ')})`);
      const history = turnsOf(where, c, problems);
      if (isClarify(c.expect)) {
        cases.push({ ...c, envelope: null, candidates: c.expect.candidates ?? [], history });
        return;
      }
      const label = parseInput(c.expect);
      if (!label.ok) {
        problems.push(...label.errors.map((e) => `${where}: expect: ${formatFieldError(e)}`));
        return;
      }
      if (!label.envelope) {
        problems.push(`${where}: expect: write {"clarify": true} for a case that must end in a clarification`);
        return;
      }
      if (label.envelope.commands.length === 0) problems.push(`${where}: expect: an answer needs at least one command`);
      if (snap) problems.push(...labelAgainstContext(where, label.envelope, snap));
      cases.push({ ...c, envelope: label.envelope, candidates: [], history });
    });
  }
  if (cases.length === 0) problems.push(`${root}: no cases`);
  return { set: { contexts, cases }, problems };
}

/**
 * A case's earlier turns in the app's Turn form, a minute apart and ending a minute before
 * now (the app keeps turns for follow-ups only that long); each turn's commands must be valid.
 */
function turnsOf(where: string, c: EvalCase, problems: string[]): Turn[] {
  const turns = c.turns ?? [];
  const now = Date.now();
  return turns.map((t, i) => {
    const envelope = { commands: t.commands, needs_clarification: false, clarification_reason: null };
    const checked = parseInput(envelope);
    if (!checked.ok) problems.push(...checked.errors.map((e) => `${where}: turns[${i}]: ${formatFieldError(e)}`));
    return { at: now - (turns.length - i) * 60_000, text: t.text, envelope, outcome: t.outcome };
  });
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Consistency a snapshot from DeskPilot always has; a hand-written one might not. */
function contextProblems(file: string, snap: ContextSnapshot): string[] {
  const out: string[] = [];
  snap.tabs.forEach((t, i) => {
    if (t.index !== i + 1) out.push(`${file}: tabs[${i}].index is ${t.index}, expected ${i + 1} (global 1-based order)`);
  });
  const monitorNames = new Set(snap.monitors.map((m) => m.name));
  for (const app of snap.running_apps) {
    for (const w of app.windows) {
      if (w.monitor !== null && !monitorNames.has(w.monitor)) out.push(`${file}: ${app.name} window ${w.id} is on unknown monitor "${w.monitor}"`);
    }
  }
  for (const role of ['main', 'left', 'right'] as const) {
    const n = snap.monitors.filter((m) => m.roles.includes(role)).length;
    if (snap.monitors.length > 0 && n !== 1) out.push(`${file}: ${n} monitors have the role "${role}" (exactly one must)`);
  }
  if (!snap.sources.chrome.ok && snap.tabs.length > 0) out.push(`${file}: Chrome is unreachable but tabs are listed`);
  return out;
}

/**
 * An expected answer must be executable against its context: DeskPilot's own resolver
 * accepts it (tabs, apps, presets, monitors exist) and computed bounds sit inside one
 * monitor's work area, as the formulas produce them.
 */
function labelAgainstContext(where: string, env: Envelope, snap: ContextSnapshot): string[] {
  const out: string[] = [];
  const resolution = resolveBatch(env.commands, snap);
  if (!resolution.ok) out.push(...resolution.errors.map((e) => `${where}: expect does not resolve: ${formatFieldError(e)}`));
  env.commands.forEach((c, i) => {
    if (c.type !== 'place_app' || !c.bounds) return;
    const [l, t, r, b] = c.bounds as [number, number, number, number];
    const inside = snap.monitors.some(({ work_area: [ml, mt, mr, mb] }) => l >= ml && t >= mt && r <= mr && b <= mb);
    if (!inside) out.push(`${where}: expect commands[${i}].bounds [${c.bounds.join(', ')}] is not inside any monitor's work area`);
  });
  return out;
}

// ---------------------------------------------------------------------------- comparing answers

/**
 * The form two commands are compared in: fields the executor treats the same are made the
 * same, so a planner is not marked wrong for a difference that changes nothing on screen.
 * - app and preset names: case-insensitive (resolution matches them that way);
 * - open_url: the URL after DeskPilot's own normalisation ("chatgpt" = "https://chatgpt.com/"),
 *   with a leading "www." dropped;
 * - close_tab: the set of indices (the system closes highest first anyway); consecutive
 *   close_tab commands count as one;
 * - place_app with bounds: the bounds alone (the frame is set exactly; monitor is then moot,
 *   and so is a move of the same app just before it); a layout, a swap and a tile as the bounds
 *   they come to in this context; with monitor only: the monitor the target names in this
 *   context ("main" = "left" on one screen, "next" = the one after the window's);
 * - set_app_state: the app and the state;
 * - an app with several windows: the window the resolver picks, so "the second xterm" is not
 *   the first (place, swap, tile, set_app_state, focus_app);
 * - undo: steps 1 = no steps;
 * - open_recent: the path, and the app it opens in as resolved (a project's own IDE = that IDE named);
 * - query: the question without case, punctuation or extra spaces.
 */
export function canonicalCommands(commands: readonly Command[], snap: ContextSnapshot): string[] {
  const out: unknown[] = [];
  for (const c of commands) {
    switch (c.type) {
      case 'list_apps':
      case 'list_tabs':
        out.push({ type: c.type });
        break;
      case 'focus_app':
        out.push({ type: c.type, app: windowKey(c, snap) });
        break;
      case 'close_app':
        out.push({ type: c.type, app: c.app_name.trim().toLowerCase() });
        break;
      case 'place_app':
      case 'swap_apps':
      case 'tile_apps':
        // Every arrangement as the frames it sets (a layout, a swap or a tile of two is the
        // same as the bounds it comes to); a move to a monitor as that monitor.
        for (const p of framesOf(c, snap)) {
          if ('bounds' in p) {
            // Exact bounds make an immediately preceding move of the same app moot.
            const prev = out[out.length - 1] as { type?: string; app?: string } | undefined;
            if (prev?.type === 'place_app' && prev.app === p.app) out.pop();
          }
          out.push({ type: 'place_app', ...p });
        }
        break;
      case 'set_app_state':
        out.push({ type: c.type, app: windowKey(c, snap), state: c.state });
        break;
      case 'switch_tab':
        out.push({ type: c.type, tab: c.tab_index });
        break;
      case 'close_tab': {
        const prev = out[out.length - 1] as { type?: string; tabs?: number[] } | undefined;
        const tabs = new Set([...(prev?.type === 'close_tab' ? prev.tabs! : []), ...resolvedTabs(c, snap)]);
        const merged = { type: 'close_tab', tabs: [...tabs].sort((x, y) => x - y) };
        if (prev?.type === 'close_tab') out[out.length - 1] = merged;
        else out.push(merged);
        break;
      }
      case 'open_url':
        out.push({ type: c.type, url: canonicalUrl(c.url) });
        break;
      case 'activate_preset':
        out.push({ type: c.type, preset: c.preset_name.trim().toLowerCase() });
        break;
      case 'query':
        out.push({ type: c.type, question: canonicalQuestion(c.question) });
        break;
      case 'undo':
        out.push({ type: c.type, steps: c.steps ?? 1 });
        break;
      case 'open_recent': {
        // As DeskPilot opens it: the listed path and the app it resolves to (a project's own IDE when none is named).
        const r = resolveBatch([c], snap);
        const app = r.ok && r.plan[0]?.type === 'open_recent' ? r.plan[0].app : (c.app_name ?? null);
        out.push({ type: c.type, path: c.path.trim().replace(/[/\\]+$/, ''), app: app?.toLowerCase() ?? null });
        break;
      }
      default:
        out.push(canonicalTabOp(c, snap));
    }
  }
  return out.map((x) => JSON.stringify(x));
}

/**
 * The tabs a tab command acts on, by index, as DeskPilot's resolver picks them (so an age pick
 * and the indices it comes to compare equal); the command's own indices when it does not resolve.
 */
function resolvedTabs(c: Command, snap: ContextSnapshot): number[] {
  const r = resolveBatch([c], snap);
  const own = 'tab_indices' in c && Array.isArray(c.tab_indices) ? c.tab_indices : [];
  if (!r.ok) return [...own].sort((x, y) => x - y);
  const resolved = r.plan[0] as { tabs?: Array<{ index: number }>; pool?: Array<{ index: number }> | null };
  const tabs = resolved.tabs ?? resolved.pool ?? null;
  return tabs ? tabs.map((t) => t.index).sort((x, y) => x - y) : [];
}

/** Of these tab indices, those the snapshot does not already show in the state asked for. */
function changing(indices: number[], snap: ContextSnapshot, already: (t: ContextSnapshot['tabs'][number]) => boolean): number[] {
  return indices.filter((i) => {
    const t = snap.tabs.find((x) => x.index === i);
    return !t || !already(t);
  });
}

/** The tab manager's operations: the tabs they act on (see resolvedTabs) and their own settings, defaults filled in. */
function canonicalTabOp(c: Command, snap: ContextSnapshot): unknown {
  const lower = (s: string | undefined) => s?.trim().toLowerCase() ?? null;
  switch (c.type) {
    case 'search_tabs': {
      const narrowed = c.tab_indices !== undefined || c.unused_for_hours !== undefined || c.unused_today !== undefined || c.oldest !== undefined;
      return { type: c.type, query: c.query === undefined ? null : canonicalQuestion(c.query), page_text: c.page_text ?? false, tabs: narrowed ? resolvedTabs(c, snap) : null };
    }
    case 'count_tabs_by_domain':
      return { type: c.type };
    case 'reload_tabs':
      return { type: c.type, tabs: resolvedTabs(c, snap), ignore_cache: c.ignore_cache ?? false };
    case 'move_tabs':
      return { type: c.type, tabs: resolvedTabs(c, snap), window: c.new_window ? 'new' : c.window_index };
    case 'close_duplicate_tabs':
      return { type: c.type, tabs: resolvedTabs(c, snap) };
    case 'save_tabs':
      return { type: c.type, name: lower(c.name), tabs: resolvedTabs(c, snap), close: c.close ?? false };
    case 'restore_tabs':
      return { type: c.type, name: lower(c.name), new_window: c.new_window ?? false };
    // A tab already in the state asked for is left as it is: naming it or not runs the same.
    case 'pin_tabs':
      return { type: c.type, tabs: changing(resolvedTabs(c, snap), snap, (t) => t.pinned === c.pinned), pinned: c.pinned };
    case 'mute_tabs':
      return { type: c.type, tabs: changing(resolvedTabs(c, snap), snap, (t) => t.muted === c.muted), muted: c.muted };
    case 'group_tabs':
      return { type: c.type, tabs: resolvedTabs(c, snap), title: lower(c.title), color: c.color ?? null };
    case 'ungroup_tabs':
      return { type: c.type, tabs: resolvedTabs(c, snap) };
    default:
      return c;
  }
}

function monitorNameFor(snap: ContextSnapshot, role: string): string {
  return snap.monitors.find((m) => (m.roles as string[]).includes(role))?.name ?? `role:${role}`;
}

type Placed = { app: string; bounds: number[] } | { app: string; monitor: string };

/**
 * The frames a window command sets, by app, computed the way the executor does from this
 * snapshot (its windows' frames and the monitors' work areas); one that does not resolve is
 * kept as it was said, so it can only equal the same words.
 */
/**
 * What a window command acts on: the app, and when the app has several windows the one the
 * resolver picks (two xterms are two things; window_id of the most recent = no window_id).
 */
function who(snap: ContextSnapshot, app: string, windowId: string | null): string {
  const several = (snap.running_apps.find((a) => a.name === app)?.windows.length ?? 0) > 1;
  return several && windowId ? `${app.trim().toLowerCase()}#${windowId}` : app.trim().toLowerCase();
}

function windowKey(c: Extract<Command, { type: 'focus_app' | 'set_app_state' }>, snap: ContextSnapshot): string {
  const r = resolveBatch([c], snap);
  const rc = r.ok ? (r.plan[0] as { app?: string; windowId?: string | null }) : null;
  return rc?.app ? who(snap, rc.app, rc.windowId ?? null) : c.app_name.trim().toLowerCase();
}

function framesOf(c: Extract<Command, { type: 'place_app' | 'swap_apps' | 'tile_apps' }>, snap: ContextSnapshot): Placed[] {
  const lower = (n: string) => n.trim().toLowerCase();
  const r = resolveBatch([c], snap);
  const frameOfApp = (id: string) => snap.running_apps.flatMap((a) => a.windows).find((w) => w.id === id)?.bounds ?? [0, 0, 0, 0];
  if (!r.ok) return c.type === 'place_app' ? [{ app: lower(c.app_name), monitor: `unresolved:${JSON.stringify(c)}` }] : [{ app: `unresolved:${JSON.stringify(c)}`, monitor: '' }];
  const rc = r.plan[0]!;
  if (rc.type === 'swap_apps') {
    const [a, b] = rc.windows;
    return [
      { app: who(snap, a!.app, a!.windowId), bounds: [...frameOfApp(b!.windowId)] },
      { app: who(snap, b!.app, b!.windowId), bounds: [...frameOfApp(a!.windowId)] },
    ];
  }
  if (rc.type === 'tile_apps') return columns(rc.monitor.work_area, rc.windows.length).map((f, i) => ({ app: who(snap, rc.windows[i]!.app, rc.windows[i]!.windowId), bounds: f }));
  if (rc.type !== 'place_app') return [];
  const app = who(snap, rc.app, rc.windowId);
  if (rc.command.bounds) return [{ app, bounds: [...rc.command.bounds] }];
  if (rc.command.layout) return [{ app, bounds: layoutFrame(rc.command.layout, rc.monitor!.work_area, frameOfApp(rc.windowId)) }];
  return [{ app, monitor: rc.monitor?.name ?? monitorNameFor(snap, rc.command.monitor!) }];
}

export function canonicalUrl(url: string): string {
  const n = normalizeUrl(url);
  if (!n.ok) return url.trim().toLowerCase();
  try {
    const u = new URL(n.url);
    u.hostname = u.hostname.replace(/^www\./, '');
    const s = u.toString();
    return u.pathname === '/' && !u.search && !u.hash ? s.replace(/\/$/, '') : s;
  } catch {
    return n.url;
  }
}

export const canonicalQuestion = (q: string) =>
  q
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();

export function sameCommands(expected: readonly Command[], got: readonly Command[], snap: ContextSnapshot): boolean {
  const a = canonicalCommands(expected, snap);
  const b = canonicalCommands(got, snap);
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

// ---------------------------------------------------------------------------- running

export type Outcome =
  /** answered, equal to the label */
  | 'correct'
  /** answered, not equal to the label (or answered where a clarification was expected) */
  | 'wrong'
  /** asked back where the label expects a clarification */
  | 'clarified_ok'
  /** asked back where the label expects an answer */
  | 'uncovered'
  /** the answer did not parse as a protocol envelope */
  | 'invalid'
  /** the planner threw (or timed out) */
  | 'error';

export interface CaseResult {
  case: LabelledCase;
  outcome: Outcome;
  ms: number;
  /** What came back, in protocol shape when it parsed. */
  got: unknown;
  /** Clarification question, parse errors or the thrown message. */
  detail: string | null;
  usage: TokenUsage | null;
  /** For a correct clarification with candidates: whether the question names every one. */
  namedCandidates: boolean | null;
  /** Which planner produced the answer (auto mode uses both). */
  by: 'local' | 'llm' | null;
  confidence: number | null;
}

/** A planner as the runner drives it; `plan` may say which planner answered (auto mode). */
export interface EvalPlanner {
  describe(): string;
  plan(req: Parameters<Planner['plan']>[0]): Promise<PlannerAnswer & { by?: 'local' | 'llm' }>;
}

export interface RunOptions {
  /** Per case; the planner gets an AbortSignal. */
  timeoutMs?: number;
  onResult?: (r: CaseResult, i: number, total: number) => void;
}

export async function runCases(planner: EvalPlanner, set: LabelledSet, cases: readonly LabelledCase[], opts: RunOptions = {}): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  for (const [i, c] of cases.entries()) {
    const r = await runOne(planner, c, set.contexts.get(c.context)!, opts.timeoutMs ?? 60_000);
    results.push(r);
    opts.onResult?.(r, i, cases.length);
  }
  return results;
}

async function runOne(planner: EvalPlanner, c: LabelledCase, snap: ContextSnapshot, timeoutMs: number): Promise<CaseResult> {
  const base = { case: c, usage: null, namedCandidates: null, by: null, confidence: null } as const;
  const started = performance.now();
  let answer: Awaited<ReturnType<EvalPlanner['plan']>>;
  try {
    answer = await planner.plan({ text: c.text, context: snap, turns: c.history, signal: AbortSignal.timeout(timeoutMs) });
  } catch (e) {
    return { ...base, outcome: 'error', ms: performance.now() - started, got: null, detail: errorMessage(e) };
  }
  const ms = performance.now() - started;
  const common = { ...base, ms, usage: answer.usage ?? null, by: answer.by ?? null, confidence: answer.confidence ?? null };
  let raw: unknown = answer.envelope;
  if (typeof raw === 'string') {
    try {
      raw = JSON.parse(raw);
    } catch {
      /* parseInput reports it */
    }
  }
  const parsed = parseInput(fromLlmEnvelope(raw));
  if (!parsed.ok) {
    return { ...common, outcome: 'invalid', got: raw, detail: parsed.errors.map(formatFieldError).join('; ') };
  }
  if (parsed.clarification) {
    const reason = parsed.clarification.reason;
    const got = { commands: parsed.clarification.draft_types.map((type) => ({ type })), needs_clarification: true, clarification_reason: reason };
    if (c.envelope) return { ...common, outcome: 'uncovered', got, detail: reason };
    const named = c.candidates.length ? c.candidates.every((n) => reason.toLowerCase().includes(n.toLowerCase())) : null;
    return { ...common, outcome: 'clarified_ok', got, detail: reason, namedCandidates: named };
  }
  const ok = c.envelope !== null && sameCommands(c.envelope.commands, parsed.envelope.commands, snap);
  return { ...common, outcome: ok ? 'correct' : 'wrong', got: parsed.envelope, detail: null };
}

// ---------------------------------------------------------------------------- figures

export interface Ratio {
  n: number;
  of: number;
}
const ratio = (n: number, of: number): Ratio => ({ n, of });
export const pct = (r: Ratio) => (r.of === 0 ? 'n/a' : `${((100 * r.n) / r.of).toFixed(1)}%`);
const fmtRatio = (r: Ratio) => `${pct(r)} (${r.n}/${r.of})`;

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length) - 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))]!;
}
const mean = (v: readonly number[]) => (v.length ? v.reduce((a, b) => a + b, 0) / v.length : NaN);

export interface Figures {
  cases: number;
  expectAnswer: number;
  expectClarify: number;
  /** answered / cases expecting an answer */
  coverage: Ratio;
  coverageEveryday: Ratio;
  /** correct answers / all answers (answers where a clarification was expected are wrong) */
  precision: Ratio;
  /** correct clarifications / cases expecting a clarification */
  clarifyRecall: Ratio;
  /** correct clarifications that name every labelled candidate / those with candidates */
  namedCandidates: Ratio;
  counts: Record<Outcome, number>;
  latencyMs: { p50: number; p95: number; max: number };
  tokens: { requests: number; prompt: { mean: number; p95: number }; completion: { mean: number; p95: number } } | null;
  byPlanner: { local: number; llm: number } | null;
}

export function figures(results: readonly CaseResult[]): Figures {
  const counts: Record<Outcome, number> = { correct: 0, wrong: 0, clarified_ok: 0, uncovered: 0, invalid: 0, error: 0 };
  for (const r of results) counts[r.outcome]++;
  const answered = (r: CaseResult) => r.outcome === 'correct' || r.outcome === 'wrong';
  const expectAnswer = results.filter((r) => r.case.envelope !== null);
  const everyday = expectAnswer.filter((r) => r.case.tags.includes('everyday'));
  const expectClarify = results.filter((r) => r.case.envelope === null);
  const withCandidates = results.filter((r) => r.outcome === 'clarified_ok' && r.namedCandidates !== null);
  const usages = results.map((r) => r.usage).filter((u): u is TokenUsage => u !== null);
  const prompt = usages.map((u) => u.prompt_tokens);
  const completion = usages.map((u) => u.completion_tokens);
  const ms = results.map((r) => r.ms);
  const by = results.filter((r) => r.by !== null);
  return {
    cases: results.length,
    expectAnswer: expectAnswer.length,
    expectClarify: expectClarify.length,
    coverage: ratio(expectAnswer.filter(answered).length, expectAnswer.length),
    coverageEveryday: ratio(everyday.filter(answered).length, everyday.length),
    precision: ratio(counts.correct, counts.correct + counts.wrong),
    clarifyRecall: ratio(counts.clarified_ok, expectClarify.length),
    namedCandidates: ratio(withCandidates.filter((r) => r.namedCandidates).length, withCandidates.length),
    counts,
    latencyMs: { p50: percentile(ms, 50), p95: percentile(ms, 95), max: ms.length ? Math.max(...ms) : NaN },
    tokens: usages.length
      ? { requests: usages.length, prompt: { mean: mean(prompt), p95: percentile(prompt, 95) }, completion: { mean: mean(completion), p95: percentile(completion, 95) } }
      : null,
    byPlanner: by.length ? { local: by.filter((r) => r.by === 'local').length, llm: by.filter((r) => r.by === 'llm').length } : null,
  };
}

// ---------------------------------------------------------------------------- report

const compact = (v: unknown) => JSON.stringify(v);
const commandsOf = (v: unknown) => (isRecord(v) && Array.isArray(v.commands) ? v.commands : v);
const ms = (n: number) => (Number.isFinite(n) ? (n < 10 ? n.toFixed(2) : n.toFixed(0)) : 'n/a');

/** The WRONG/INVALID/ERROR listing: always printed, whatever the verbosity. */
export function problemLines(results: readonly CaseResult[]): string[] {
  const out: string[] = [];
  for (const r of results) {
    const head = `[${r.case.id}] (${r.case.context}) "${r.case.text}"`;
    const expected = r.case.envelope ? compact(r.case.envelope.commands) : `clarification${r.case.candidates.length ? ` naming ${r.case.candidates.join(' | ')}` : ''}`;
    if (r.outcome === 'wrong') out.push(`WRONG ${head}\n    expected: ${expected}\n    got:      ${compact(commandsOf(r.got))}`);
    if (r.outcome === 'invalid') out.push(`INVALID ${head}\n    expected: ${expected}\n    got:      ${compact(r.got)}\n    errors:   ${r.detail}`);
    if (r.outcome === 'error') out.push(`ERROR ${head}\n    expected: ${expected}\n    threw:    ${r.detail}`);
  }
  return out;
}

export function verboseLine(r: CaseResult): string {
  const tag = { correct: 'ok', wrong: 'WRONG', clarified_ok: 'ok-ask', uncovered: 'asked', invalid: 'INVALID', error: 'ERROR' }[r.outcome];
  const what =
    r.outcome === 'clarified_ok' || r.outcome === 'uncovered'
      ? `? ${r.detail}`
      : r.outcome === 'error' || r.outcome === 'invalid'
        ? (r.detail ?? '')
        : compact(commandsOf(r.got));
  const by = r.by ? ` ${r.by}` : '';
  return `${tag.padEnd(7)} ${ms(r.ms).padStart(7)} ms${by}  [${r.case.id}] "${r.case.text}" → ${what}`;
}

export function tagTable(results: readonly CaseResult[]): string[] {
  const tags = [...new Set(results.flatMap((r) => r.case.tags))].sort();
  const rows = tags.map((tag) => {
    const rs = results.filter((r) => r.case.tags.includes(tag));
    const f = figures(rs);
    return [tag, String(rs.length), String(f.expectClarify), pct(f.coverage), pct(f.precision), pct(f.clarifyRecall)];
  });
  const header = ['tag', 'cases', 'clarify', 'coverage', 'precision', 'clar.recall'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(header), ...rows.map(line)];
}

export function reportLines(f: Figures, plannerDescription: string, showBy = false): string[] {
  const lines = [
    `planner: ${plannerDescription}`,
    `cases run:              ${f.cases} (${f.expectAnswer} expect an answer, ${f.expectClarify} a clarification)`,
    `outcomes:               ${f.counts.correct} correct, ${f.counts.wrong} wrong, ${f.counts.clarified_ok} correct clarifications, ${f.counts.uncovered} asked back instead of answering, ${f.counts.invalid} invalid, ${f.counts.error} errors`,
    `coverage:               ${fmtRatio(f.coverage)}   answered / cases expecting an answer`,
    `coverage (everyday):    ${fmtRatio(f.coverageEveryday)}`,
    `precision:              ${fmtRatio(f.precision)}   correct / answered`,
    `clarification recall:   ${fmtRatio(f.clarifyRecall)}   asked back / cases that must ask back`,
    `  naming the candidates: ${fmtRatio(f.namedCandidates)}`,
    `latency:                p50 ${ms(f.latencyMs.p50)} ms, p95 ${ms(f.latencyMs.p95)} ms, max ${ms(f.latencyMs.max)} ms`,
  ];
  if (f.tokens) {
    lines.push(
      `tokens per request:     prompt mean ${f.tokens.prompt.mean.toFixed(0)}, p95 ${f.tokens.prompt.p95}; completion mean ${f.tokens.completion.mean.toFixed(0)}, p95 ${f.tokens.completion.p95} (${f.tokens.requests} requests)`,
    );
  }
  if (showBy && f.byPlanner) lines.push(`answered by:            offline matcher ${f.byPlanner.local}, LLM ${f.byPlanner.llm}`);
  return lines;
}

export function summaryLine(f: Figures, mode: string): string {
  return (
    `SUMMARY planner=${mode} cases=${f.cases} coverage=${pct(f.coverage)} everyday=${pct(f.coverageEveryday)} ` +
    `precision=${pct(f.precision)} clarify_recall=${pct(f.clarifyRecall)} wrong=${f.counts.wrong} ` +
    `invalid=${f.counts.invalid} errors=${f.counts.error} p50=${ms(f.latencyMs.p50)}ms p95=${ms(f.latencyMs.p95)}ms` +
    (f.tokens ? ` prompt_tokens_mean=${f.tokens.prompt.mean.toFixed(0)} completion_tokens_mean=${f.tokens.completion.mean.toFixed(0)}` : '')
  );
}

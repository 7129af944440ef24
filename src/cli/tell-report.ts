import { formatRect } from '../engine/geometry';
import type { ExecReport } from '../protocol/report';
import { formatFieldError } from '../protocol/validation';
import type { Io } from './io';

// How `run`, `undo` and `presets apply` answer: for people, each thing done as one sentence on
// stdout and every problem or question on stderr, each said once; with --json, the full report
// on stdout (the same the exec API gives) and only the problems on stderr.

export interface TellOptions {
  json: boolean;
  /** Beside each sentence, the numbers behind it: where a window went (the sentences say it in words). */
  verbose?: boolean;
  /** Added to the JSON report (run adds the envelope and which planner answered). */
  extra?: Record<string, unknown>;
}

export function tellReport(report: ExecReport, io: Io, opts: TellOptions): void {
  if (opts.json) io.out(JSON.stringify({ ...report, ...opts.extra }, null, 2) + '\n');
  else io.out(doneText(report, opts.verbose));
  io.err(problemText(report, { failures: opts.json ? 'exec' : 'people' }));
}

/** The sentences of what was done (and the tab list of a list_tabs), for stdout. */
export function doneText(report: ExecReport, verbose = false): string {
  const lines: string[] = [];
  for (const r of report.results) {
    if (!r.ok) continue;
    lines.push(r.message);
    if (r.type === 'list_tabs') lines.push(...tabLines(r.data));
    if (verbose) lines.push(...frameLines(r.data));
  }
  if (lines.length === 0 && report.status === 'done' && report.errors.length === 0) lines.push('Nothing to do');
  return lines.map((l) => l + '\n').join('');
}

/**
 * Errors, failures, the question back and warnings, for stderr. `exec` names each failed
 * command (its report is read by programs); people get the failure's sentence.
 */
export function problemText(report: ExecReport, opts: { failures: 'exec' | 'people' }): string {
  const lines = report.errors.map(formatFieldError);
  for (const r of report.results) {
    if (!r.ok) lines.push(opts.failures === 'exec' ? `commands[${r.index}] (${r.type}) failed: ${r.message}` : `✗ ${r.message}`);
  }
  if (report.clarification) lines.push(`needs clarification: ${report.clarification.reason}`);
  for (const w of report.warnings) lines.push(`warning: ${w}`);
  return lines.map((l) => l + '\n').join('');
}

type Frame = readonly number[];
const isFrame = (v: unknown): v is Frame => Array.isArray(v) && v.length === 4 && v.every((n) => typeof n === 'number');
const frame = formatRect;

/** --verbose: a placed window's frame (asked for and got, when they differ), an undone batch's windows. */
function frameLines(data: unknown): string[] {
  const d = (data ?? {}) as { requested?: unknown; bounds?: unknown; restored?: Array<{ app?: unknown; bounds?: unknown }> };
  const out: string[] = [];
  if (isFrame(d.bounds)) out.push(`  frame ${frame(d.bounds)}${isFrame(d.requested) && frame(d.requested) !== frame(d.bounds) ? ` (asked for ${frame(d.requested)})` : ''}`);
  for (const w of Array.isArray(d.restored) ? d.restored : []) if (isFrame(w.bounds)) out.push(`  ${String(w.app)} at ${frame(w.bounds)}`);
  return out;
}

interface ListedTab {
  index: number;
  title: string;
  url: string;
  domain: string;
  is_active: boolean;
}

function tabLines(data: unknown): string[] {
  const tabs = (data as { tabs?: ListedTab[] } | undefined)?.tabs;
  if (!Array.isArray(tabs)) return [];
  return tabs.map((t) => `  ${String(t.index).padStart(3)}${t.is_active ? '*' : ' '} ${t.title || t.url}${t.domain ? ` · ${t.domain}` : ''}`);
}

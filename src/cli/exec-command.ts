import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ExecOptions } from '../engine/engine';
import type { ExecReport } from '../protocol/report';
import { ContextSnapshot } from '../protocol/context';
import { parseJsonOf } from '../protocol/json-syntax';
import { formatFieldError, zodErrors } from '../protocol/validation';
import type { ConfigFlags } from '../platform/config/load-config';
import { openDesk } from './open-desk';
import { EXIT } from './exit-codes';
import type { Io } from './io';

export interface ExecArgs {
  json: string;
  dryRun: boolean;
  contextFile?: string;
}

/** Prints the JSON report on stdout and each problem on stderr; the exit code says which kind. */
export async function runExec(flags: ConfigFlags, args: ExecArgs, io: Io): Promise<number> {
  const text = args.json === '-' ? await io.readStdin() : args.json;
  const parsed = parseJsonOf('input', text);
  if (!parsed.ok) {
    io.err(`${parsed.error}\n`);
    return EXIT.invalid;
  }
  const input = parsed.value;

  let snapshot: ContextSnapshot | undefined;
  if (args.contextFile) {
    const loaded = await loadSnapshot(args.contextFile, io.cwd);
    if (!loaded.ok) {
      io.err(loaded.errors.map((e) => `${e}\n`).join(''));
      return EXIT.invalid;
    }
    snapshot = loaded.snapshot;
  }

  return execAndReport(flags, input, { dryRun: args.dryRun, snapshot }, io);
}

/** Executes on the desk (the service, or in this process), prints the report, and returns the exit code. */
export async function execAndReport(flags: ConfigFlags, input: unknown, opts: ExecOptions, io: Io): Promise<number> {
  const desk = await openDesk(flags, io);
  try {
    const report = await desk.exec(input, opts);
    io.out(JSON.stringify(report, null, 2) + '\n');
    for (const e of report.errors) io.err(formatFieldError(e) + '\n');
    for (const r of report.results) if (!r.ok) io.err(`commands[${r.index}] (${r.type}) failed: ${r.message}\n`);
    if (report.clarification) io.err(`needs clarification: ${report.clarification.reason}\n`);
    for (const w of report.warnings) io.err(`warning: ${w}\n`);
    return exitCodeFor(report);
  } finally {
    await desk.close();
  }
}

export function exitCodeFor(report: ExecReport): number {
  switch (report.status) {
    case 'done':
    case 'dry_run':
      return EXIT.ok;
    case 'invalid':
      return EXIT.invalid;
    case 'clarification':
    case 'cancelled':
      return EXIT.needsUser;
    case 'failed':
    case 'unavailable':
      return EXIT.failed;
  }
}

/** Reads `--context FILE`; a relative FILE is in `cwd` (the thin client's, when the service runs the CLI for it). */
export async function loadSnapshot(file: string, cwd = process.cwd()): Promise<{ ok: true; snapshot: ContextSnapshot } | { ok: false; errors: string[] }> {
  let text: string;
  try {
    text = await readFile(path.resolve(cwd, file), 'utf8');
  } catch (e) {
    return { ok: false, errors: [`--context ${file}: ${(e as Error).message}`] };
  }
  const read = parseJsonOf(`--context ${file}`, text);
  if (!read.ok) return { ok: false, errors: [read.error] };
  const json = read.value;
  const parsed = ContextSnapshot.safeParse(json);
  if (!parsed.success) return { ok: false, errors: zodErrors(parsed.error, json).map((e) => `--context ${file}: ${formatFieldError(e)}`) };
  return { ok: true, snapshot: parsed.data };
}

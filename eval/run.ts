// `npm run eval -- [--planner local|llm|auto] [--filter tag[,tag]] [--verbose] [--timeout ms]`
// Runs a planner over the labelled set in eval/ and prints coverage, precision, clarification
// recall, latency (and token use for an LLM). See eval/README.md for what each figure means.
// Exit codes: 0 the figures were printed (whatever they are), 1 the labelled set is broken,
// 2 bad arguments or the planner cannot run here.
//
// `npm run eval -- --agent [--filter id[,id]] [--verbose] [--timeout ms]` runs the agent task
// suite instead (eval/agent/run-agent-eval.ts, loaded only then): real Chromium, the configured LLM.

import path from 'node:path';
import {
  figures,
  loadLabelledSet,
  problemLines,
  reportLines,
  runCases,
  summaryLine,
  tagTable,
  verboseLine,
  type LabelledCase,
} from './harness';
import { buildPlanner, MODES, type Mode } from './planners';

export interface CliOptions {
  mode: Mode;
  filter: string[];
  verbose: boolean;
  timeoutMs: number;
  root: string;
}

const USAGE =
  'usage: tsx eval/run.ts [--planner local|llm|auto] [--filter tag[,tag…]] [--verbose] [--timeout ms]\n' +
  '       tsx eval/run.ts --agent [--filter id[,id…]] [--verbose] [--timeout ms]   (the agent task suite, eval/agent/)';

export function parseArgs(argv: readonly string[]): CliOptions | string {
  const o: CliOptions = { mode: 'local', filter: [], verbose: false, timeoutMs: 60_000, root: __dirname };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = () => inline ?? argv[++i];
    switch (flag) {
      case '--planner': {
        const v = value();
        if (!MODES.includes(v as Mode)) return `--planner must be one of ${MODES.join(', ')}${v ? `, not "${v}"` : ''}\n${USAGE}`;
        o.mode = v as Mode;
        break;
      }
      case '--filter': {
        const v = value();
        if (!v) return `--filter needs a tag\n${USAGE}`;
        o.filter.push(...v.split(',').map((t) => t.trim()).filter(Boolean));
        break;
      }
      case '--verbose':
      case '-v':
        o.verbose = true;
        break;
      case '--timeout': {
        const n = Number(value());
        if (!Number.isInteger(n) || n <= 0) return `--timeout must be a positive number of milliseconds\n${USAGE}`;
        o.timeoutMs = n;
        break;
      }
      case '--root': {
        const v = value();
        if (!v) return `--root needs a directory\n${USAGE}`;
        o.root = path.resolve(v);
        break;
      }
      case '--help':
      case '-h':
        return USAGE;
      default:
        return `unknown argument "${arg}"\n${USAGE}`;
    }
  }
  return o;
}

export type { Io } from './io';
import type { Io } from './io';

const defaultIo: Io = { out: (l) => console.log(l), err: (l) => console.error(l), env: process.env };

export async function main(argv: readonly string[], io: Io = defaultIo, build = buildPlanner): Promise<number> {
  if (argv.includes('--agent')) {
    // The agent suite starts a desktop and Chromium: its modules load only when asked for.
    const agent = await import('./agent/run-agent-eval');
    return agent.main(argv.filter((a) => a !== '--agent'), io);
  }
  const opts = parseArgs(argv);
  if (typeof opts === 'string') {
    (opts === USAGE ? io.out : io.err)(opts);
    return opts === USAGE ? 0 : 2;
  }

  const { set, problems } = loadLabelledSet(opts.root);
  if (problems.length) {
    io.err(`The labelled set in ${opts.root} has ${problems.length} problem${problems.length === 1 ? '' : 's'}; fix them before any figure means anything:`);
    for (const p of problems) io.err(`  ${p}`);
    return 1;
  }

  let cases: LabelledCase[] = set.cases;
  if (opts.filter.length) {
    cases = cases.filter((c) => opts.filter.some((t) => c.tags.includes(t) || c.context === t || c.id === t));
    if (cases.length === 0) {
      const tags = [...new Set(set.cases.flatMap((c) => c.tags))].sort();
      io.err(`No case has the tag ${opts.filter.map((t) => `"${t}"`).join(' or ')}; tags: ${tags.join(', ')}`);
      return 2;
    }
  }

  const built = await build(opts.mode, io.env);
  if (!built.planner) {
    io.err(built.message);
    return 2;
  }
  const { planner, note } = built;
  if (note) io.out(note);
  io.out(`Evaluating ${planner.describe()} on ${cases.length} cases over ${set.contexts.size} contexts…`);

  const results = await runCases(planner, set, cases, {
    timeoutMs: opts.timeoutMs,
    onResult: opts.verbose ? (r) => io.out(verboseLine(r)) : undefined,
  });

  const wrong = problemLines(results);
  if (wrong.length) {
    io.out('');
    io.out(`${wrong.length} answer${wrong.length === 1 ? '' : 's'} to look at (expected vs got):`);
    for (const w of wrong) io.out(w);
  }
  const f = figures(results);
  io.out('');
  if (opts.verbose) {
    for (const l of tagTable(results)) io.out(l);
    io.out('');
  }
  for (const l of reportLines(f, planner.describe(), opts.mode === 'auto')) io.out(l);
  io.out(summaryLine(f, opts.mode));
  return 0;
}

if (require.main === module) {
  void main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
      // An HTTP client's keep-alive sockets must not hold the process open after the report.
      setTimeout(() => process.exit(code), 1_000).unref();
    },
    (e) => {
      console.error(`eval crashed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      process.exit(1);
    },
  );
}

// Planner cost: prompt tokens for a busy desk (compact context vs a plain JSON dump, with a
// real tokenizer) and the offline matcher's planning time over the whole labelled eval set.
import { encode } from 'gpt-tokenizer';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadLabelledSet } from '../eval/harness';
import { createLocalPlanner } from '../src/engine/local-planner';
import { compactContext } from '../src/engine/planning/compact-context';
import { systemPrompt, userMessage } from '../src/engine/planning/system-prompt';
import { bigSnapshot } from '../tests/support/big-snapshot';
import { fmtMs, formatTable, machineNote, stats } from './stats';

const ROUNDS = 20;

export async function run(): Promise<void> {
  const snap = bigSnapshot();
  const text = 'put chrome on the left half and cursor on the right half';
  const compactTokens = encode(compactContext(snap)).length;
  const jsonTokens = encode(JSON.stringify(snap)).length;
  const promptTokens = encode(systemPrompt()).length + encode(userMessage({ text, context: snap, turns: [] })).length;
  const dumpPromptTokens = encode(systemPrompt()).length + encode(`${JSON.stringify(snap)}\n\n${text}`).length;

  const { set, problems } = loadLabelledSet(path.join(__dirname, '..', 'eval'));
  if (problems.length) throw new Error(`eval set has problems: ${problems[0]}`);
  const planner = createLocalPlanner();
  const samples: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const c of set.cases) {
      const context = set.contexts.get(c.context)!;
      const t = performance.now();
      await planner.plan({ text: c.text, context, turns: [] });
      if (round > 0) samples.push(performance.now() - t); // round 0 warms the JIT and caches
    }
  }
  const s = stats(samples);

  const ratio = compactTokens / jsonTokens;
  console.log(
    formatTable([
      ['measure', 'DeskPilot', 'plain JSON dump', 'ratio', 'target met?'],
      ['context tokens: 100 tabs, 20 windows, 2 monitors, 5 presets', `${compactTokens}`, `${jsonTokens}`, ratio.toFixed(2), ratio <= 0.4 ? 'yes (≤0.4)' : 'NO (≤0.4)'],
      ['whole prompt tokens (system + user)', `${promptTokens}`, `${dumpPromptTokens}`, (promptTokens / dumpPromptTokens).toFixed(2), 'n/a'],
      ['offline matcher, per request', `${fmtMs(s.p50)} p50, ${fmtMs(s.p95)} p95`, '—', '—', s.p95 < 5 ? 'yes (p95 < 5 ms)' : 'NO (p95 < 5 ms)'],
    ]),
  );
  console.log(
    `\ntokens: gpt-tokenizer (o200k_base). Timing: createLocalPlanner().plan over all ${set.cases.length} eval utterances x ${ROUNDS - 1} rounds ` +
      `(n=${s.n}, min ${fmtMs(s.min)}, max ${fmtMs(s.max)}).\n${machineNote()}`,
  );
}

import type { ConfigFlags } from '../platform/config/load-config';
import { loadConfig } from '../platform/config/load-config';
import { probeWindowBackend, type WindowBackendReport } from '../compose/window-backend-report';
import { EXIT } from './exit-codes';
import type { Io } from './io';

// `deskpilot doctor [--json]`: which window backend this session uses and why, whether it
// answers, and what is missing when it does not. Exit 0 when windows can be placed, else 1.

export async function runDoctor(flags: ConfigFlags, o: { json: boolean }, io: Io): Promise<number> {
  const config = await loadConfig(flags);
  const report = await probeWindowBackend(config, process.env, process.platform);
  io.out(o.json ? JSON.stringify({ windows: report }, null, 2) + '\n' : doctorText(report));
  return report.problem ? EXIT.failed : EXIT.ok;
}

export function doctorText(r: WindowBackendReport): string {
  const lines = [`Window backend: ${r.kind ?? 'none'}${r.describes ? ` — ${r.describes}` : ''}`, `  why: ${r.reason}`];
  if (r.limit) lines.push(`  limit: ${r.limit}`);
  // With no backend the reason is what is missing: said once.
  if (r.problem && r.problem !== r.reason) lines.push(`  missing: ${r.problem}`);
  for (const m of r.monitors) lines.push(`  monitor ${m.name} (${m.roles.join(', ') || 'no role'}): [${m.bounds.join(',')}], work area [${m.work_area.join(',')}]`);
  if (r.windows !== null) lines.push(`  ${r.windows} window${r.windows === 1 ? '' : 's'} listed`);
  lines.push(r.problem ? 'Window commands will not work until that is fixed.' : 'Window commands work in this session.');
  return lines.join('\n') + '\n';
}

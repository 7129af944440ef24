import type { ContextSnapshot } from '../protocol/context';
import { clip } from '../engine/words';

// The human view of a snapshot: aligned columns that fit a terminal, the active tab starred.

const pad = (s: string, n: number) => s + ' '.repeat(Math.max(0, n - s.length));
const rect = ([l, t, r, b]: readonly number[]) => `${l},${t} ${r! - l!}x${b! - t!}`;

function table(rows: string[][], widths: number[]): string[] {
  return rows.map((row) => row.map((cell, i) => pad(clip(cell, widths[i]!), widths[i]!)).join('  ').trimEnd());
}

export function formatContext(snap: ContextSnapshot): string {
  const out: string[] = [];
  const { chrome, windows } = snap.sources;

  out.push(`Chrome — ${chrome.ok ? chrome.message : `unavailable: ${chrome.message}`}`);
  if (snap.tabs.length) {
    const rows = [['#', 'win:tab', 'title', 'domain', 'summary']];
    for (const t of snap.tabs) {
      rows.push([`${t.index}${t.is_active ? '*' : ''}`, `${t.window_index}:${t.local_index}`, t.title || t.url, t.domain, t.content_summary ?? '']);
    }
    out.push(...table(rows, [5, 7, 40, 22, 40]).map((l) => '  ' + l));
    out.push('  (* = active tab of its window)');
  } else if (chrome.ok) out.push('  no tabs open');

  out.push('', `Windows — ${windows.ok ? windows.message : `unavailable: ${windows.message}`}`);
  for (const m of snap.monitors) {
    out.push(`  monitor ${m.name} [${m.roles.join(', ') || '—'}] ${rect(m.bounds)}${m.primary ? ' primary' : ''}`);
  }
  for (const a of snap.running_apps) {
    out.push(`  ${a.name}${a.pid ? ` (pid ${a.pid})` : ''}`);
    for (const w of a.windows) {
      const flags = [w.focused && 'focused', w.minimized && 'minimized'].filter(Boolean).join(', ');
      out.push(`    ${clip(w.title, 50)}  ${rect(w.bounds)}${w.monitor ? ` on ${w.monitor}` : ''}${flags ? ` (${flags})` : ''}`);
    }
  }
  const { presets } = snap.sources;
  out.push('', `Presets — ${!presets.ok ? `unavailable: ${presets.message}` : snap.presets.length ? snap.presets.join(', ') : 'none saved'}`);
  out.push(`Installed apps — ${snap.installed_apps.length}`, `Taken at ${snap.taken_at}`);
  return out.join('\n') + '\n';
}

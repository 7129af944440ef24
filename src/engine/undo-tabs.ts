import type { UndoTab } from '../protocol/undo';
import { DeskPilotError, errorMessage } from './errors';
import type { ChromeBackend, TabGroupRef } from './ports';

// Putting tabs back, newest change first: tabs a batch opened close, closed tabs reopen from
// their address (at their old place when their window is still open and the companion
// extension answers, else at the end of the current window), and pinned, muted, grouped and
// moved tabs get their old state back. What the browser no longer allows is said, per tab.

type Kind<K extends UndoTab['kind']> = Extract<UndoTab, { kind: K }>;

const groupRef = (g: Kind<'group'>['before']): TabGroupRef | null =>
  g ? { groupId: g.group_id, windowId: g.window_id, title: g.title, color: g.color } : null;

/** Lines for the undo report; ok false when a change could not be put back for another reason than a tab being gone. */
export async function undoTabs(changes: readonly UndoTab[], chrome: () => Promise<ChromeBackend>): Promise<{ ok: boolean; lines: string[] }> {
  const lines: string[] = [];
  let ok = true;
  let backend: ChromeBackend;
  try {
    backend = await chrome();
  } catch (e) {
    return { ok: false, lines: [`tabs could not be put back: ${errorMessage(e)}`] };
  }
  // Runs of the same kind are undone together (one call for ten pinned tabs), newest run first.
  for (const run of runs([...changes].reverse())) {
    try {
      lines.push(...(await undoRun(run, backend)));
    } catch (e) {
      ok = false;
      const what = run.map((c) => c.label).join(', ');
      const why = e instanceof DeskPilotError && e.code === 'unavailable' ? errorMessage(e) : `failed: ${errorMessage(e)}`;
      lines.push(`${what} could not be put back: ${why}`);
    }
  }
  return { ok, lines };
}

function runs(changes: readonly UndoTab[]): UndoTab[][] {
  const out: UndoTab[][] = [];
  for (const c of changes) {
    const last = out[out.length - 1];
    if (last && last[0]!.kind === c.kind) last.push(c);
    else out.push([c]);
  }
  return out;
}

const gone = (labels: string[]) => (labels.length ? [`${labels.join(', ')}: gone, so not put back`] : []);

async function undoRun(run: UndoTab[], chrome: ChromeBackend): Promise<string[]> {
  const kind = run[0]!.kind;
  switch (kind) {
    case 'opened': {
      const opened = run as Kind<'opened'>[];
      const { closed, missing } = await chrome.closeTabs(opened.map((c) => c.target_id));
      const label = (ids: string[]) => opened.filter((c) => ids.includes(c.target_id)).map((c) => c.label);
      return [...(closed.length ? [`closed ${label(closed).join(', ')} again`] : []), ...(missing.length ? [`${label(missing).join(', ')}: already closed`] : [])];
    }
    case 'closed': {
      // Oldest place first, so each tab lands at its old index in its window.
      const closed = [...(run as Kind<'closed'>[])].sort((a, b) => (a.place?.window_id ?? 0) - (b.place?.window_id ?? 0) || (a.place?.index ?? 0) - (b.place?.index ?? 0));
      const outcomes = await chrome.openTabs(
        closed.map((c) => ({ url: c.url, pinned: c.pinned, place: c.place ? { windowId: c.place.window_id, index: c.place.index } : null })),
        {},
      );
      return closed.map((c, i) => {
        const o = outcomes[i]!;
        return 'targetId' in o ? `reopened ${c.label}` : `${c.label} not reopened: ${o.error}`;
      });
    }
    case 'pinned':
    case 'muted': {
      const lines: string[] = [];
      for (const before of [true, false]) {
        const these = run.filter((c) => (c as Kind<'pinned'>).before === before) as Kind<'pinned'>[];
        if (!these.length) continue;
        const ids = these.map((c) => c.target_id);
        const { changed, missing } = kind === 'pinned' ? await chrome.setPinned(ids, before) : await chrome.setMuted(ids, before);
        const word = kind === 'pinned' ? (before ? 'pinned' : 'unpinned') : before ? 'muted' : 'unmuted';
        const done = these.filter((c) => changed.some((x) => x.targetId === c.target_id)).map((c) => c.label);
        if (done.length) lines.push(`${done.join(', ')} ${word} again`);
        lines.push(...gone(these.filter((c) => missing.includes(c.target_id)).map((c) => c.label)));
      }
      return lines;
    }
    case 'group': {
      const grouped = run as Kind<'group'>[];
      const { done, missing } = await chrome.regroupTabs(grouped.map((c) => ({ targetId: c.target_id, group: groupRef(c.before) })));
      const back = grouped.filter((c) => done.includes(c.target_id));
      const lines = back.map((c) => (c.before ? `${c.label} back in group "${c.before.title}"` : `${c.label} out of its group again`));
      return [...lines, ...gone(grouped.filter((c) => missing.includes(c.target_id)).map((c) => c.label))];
    }
    case 'moved': {
      const moved = [...(run as Kind<'moved'>[])].sort((a, b) => a.before.window_id - b.before.window_id || a.before.index - b.before.index);
      const { done, missing } = await chrome.placeTabs(moved.map((c) => ({ targetId: c.target_id, place: { windowId: c.before.window_id, index: c.before.index } })));
      const back = moved.filter((c) => done.includes(c.target_id)).map((c) => c.label);
      return [...(back.length ? [`${back.join(', ')} moved back`] : []), ...gone(moved.filter((c) => missing.includes(c.target_id)).map((c) => c.label))];
    }
  }
}

import type { Command } from '../../../protocol/commands';
import type { DeskIndex, IndexTab, PlanPreview } from '../../../protocol/launcher';
import { curlyQuotes, siteName, tidyMessage } from './site';

// The launcher's first row: what Enter would do with the words, in the app's voice —
// "Switch to tab 3 · r/typescript", "Close 4 YouTube tabs — asks first" — from the offline
// matcher's preview and the index the list was made from. Pure.

export interface PlanLine {
  /** The action: "Switch to tab 3", "Close 4 YouTube tabs". */
  title: string;
  /** What it acts on, when the title does not say it: the tab's title, the preset's name. */
  detail: string | null;
  /** "asks first" for what closes (per the settings), or what happens to words it does not know. */
  note: string | null;
}

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const quoted = (s: string) => curlyQuotes(`"${s}"`);

function tabsOf(index: DeskIndex, indices: readonly number[]): IndexTab[] {
  return indices.map((i) => index.tabs.find((t) => t.index === i)).filter((t): t is IndexTab => t !== undefined);
}

/** "4 YouTube tabs" when they share a site, else "4 tabs". */
function tabsPhrase(tabs: readonly IndexTab[], n: number): string {
  const domains = new Set(tabs.map((t) => t.domain));
  const site = domains.size === 1 && tabs.length === n ? siteName(tabs[0]!.domain, tabs.map((t) => t.title)) : null;
  return `${n} ${site ? `${site} ` : ''}tabs`;
}

function commandLine(c: Command, index: DeskIndex): { title: string; detail: string | null; asks: boolean } {
  const app = (name: string) => index.apps.find((a) => a.name.toLowerCase() === name.toLowerCase());
  switch (c.type) {
    case 'switch_tab': {
      const tab = tabsOf(index, [c.tab_index])[0];
      return { title: `Switch to tab ${c.tab_index}`, detail: tab ? tab.title || tab.url : null, asks: false };
    }
    case 'close_tab': {
      const indices = c.tab_indices ?? [];
      const asks = index.confirm.close_tab;
      if (indices.length === 0) return { title: 'Close tabs by age', detail: null, asks };
      if (indices.length === 1) {
        const tab = tabsOf(index, indices)[0];
        return { title: `Close tab ${indices[0]}`, detail: tab ? tab.title || tab.url : null, asks };
      }
      return { title: `Close ${tabsPhrase(tabsOf(index, indices), indices.length)}`, detail: null, asks };
    }
    case 'open_url':
      return { title: 'Open in a new tab', detail: c.url, asks: false };
    case 'focus_app':
      return { title: app(c.app_name)?.running === false ? `Open ${c.app_name}` : `Bring ${c.app_name} to the front`, detail: null, asks: false };
    case 'place_app':
      return { title: c.monitor ? `Move ${c.app_name} to the ${c.monitor} monitor` : `Place ${c.app_name}`, detail: null, asks: false };
    case 'close_app':
      return { title: `Quit ${c.app_name}`, detail: null, asks: index.confirm.close_app };
    case 'activate_preset':
      return { title: 'Apply preset', detail: c.preset_name, asks: false };
    case 'list_tabs':
      return { title: 'List your tabs', detail: null, asks: false };
    case 'list_apps':
      return { title: 'List running apps', detail: null, asks: false };
    case 'query':
      return { title: 'Answer', detail: c.question, asks: false };
    case 'undo':
      return { title: (c.steps ?? 1) > 1 ? `Undo the last ${c.steps} changes` : 'Undo the last change', detail: null, asks: false };
    default: {
      // Commands this list has no words of its own for yet ("pin_tabs" → "Pin tabs").
      const other = c as { type: string; tab_indices?: number[] };
      const n = other.tab_indices?.length;
      return { title: cap(`${other.type.replace(/_/g, ' ')}${n ? ` (${n})` : ''}`), detail: null, asks: false };
    }
  }
}

/** "Close which tab: 1 "Reddit" (reddit.com) or 5 …? (Or say both.)" → "Close which tab?": the rows below name them. */
export function briefQuestion(question: string): string {
  const m = /^([^:?]*\bwhich\b[^:?]*):\s/i.exec(question.trim());
  return m ? `${m[1]!.trim()}?` : question.trim();
}

/** Words the offline matcher does not know: Enter runs them through the planners. */
export function unknownLine(words: string, index: DeskIndex): PlanLine {
  return { title: `Run ${quoted(words)}`, detail: null, note: index.planner === 'llm' ? 'the language model plans it' : 'not a sentence the offline matcher knows' };
}

/** The plan row for these words: the preview when it is for them, else what Enter will do anyway. */
export function describePlan(text: string, preview: PlanPreview | null, index: DeskIndex | null): PlanLine {
  const words = text.trim();
  const fallback: PlanLine = { title: `Run ${quoted(words)}`, detail: null, note: null };
  if (!preview || preview.text !== words || !index || preview.index !== index.id) return fallback;
  if (preview.kind === 'unknown') return unknownLine(words, index);
  if (preview.kind === 'ask') {
    const q = preview.question ? tidyMessage(briefQuestion(preview.question)) : 'Which one?';
    const n = preview.choices.length;
    return { title: `Asks: ${q}`, detail: null, note: n > 1 ? `${n} choices` : null };
  }
  const lines = preview.commands.map((c) => commandLine(c, index));
  if (lines.length === 0) return { title: 'Nothing to do', detail: null, note: null };
  const asks = lines.some((l) => l.asks);
  if (lines.length === 1) return { title: lines[0]!.title, detail: lines[0]!.detail, note: asks ? 'asks first' : null };
  // "Move Chromium to the left monitor, then XTerm to the right monitor".
  const title = lines.map((l, i) => (i === 0 ? l.title : l.title.charAt(0).toLowerCase() + l.title.slice(1))).join(', then ');
  return { title, detail: null, note: asks ? 'asks first' : null };
}

// The agent's page script as Node sees it: the shapes of what it answers (the element tuple E, the
// flag bits F it is handed, CollectResult, PreparedPoint) and the text evaluated in each frame's
// isolated world. The script itself is page-script.src.js, a checked source (tsconfig.page.json)
// shipped as text through page-script.generated.ts — never a stringified function, which a
// bundler or tsx may wrap in helpers (`__name(...)`) that do not exist in the page.

import { HIT_PROBE_SCRIPT } from './hit-probe';
import { PAGE_SCRIPT_SOURCE } from './page-script.generated';

export const WORLD_NAME = '__deskpilot_agent__';

/** Element tuple indices returned by collect() (kept positional: 5,000-element pages make keys costly). */
export const E = {
  id: 0,
  tag: 1,
  role: 2,
  label: 3,
  text: 4,
  value: 5,
  placeholder: 6,
  href: 7,
  type: 8,
  flags: 9,
  x: 10,
  y: 11,
  w: 12,
  h: 13,
  options: 14,
  autocomplete: 15,
} as const;

export const F = {
  disabled: 1,
  checked: 2,
  unchecked: 4,
  /** Intersects the frame's viewport and passed the hit test. */
  inView: 8,
  password: 16,
  expanded: 32,
  collapsed: 64,
  selected: 128,
  /** A value-bearing control (input/textarea/select/contenteditable): render value="" even when empty. */
  valued: 256,
  /** Shown through its visible <label> (the control itself is visually hidden). */
  viaLabel: 512,
  /** A password-like field that holds a value (the value itself never leaves the page). */
  hasSecret: 1024,
} as const;

export type CollectedElement = [
  id: number,
  tag: string,
  role: string,
  label: string,
  text: string,
  value: string,
  placeholder: string,
  href: string,
  type: string,
  flags: number,
  x: number,
  y: number,
  w: number,
  h: number,
  options: string,
  autocomplete: string,
];

export interface CollectResult {
  skip?: boolean;
  url: string;
  title: string;
  vw: number;
  vh: number;
  sx: number;
  sy: number;
  docH: number;
  els: CollectedElement[];
  /** Visible interactive elements more than `farScreens` screens above/below the viewport (not listed). */
  farAbove: number;
  farBelow: number;
  ms: number;
}

export interface PreparedPoint {
  ok: boolean;
  /** not_found | hidden | covered | disabled */
  reason?: string;
  x: number;
  y: number;
  /** A short description of what covers the element, when covered. */
  cover?: string;
  tag?: string;
}

/** The script's one function, at the start of a line (its header may name it too). */
const ENTRY = /^function installPageScript\(/m;
/** Where the hit probe's half of a verified click joins it (in its scope: it uses byId, hits, describe …). */
const HIT_PROBE_MARKER = '// @hit-probe';

/** The page script as evaluated in each world: installPageScript(F) with the hit probe spliced in. */
export function assemblePageScript(source: string, hitProbe: string): string {
  const entry = source.search(ENTRY);
  const marker = entry < 0 ? -1 : source.indexOf(HIT_PROBE_MARKER, entry);
  if (marker < 0) throw new Error(`the page script lacks a line "function installPageScript(" or the "${HIT_PROBE_MARKER}" marker after it`);
  return `(${source.slice(entry, marker)}${hitProbe}\n${source.slice(marker)})(${JSON.stringify(F)});`;
}

export const PAGE_SCRIPT = assemblePageScript(PAGE_SCRIPT_SOURCE, HIT_PROBE_SCRIPT);

// Builds the snapshot text the executor model reads: a <browsing_context> block
// with the URL, the numbered interactive elements, "N more above/below" summaries and an
// <api_activity> block — within a hard character budget, keeping the elements in and near the
// viewport first. Pure: the CDP side hands it collected elements in page coordinates.

import { clip, oneLine } from '../../../engine/words';
import type { ApiCall } from './api-log';
import { F } from './page-script';
import { maskFieldValue, maskPii, redactBody, redactUrl, removeSecrets } from './pii';

export interface SnapElement {
  n: number;
  tag: string;
  role: string;
  label: string;
  text: string;
  value: string;
  placeholder: string;
  href: string;
  type: string;
  flags: number;
  options: string;
  autocomplete: string;
  /** Box in the top-level viewport (CSS px). */
  x: number;
  y: number;
  w: number;
  h: number;
  /** Visible in the viewport right now (hit-tested in its frame and inside the top viewport). */
  inView: boolean;
}

export interface RenderInput {
  url: string;
  title: string;
  viewport: { w: number; h: number };
  /** Document order (frames spliced in where they sit). */
  elements: SnapElement[];
  /** Numbers listed in the previous snapshot of the same document; null = first snapshot of it (nothing is marked new). */
  previous: ReadonlySet<number> | null;
  api: { calls: ApiCall[]; dropped: number };
  /** Events since the previous snapshot, in our own words (dialogs handled, tabs opened). */
  notices: string[];
  maxChars: number;
  maskPii: boolean;
  /** Values typed into password fields: removed wherever they would appear. */
  secrets: ReadonlySet<string>;
  /** Elements further than this many screens above or below the viewport are only counted. Default 2. */
  farScreens?: number;
  /** Far elements the collector already counted instead of sending. */
  farAbove?: number;
  farBelow?: number;
}

export interface RenderOutput {
  text: string;
  /** Numbers listed in the text. */
  listed: number[];
  newIds: number[];
  truncated: boolean;
}

const CLOSE = '</browsing_context>';
const API_SHARE = 0.2;
const API_MAX = 2500;
const BODY_EXCERPT = 160;

export function escapeText(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\s+/g, ' ');
}

export function escapeAttr(s: string): string {
  return escapeText(s).replace(/"/g, '&quot;');
}

/** Drops the query string and fragment (they carry session ids, tracking and personal data). */
export function stripQuery(href: string): string {
  if (/^javascript:/i.test(href)) return 'javascript:';
  if (/^data:/i.test(href)) return 'data:';
  const cut = href.search(/[?#]/);
  return cut < 0 ? href : href.slice(0, cut);
}

/** Same-origin URLs as path+query, others in full; fragments dropped. */
export function displayUrl(url: string, pageUrl: string): string {
  try {
    const u = new URL(url);
    const page = new URL(pageUrl);
    u.hash = '';
    return u.origin === page.origin ? `${u.pathname}${u.search}` : u.toString();
  } catch {
    return url;
  }
}

export function elementLine(e: SnapElement, isNew: boolean, o: { maskPii: boolean; secrets: ReadonlySet<string> }): string {
  const tag = e.tag.replace(/[^a-z0-9-]/gi, '') || 'element';
  const clean = (s: string) => removeSecrets(o.maskPii ? maskPii(s) : s, o.secrets);
  const attrs = [`id="${e.n}"`];
  if (e.role && e.role !== tag) attrs.push(`role="${escapeAttr(e.role)}"`);
  if (e.type) attrs.push(`type="${escapeAttr(e.type)}"`);
  if (e.label) attrs.push(`label="${escapeAttr(clean(e.label))}"`);
  if (e.flags & F.password) {
    // Never the value of a password field: only whether it holds one.
    attrs.push(`value="${e.flags & F.hasSecret ? '••••••••' : ''}"`);
  } else if (e.flags & F.valued || e.value) {
    const v = o.maskPii ? maskFieldValue(e.value, { type: e.type, autocomplete: e.autocomplete }) : e.value;
    attrs.push(`value="${escapeAttr(removeSecrets(v, o.secrets))}"`);  } else if (tag === 'input' && e.text) {
    // A button input's caption is its value, as in its HTML: without it the line says nothing about what it does.
    attrs.push(`value="${escapeAttr(clean(e.text))}"`);
  }
  if (e.placeholder) attrs.push(`placeholder="${escapeAttr(e.placeholder)}"`);
  if (e.href) attrs.push(`href="${escapeAttr(clean(stripQuery(e.href)))}"`);
  if (e.flags & F.checked) attrs.push('checked="true"');
  else if (e.flags & F.unchecked) attrs.push('checked="false"');
  if (e.flags & F.expanded) attrs.push('expanded="true"');
  else if (e.flags & F.collapsed) attrs.push('expanded="false"');
  if (e.flags & F.selected) attrs.push('selected="true"');
  if (e.flags & F.disabled) attrs.push('disabled="true"');
  const open = `${isNew ? '*' : ''}<${tag} ${attrs.join(' ')}>`;
  if (tag === 'input') return open;
  const inner = tag === 'select' ? e.options : clean(e.text);
  return `${open}${escapeText(inner)}</${tag}>`;
}

function apiBlock(input: RenderInput, budget: number): string {
  const { calls, dropped } = input.api;
  if (calls.length === 0) return '';
  const lines = calls.map((c) => {
    let url = redactUrl(displayUrl(c.url, input.url), input.secrets);
    if (input.maskPii) url = maskPii(url);
    const status = c.status === undefined ? '' : ` status="${c.status}"`;
    let body = '';
    if (c.body !== undefined && c.body !== '') {
      let b = redactBody(c.body, input.secrets);
      if (input.maskPii) b = maskPii(b);
      body = `\n    ${escapeText(clip(oneLine(b), BODY_EXCERPT))}`;
    } else if (c.bodyNotCaptured) body = '\n    (body not captured)';
    return `  <call method="${escapeAttr(c.method)}" url="${escapeAttr(clip(url, 300))}"${status}>${body}${body ? '\n  ' : ''}</call>`;
  });
  // Newest calls matter most: drop from the oldest end until it fits.
  let skipped = dropped;
  let start = 0;
  const size = () => lines.slice(start).reduce((n, l) => n + l.length + 1, 0) + 40;
  while (start < lines.length && size() > budget) {
    start++;
    skipped++;
  }
  if (start >= lines.length) return `<api_activity>\n  (${calls.length + dropped} calls; too many to list)\n</api_activity>`;
  const head = skipped > 0 ? `  (${skipped} earlier calls not shown)\n` : '';
  return `<api_activity>\n${head}${lines.slice(start).join('\n')}\n</api_activity>`;
}

export function renderSnapshot(input: RenderInput): RenderOutput {
  const vh = Math.max(1, input.viewport.h);
  const vw = Math.max(1, input.viewport.w);
  const far = (input.farScreens ?? 2) * vh;
  const o = { maskPii: input.maskPii, secrets: input.secrets };
  const url = input.maskPii ? maskPii(input.url) : input.url;
  const header = [
    '<browsing_context>',
    '[Target Update]',
    `URL: ${escapeText(redactUrl(url, input.secrets))}`,
    `Title: ${escapeText(clip(input.title.trim(), 200))}`,
    '',
    'Interactive Elements:',
  ].join('\n');

  const notices = input.notices.length > 0 ? `Page events:\n${input.notices.map((n) => `- ${escapeText(clip(n, 300))}`).join('\n')}` : '';
  const api = apiBlock(input, Math.min(API_MAX, Math.floor(input.maxChars * API_SHARE)));

  // Classify: near the viewport (listed, budget permitting) or far above/below (counted).
  let farAbove = input.farAbove ?? 0;
  let farBelow = input.farBelow ?? 0;
  const near: Array<{ e: SnapElement; i: number; rank: number; inView: boolean }> = [];
  input.elements.forEach((e, i) => {
    if (e.y + e.h < -far) farAbove++;
    else if (e.y > vh + far) farBelow++;
    else {
      const inView = e.inView && e.y < vh && e.y + e.h > 0 && e.x < vw && e.x + e.w > 0;
      const distance = inView ? 0 : e.y >= vh ? e.y - vh : e.y + e.h <= 0 ? -(e.y + e.h) : 0;
      near.push({ e, i, rank: inView ? -1 : distance, inView });
    }
  });

  const isNew = (n: number) => input.previous !== null && !input.previous.has(n);
  const lines = new Map<number, string>();
  for (const c of near) lines.set(c.i, elementLine(c.e, isNew(c.e.n), o));

  const tail = [notices, api, CLOSE].filter(Boolean).join('\n');
  const SUMMARY_RESERVE = 220;
  let budget = input.maxChars - header.length - tail.length - SUMMARY_RESERVE - 2;
  const ranked = [...near].sort((a, b) => a.rank - b.rank || a.i - b.i);
  const keep = new Set<number>();
  let cut = 0;
  let cutAbove = 0;
  let cutBelow = 0;
  for (const c of ranked) {
    const len = lines.get(c.i)!.length + 1;
    if (cut === 0 && len <= budget) {
      keep.add(c.i);
      budget -= len;
    } else {
      cut++;
      if (c.e.y + c.e.h <= 0) cutAbove++;
      else if (c.e.y >= vh) cutBelow++;
      // Cut elements within the viewport's height are no scroll away: only the cut line counts them.
    }
  }

  const body: string[] = [];
  const above = farAbove + cutAbove;
  const below = farBelow + cutBelow;
  if (above > 0) body.push(`(${above} more above — scroll up to see them)`);
  const listed: number[] = [];
  const newIds: number[] = [];
  for (const c of near) {
    if (!keep.has(c.i)) continue;
    body.push(lines.get(c.i)!);
    listed.push(c.e.n);
    if (isNew(c.e.n)) newIds.push(c.e.n);
  }
  if (listed.length === 0) body.push(input.elements.length === 0 ? '(no interactive elements)' : '(no interactive elements near the viewport)');
  if (below > 0) body.push(`(${below} more below — scroll down to see them)`);
  if (cut > 0) body.push(`(snapshot cut to the size budget: ${cut} elements near the viewport not listed)`);
  if (newIds.length > 0) body.push('(* = new since the previous snapshot)');

  let text = [header, ...body, tail].join('\n');
  let truncated = cut > 0;
  if (text.length > input.maxChars) {
    // Only a budget too small for the header and the fixed parts gets here: cut hard.
    text = `${text.slice(0, Math.max(0, input.maxChars - CLOSE.length - 2))}…\n${CLOSE}`.slice(-Math.max(input.maxChars, CLOSE.length));
    truncated = true;
  }
  return { text, listed, newIds, truncated };
}
